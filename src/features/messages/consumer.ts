// The booking-messages queue: claims each stored message, delivers it through the configured
// provider and settles it (sent, or failed once the dead-letter queue receives it).
import { and, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import { accounts, bookings, messages, undeliverableRecipients, type Account } from "../../db/schema";
import { openDb } from "../../db/client";
import { directoryDb } from "../../db/directory";
import { DIRECTORY_SHARD, shardD1 } from "../../db/shards";
import type { Db, Env } from "../../env";
import type { Consumer } from "../queue-consumer";
import { AFTER_SENT, sentUnlessToldMore } from "./delivery-status";
import { invitationData, type InvitationData } from "./invitation";
import { announceProcessed } from "./processed";
import { providerFor } from "./providers";
import type { Message } from "./serializer";

// `shard` is absent in messages queued before shards: those rows are on DB.
const queueBody = z.object({
  account_id: z.number().int(),
  shard: z.string().default(DIRECTORY_SHARD),
  message_id: z.number().int(),
  secret_body: z.string().optional(),
  invitation: invitationData.optional(),
});

/** A claim older than this is taken as a crashed consumer's, and may be taken over. */
const CLAIM_TIMEOUT_MS = 60_000;
const retryDelay = (attempts: number) => Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);

type Outcome = "ack" | "retry";

/** The batch's accounts, each read from the directory once however many of its messages the batch holds. */
type AccountsOfBatch = (id: number) => Promise<Account | undefined>;

function accountsOfBatch(env: Env): AccountsOfBatch {
  const read = new Map<number, Promise<Account | undefined>>();
  return (id) => {
    let account = read.get(id);
    if (!account) read.set(id, (account = directoryDb(env).query.accounts.findFirst({ where: eq(accounts.id, id) })));
    return account;
  };
}

async function deliverOne(env: Env, body: z.output<typeof queueBody>, attempts: number, now: number, accountOf: AccountsOfBatch): Promise<Outcome> {
  const db = openDb(shardD1(env, body.shard));
  const own = and(eq(messages.id, body.message_id), eq(messages.account_id, body.account_id));
  // Compare-and-swap claim: two deliveries of one queue message never both send it. Read with it,
  // in the same round trip: whether the recipient has been refused for good since it was queued.
  const [[claimed], [refusal]] = await db.batch([
    db
      .update(messages)
      .set({ status: "sending", updated_at: now })
      .where(and(own, or(eq(messages.status, "queued"), and(eq(messages.status, "sending"), lt(messages.updated_at, now - CLAIM_TIMEOUT_MS)))))
      .returning(),
    db
      .select()
      .from(undeliverableRecipients)
      .where(
        and(
          eq(undeliverableRecipients.account_id, body.account_id),
          sql`(${undeliverableRecipients.channel}, ${undeliverableRecipients.recipient}) = (SELECT channel, recipient FROM messages WHERE id = ${body.message_id} AND account_id = ${body.account_id})`,
        ),
      )
      .limit(1),
  ]);
  if (!claimed) {
    const current = await db.query.messages.findFirst({ where: own });
    if (!current) {
      // Ids only: `secret_body` holds the real text of a token SMS, code included.
      console.error(JSON.stringify({ queue: "booking-messages", error: "message row not found", account_id: body.account_id, message_id: body.message_id }));
      return "ack";
    }
    // Settled already (a redelivery): done. Claimed by a running consumer: look again later.
    return current.status === "queued" || current.status === "sending" ? "retry" : "ack";
  }
  const account = await accountOf(body.account_id);
  const provider = providerFor(env);
  if (refusal) {
    const since = new Date(refusal.created_at).toISOString();
    const why = `not sent: ${claimed.recipient} is undeliverable (${refusal.reason} since ${since}${refusal.detail ? `: ${refusal.detail}` : ""})`;
    return settleFailed(env, db, and(own, eq(messages.status, "sending")), account, null, why.slice(0, 500), now);
  }
  const result = await provider.deliver({
    message: claimed,
    account,
    body: body.secret_body ?? claimed.body,
    now,
    invitation: provider.sendsInvitations && body.invitation ? await withSequence(db, body.account_id, body.invitation) : null,
  });
  const providerName = provider.nameFor?.(claimed.channel) ?? provider.name;
  // Only the claimed row is settled: an erasure while it was out (docs/decisions/personal-data.md)
  // failed it and blanked its text, which neither a retry nor the sent text may bring back.
  const stillClaimed = and(own, eq(messages.status, "sending"));
  if (!result.ok && result.permanent) {
    return settleFailed(env, db, stillClaimed, account, providerName, result.error, now, result.undeliverable ? claimed : undefined);
  }
  if (!result.ok) {
    await db.update(messages).set({ status: "queued", provider: providerName, error: result.error, updated_at: now }).where(stillClaimed);
    console.error(JSON.stringify({ queue: "booking-messages", message_id: claimed.id, attempts, error: result.error }));
    return "retry";
  }
  const [sent] = await db
    .update(messages)
    .set({
      status: sentUnlessToldMore,
      provider: providerName,
      ...(result.providerMessageId ? { provider_message_id: result.providerMessageId } : {}),
      error: null,
      sent_at: now,
      updated_at: now,
      ...(provider.storesDeliveredText && body.secret_body ? { body: body.secret_body } : {}),
    })
    // A provider's event may have said more while the send was out (delivery-status.ts): still ours.
    .where(and(own, inArray(messages.status, ["sending", ...AFTER_SENT])))
    .returning();
  if (account && sent) await announceProcessed(env, account, sent, now);
  return "ack";
}

/**
 * The SEQUENCE an invitation goes out with: the booking's revision now, or the one its request saw
 * if higher. A write's RETURNING row predates the trigger that grows the revision (drizzle/0017),
 * so the row is read here; a later change only raises it, and DTSTAMP (the message's creation)
 * orders two invitations sent with one SEQUENCE.
 */
async function withSequence(db: Db, accountId: number, invitation: InvitationData) {
  const [row] = await db
    .select({ revision: bookings.revision })
    .from(bookings)
    .where(and(eq(bookings.id, invitation.booking_id), eq(bookings.account_id, accountId)));
  return { ...invitation, sequence: Math.max(invitation.revision, row?.revision ?? invitation.revision) };
}

/**
 * A delivery that retrying cannot help: failed now with the reason, announced once. When the
 * provider refused the address or number itself (`refusedRecipient`), later messages to it are not sent.
 */
async function settleFailed(
  env: Env,
  db: Db,
  own: SQL | undefined,
  account: Account | undefined,
  provider: string | null,
  error: string,
  now: number,
  refusedRecipient?: Message,
): Promise<Outcome> {
  const fail = db.update(messages).set({ status: "failed", provider, error, updated_at: now }).where(own).returning();
  const [[failed]] = refusedRecipient
    ? await db.batch([
        fail,
        db
          .insert(undeliverableRecipients)
          .values({
            account_id: refusedRecipient.account_id,
            channel: refusedRecipient.channel,
            recipient: refusedRecipient.recipient,
            reason: refusedRecipient.channel === "sms" ? "undelivered" : "bounced",
            detail: error.slice(0, 300),
            message_id: refusedRecipient.id,
            created_at: now,
          })
          .onConflictDoNothing(),
      ])
    : [await fail];
  if (failed && account) await announceProcessed(env, account, failed, now);
  return "ack";
}

/**
 * The messages of a batch are delivered side by side: each claims its own row, and a message's
 * time is mostly waiting (D1, the provider), so one after another the batch took the sum of them.
 */
const liveConsumer: Consumer = async (batch, env) => {
  const accountOf = accountsOfBatch(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = queueBody.safeParse(message.body);
      if (!parsed.success) {
        // Never acked silently: it goes on to the dead-letter queue, whose consumer logs it.
        console.error(JSON.stringify({ queue: batch.queue, error: "unreadable message body", id: message.id }));
        message.retry();
        return;
      }
      try {
        const outcome = await deliverOne(env, parsed.data, message.attempts, Date.now(), accountOf);
        if (outcome === "ack") message.ack();
        else message.retry({ delaySeconds: retryDelay(message.attempts) });
      } catch (error) {
        console.error(JSON.stringify({ queue: batch.queue, message_id: parsed.data.message_id, error: String(error) }));
        message.retry({ delaySeconds: retryDelay(message.attempts) });
      }
    }),
  );
};

/** Retries are spent: the message is recorded as failed with its last error, and announced. */
const deadConsumer: Consumer = async (batch, env) => {
  const directory = directoryDb(env);
  const now = Date.now();
  for (const message of batch.messages) {
    const parsed = queueBody.safeParse(message.body);
    if (!parsed.success) {
      // The body is not logged: an unreadable one may still carry a token SMS's real text.
      console.error(JSON.stringify({ queue: batch.queue, error: "unreadable message body, dropped", id: message.id }));
      message.ack();
      continue;
    }
    const db = openDb(shardD1(env, parsed.data.shard));
    const own = and(eq(messages.id, parsed.data.message_id), eq(messages.account_id, parsed.data.account_id));
    const current = await db.query.messages.findFirst({ where: own });
    const [failed] = await db
      .update(messages)
      .set({ status: "failed", error: `not delivered, retries exhausted: ${current?.error ?? "unknown error"}`, updated_at: now })
      .where(and(own, inArray(messages.status, ["queued", "sending"])))
      .returning();
    const account = failed && (await directory.query.accounts.findFirst({ where: eq(accounts.id, parsed.data.account_id) }));
    if (failed && account) await announceProcessed(env, account, failed, now);
    message.ack();
  }
};

export const messageConsumers = { live: liveConsumer, dead: deadConsumer };
