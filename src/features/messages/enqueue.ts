// Stores an outgoing message (status queued) and hands it to the message queue. SMS rows are
// inserted by one conditional INSERT that checks the caps, so two racing sends cannot both slip under.
import { messages } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import type { Deps } from "../../env";
import { CAP_MESSAGES, capHit, UNDER_CAPS, underCapsParams, type CapHit } from "./caps";
import type { InvitationData } from "./invitation";
import type { Channel, MessageKind } from "./kinds";
import { announceProcessed } from "./processed";

export type MessageDeps = Pick<Deps, "db" | "env" | "account" | "now">;

interface Outgoing {
  kind: MessageKind;
  channel: Channel;
  recipient: string;
  subject: string | null;
  /** What is stored and shown by GET /messages. */
  body: string;
  /** What is delivered when it must differ from the stored body (a token's code is never stored). */
  secretBody?: string;
  booking_id?: number | null;
  person_id?: number | null;
  /** The calendar invitation an e-mail about a booking's time carries (providers that send MIME attach it). */
  invitation?: InvitationData | null;
}

/** The queue message body: the row to deliver, and a secret body that is not in D1. */
interface MessageQueueBody {
  /** The account's shard when queued (db/shards.ts). */
  shard: string;
  account_id: number;
  message_id: number;
  secret_body?: string;
  invitation?: InvitationData;
}

const COLUMNS = "account_id, booking_id, person_id, kind, channel, recipient, subject, body, status, created_at, updated_at";

type EnqueueResult = { id: number; refused: null } | { id: number | null; refused: CapHit };

/**
 * `onCap: "record"` stores a refused SMS as failed with the reason (booking messages);
 * `"refuse"` stores nothing and lets the caller answer 429 (perishable tokens).
 */
export async function enqueueMessage(deps: MessageDeps, out: Outgoing, onCap: "record" | "refuse"): Promise<EnqueueResult> {
  const { env, account, now } = deps;
  const values = [account.id, out.booking_id ?? null, out.person_id ?? null, out.kind, out.channel, out.recipient, out.subject, out.body];
  let id: number | null;
  if (out.channel === "sms") {
    const row = await accountD1(deps)
      .prepare(`INSERT INTO messages (${COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ? WHERE ${UNDER_CAPS} RETURNING id`)
      .bind(...values, now, now, ...underCapsParams(env, account.id, out.recipient, now))
      .first<{ id: number }>();
    id = row?.id ?? null;
  } else {
    const [row] = await deps.db
      .insert(messages)
      .values({
        account_id: account.id,
        booking_id: out.booking_id ?? null,
        person_id: out.person_id ?? null,
        kind: out.kind,
        channel: out.channel,
        recipient: out.recipient,
        subject: out.subject,
        body: out.body,
        status: "queued",
        created_at: now,
        updated_at: now,
      })
      .returning({ id: messages.id });
    id = row.id;
  }

  if (id === null) {
    const hit = await capHit(deps, out.recipient, now);
    if (onCap === "refuse") return { id: null, refused: hit };
    const [failed] = await deps.db
      .insert(messages)
      .values({
        account_id: account.id,
        booking_id: out.booking_id ?? null,
        person_id: out.person_id ?? null,
        kind: out.kind,
        channel: out.channel,
        recipient: out.recipient,
        subject: out.subject,
        body: out.body,
        status: "failed",
        error: CAP_MESSAGES[hit],
        created_at: now,
        updated_at: now,
      })
      .returning();
    await announceProcessed(env, account, failed, now);
    return { id: failed.id, refused: hit };
  }

  const body: MessageQueueBody = {
    account_id: account.id,
    shard: account.shard,
    message_id: id,
    ...(out.secretBody ? { secret_body: out.secretBody } : {}),
    ...(out.invitation ? { invitation: out.invitation } : {}),
  };
  await env.MESSAGE_QUEUE.send(body, { contentType: "json" });
  return { id, refused: null };
}
