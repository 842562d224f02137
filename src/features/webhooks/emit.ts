// Emitting a webhook event: one queue message per event, sent where the change happens; the
// webhook consumer fans it out to the account's matching subscriptions and delivers it.
import type { Account } from "../../db/schema";
import { formatInstant } from "../../domain/time";
import type { Env, Surface } from "../../env";

// The events the original service had (docs/decisions/webhooks.md).
export const WEBHOOK_EVENTS = [
  "booking.created",
  "booking.modified",
  "booking.verified",
  "booking.confirmed",
  "booking.declined",
  "booking.cancelled",
  "booking.deleted",
  "event.created",
  "event.modified",
  "event.deleted",
  "person.created",
  "person.modified",
  "person.deleted",
  // Sent only when the shop erases a person (docs/decisions/personal-data.md): the person as erasure left it.
  "person.erased",
  "message.processed",
  // What the mail or SMS provider said after sending (docs/decisions/messages.md, "What comes back").
  "message.delivered",
  "message.bounced",
  "waitlist.joined",
  "waitlist.offered",
  "waitlist.accepted",
  "waitlist.expired",
  // A calendar subscription's fetches keep failing (docs/decisions/calendar-subscriptions.md).
  "calendar_subscription.failing",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_OBJECTS = ["booking", "event", "person", "message", "waitlist_entry", "calendar_subscription"] as const;
export type WebhookObject = (typeof WEBHOOK_OBJECTS)[number];

/** The object an event carries: its name's first part, except `waitlist.*`, which carry a waitlist_entry. */
export const objectOfEvent = (event: WebhookEventName): WebhookObject => {
  const prefix = event.split(".")[0];
  return prefix === "waitlist" ? "waitlist_entry" : (prefix as WebhookObject);
};

/** `performed_by` is `{via}` plus the user when one is known (docs/decisions/webhooks.md). */
export interface PerformedBy {
  via: "private_api" | "public_api" | "system";
  user?: { id: number; name: string; email: string };
}

/** The body of a webhook queue message; the payload a receiver gets is built from it. */
export interface WebhookEventMessage {
  account_id: number;
  /** The account's shard (db/shards.ts); absent in messages queued before shards, meaning DB. */
  shard?: string;
  event: WebhookEventName;
  /** Unique per event: receivers deduplicate with it; each delivery is keyed by it too. */
  idempotency_id: string;
  generated_at: string;
  performed_by: PerformedBy;
  data: { object: WebhookObject; id: number } & Record<string, unknown>;
}

export const performedByOf = (surface: Surface): PerformedBy => ({
  via: surface === "public_api" ? "public_api" : surface === "private_api" ? "private_api" : "system",
});

export async function emitEvent(
  env: Env,
  account: Account,
  event: WebhookEventName,
  object: { kind: WebhookObject; id: number; json: unknown },
  performedBy: PerformedBy,
  now: number,
): Promise<void> {
  const message: WebhookEventMessage = {
    account_id: account.id,
    shard: account.shard,
    event,
    idempotency_id: crypto.randomUUID(),
    generated_at: formatInstant(now, account.time_zone),
    performed_by: performedBy,
    data: { object: object.kind, id: object.id, [object.kind]: object.json },
  };
  await env.WEBHOOK_QUEUE.send(message, { contentType: "json" });
}
