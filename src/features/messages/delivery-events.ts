// Applying a provider's delivery event (docs/decisions/messages.md, "What comes back"): verified by
// the provider's own scheme before it reaches here (resend-events.ts, twilio-events.ts). The event
// names the account and the message we tagged it with; the message is found among that account's
// only. Each event is recorded once, and the status only ever moves further (delivery-status.ts), so
// a duplicate or a late event changes nothing and the shop hears of each change once.
import { and, eq, sql } from "drizzle-orm";
import { openDb } from "../../db/client";
import { directoryDb } from "../../db/directory";
import { accounts, messageEvents, messages, undeliverableRecipients } from "../../db/schema";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import { ApiError } from "../../http/errors";
import { emitEvent } from "../webhooks/emit";
import { type DeliveryOutcome, movesFurther } from "./delivery-status";
import { toMessageJson } from "./serializer";

export interface DeliveryEvent {
  provider: "resend" | "twilio";
  /** Unique per event at the provider: a redelivery carries the same. */
  eventId: string;
  accountId: number;
  messageId: number;
  /** The provider's id of the message, when the event names it. */
  providerMessageId: string | null;
  /** The provider's own word for what happened (`email.bounced`, `undelivered`, ...). */
  kind: string;
  /** What it means for the message; null when it changes nothing (sent, opened, delayed, ...). */
  outcome: DeliveryOutcome | null;
  /** The recipient refuses for good (a hard bounce, a complaint, a number that cannot take SMS). */
  undeliverable: boolean;
  detail: string | null;
  occurredAt: number;
}

export type DeliveryEventApplied = "updated" | "unchanged" | "duplicate" | "ignored";

const refused = (why: string) => new ApiError(400, { error: why });

export async function applyDeliveryEvent(env: Env, event: DeliveryEvent, now: number): Promise<DeliveryEventApplied> {
  const [account] = await directoryDb(env).select().from(accounts).where(eq(accounts.id, event.accountId)).limit(1);
  if (!account) throw refused("The event names no account here.");
  const db = openDb(shardD1(env, account.shard));
  const own = and(eq(messages.id, event.messageId), eq(messages.account_id, account.id));
  const [[message], [seen]] = await db.batch([
    db.select().from(messages).where(own).limit(1),
    db
      .select({ id: messageEvents.id })
      .from(messageEvents)
      .where(and(eq(messageEvents.account_id, account.id), eq(messageEvents.provider, event.provider), eq(messageEvents.event_id, event.eventId)))
      .limit(1),
  ]);
  if (!message) throw refused("The event names no message of that account.");
  // Our tags name the message; the provider's id must agree with what it answered when it took it.
  if (event.providerMessageId && message.provider_message_id && message.provider_message_id !== event.providerMessageId) {
    throw refused("The event's message id is not the one the provider gave that message.");
  }
  if (seen) return "duplicate";
  const record = db
    .insert(messageEvents)
    .values({
      account_id: account.id,
      provider: event.provider,
      event_id: event.eventId,
      message_id: message.id,
      kind: event.kind,
      occurred_at: event.occurredAt,
      received_at: now,
    })
    .onConflictDoNothing();
  if (!event.outcome) {
    await record;
    return "ignored";
  }
  const update = db
    .update(messages)
    .set({
      status: event.outcome,
      // A bounce's reason replaces nothing useful; a delivery keeps whatever the row said.
      ...(event.outcome === "delivered" ? {} : { error: event.detail ?? event.kind }),
      provider_message_id: sql`COALESCE(${messages.provider_message_id}, ${event.providerMessageId})`,
      updated_at: now,
    })
    .where(and(own, movesFurther(event.outcome)))
    .returning();
  const refuseRecipient = db
    .insert(undeliverableRecipients)
    .values({
      account_id: account.id,
      channel: message.channel,
      recipient: message.recipient,
      reason: event.outcome,
      detail: event.detail,
      message_id: message.id,
      created_at: now,
    })
    .onConflictDoNothing();
  // An erased person's message keeps no recipient (docs/decisions/personal-data.md): nothing to refuse.
  const refuses = event.undeliverable && message.recipient !== "";
  const [, changed] = refuses ? await db.batch([record, update, refuseRecipient]) : await db.batch([record, update]);
  const [updated] = changed;
  if (!updated) return "unchanged";
  await emitEvent(
    env,
    account,
    event.outcome === "delivered" ? "message.delivered" : "message.bounced",
    { kind: "message", id: updated.id, json: toMessageJson(updated, account.time_zone) },
    { via: "system" },
    now,
  );
  return "updated";
}
