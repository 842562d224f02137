// The two message shapes on booking-webhooks: an event to fan out (sent by emit.ts) and one
// attempt of one delivery (sent by the fan-out, by a failed attempt and by redeliver).
import * as z from "zod";
import { WEBHOOK_EVENTS, WEBHOOK_OBJECTS, type WebhookEventMessage } from "./emit";

/** Which shard's database holds the rows a message names; absent (queued before shards) is DB. */
const shard = z
  .string()
  .regex(/^DB(_SHARD_\d+)?$/)
  .default("DB");

const eventMessage = z.object({
  account_id: z.number().int().positive(),
  shard,
  event: z.enum(WEBHOOK_EVENTS),
  idempotency_id: z.string().min(1).max(100),
  generated_at: z.string(),
  performed_by: z.object({
    via: z.enum(["private_api", "public_api", "system"]),
    user: z.object({ id: z.number(), name: z.string(), email: z.string() }).optional(),
  }),
  data: z.looseObject({ object: z.enum(WEBHOOK_OBJECTS), id: z.number() }),
});

const deliveryMessage = z.object({
  type: z.literal("delivery"),
  account_id: z.number().int().positive(),
  shard,
  delivery_id: z.number().int().positive(),
  /** The attempt number this message makes; a duplicate or stale message finds it taken. */
  attempt: z.number().int().positive(),
  /** Attempts made before this series began: redeliver starts a fresh series of six. */
  series_start: z.number().int().min(0),
});

export type DeliveryMessage = z.output<typeof deliveryMessage>;

/** An event message as parsed: its shard is always known (absent meant DB). */
export type QueuedEventMessage = WebhookEventMessage & { shard: string };

type WebhookQueueMessage = { type: "event"; body: QueuedEventMessage } | { type: "delivery"; body: DeliveryMessage };

export function parseWebhookMessage(body: unknown): WebhookQueueMessage | null {
  const delivery = deliveryMessage.safeParse(body);
  if (delivery.success) return { type: "delivery", body: delivery.data };
  const event = eventMessage.safeParse(body);
  return event.success ? { type: "event", body: event.data as QueuedEventMessage } : null;
}

export const deliveryMessageFor = (delivery: { id: number; account_id: number }, shard: string, attempt: number, seriesStart: number): DeliveryMessage => ({
  type: "delivery",
  account_id: delivery.account_id,
  shard,
  delivery_id: delivery.id,
  attempt,
  series_start: seriesStart,
});
