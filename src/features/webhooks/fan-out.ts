// Fan-out of one event: one delivery row per matching active subscription, created at most once
// per (web hook, idempotency_id) however often the queue hands over the event.
import { and, eq, inArray } from "drizzle-orm";
import { webHooks, webhookDeliveries } from "../../db/schema";
import type { Db } from "../../env";
import type { WebhookEventMessage } from "./emit";
import type { WebhookDelivery } from "./serializer";

// D1 binds at most 100 parameters per statement; a delivery row takes 9.
const ROWS_PER_INSERT = 10;

/** The names a subscription may carry to receive `event`: exact, its object's wildcard, or `*`. */
const subscriptionsMatching = (event: string) => ["*", `${event.split(".")[0]}.*`, event];

/**
 * The receiver's body: `data`, plus the deprecated root copies of its fields (spec: Payload).
 * A root copy never replaces a field of the envelope: the `event` object's copy would overwrite
 * the event's name, so it is left out there (`data.event` carries it; docs/decisions/webhooks.md).
 */
function payloadOf(message: WebhookEventMessage) {
  const { object, id } = message.data;
  const envelope = {
    event: message.event,
    idempotency_id: message.idempotency_id,
    generated_at: message.generated_at,
    performed_by: message.performed_by,
    data: message.data,
    object,
    id,
  };
  return object in envelope ? envelope : { ...envelope, [object]: message.data[object] };
}

/** The event's deliveries that have not had a first attempt (new ones, or left by a crash). */
export async function fanOut(db: Db, message: WebhookEventMessage, now: number): Promise<WebhookDelivery[]> {
  const hooks = await db
    .select({ id: webHooks.id })
    .from(webHooks)
    .where(and(eq(webHooks.account_id, message.account_id), eq(webHooks.active, true), inArray(webHooks.event, subscriptionsMatching(message.event))));
  if (hooks.length === 0) return [];
  const payload = JSON.stringify(payloadOf(message));
  const rows = hooks.map((hook) => ({
    account_id: message.account_id,
    web_hook_id: hook.id,
    idempotency_id: message.idempotency_id,
    event: message.event,
    payload,
    state: "pending",
    attempts: 0,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insert(webhookDeliveries)
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflictDoNothing();
  }
  return db.query.webhookDeliveries.findMany({
    where: and(
      eq(webhookDeliveries.account_id, message.account_id),
      eq(webhookDeliveries.idempotency_id, message.idempotency_id),
      eq(webhookDeliveries.state, "pending"),
      eq(webhookDeliveries.attempts, 0),
    ),
  });
}
