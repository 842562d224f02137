// Web hook and delivery output. The account's secret is never part of either.
import type { WebHook, webhookAttempts, webhookDeliveries } from "../../db/schema";
import { formatInstant } from "../../domain/time";
import { timestampsOut } from "../../http/serialize";

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

export function toWebHookJson(hook: WebHook, timeZone: string) {
  return {
    id: hook.id,
    target_url: hook.target_url,
    event: hook.event,
    active: hook.active,
    ...timestampsOut(hook, timeZone),
  };
}

export function toDeliveryJson(delivery: WebhookDelivery, attempts: WebhookAttempt[], timeZone: string) {
  return {
    id: delivery.id,
    web_hook_id: delivery.web_hook_id,
    event: delivery.event,
    idempotency_id: delivery.idempotency_id,
    state: delivery.state,
    attempt_count: delivery.attempts,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      created_at: formatInstant(a.created_at, timeZone),
    })),
    payload: JSON.parse(delivery.payload) as unknown,
    ...timestampsOut(delivery, timeZone),
  };
}
