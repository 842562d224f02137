// The booking-webhooks consumers: the live queue fans events out and makes attempts; the
// dead-letter queue marks whatever reached it as failed, so nothing disappears unrecorded.
import { and, eq } from "drizzle-orm";
import { openDb } from "../../db/client";
import { shardD1 } from "../../db/shards";
import { webhookDeliveries } from "../../db/schema";
import type { Db, Env } from "../../env";
import type { Consumer } from "../queue-consumer";
import { deliverAttempt, recordAttempt } from "./deliver";
import type { WebhookEventMessage } from "./emit";
import { fanOut } from "./fan-out";
import { deliveryMessageFor, parseWebhookMessage, type DeliveryMessage, type QueuedEventMessage } from "./queue-messages";
import type { WebhookDelivery } from "./serializer";

const RETRY_AFTER_ERROR_SECONDS = 60;

// Logs name ids only: payloads carry personal data and the signing secret is never read here.
const log = (entry: Record<string, unknown>) => console.error(JSON.stringify({ consumer: "webhooks", ...entry }));

/** An event's first attempts run at once, in this invocation; later ones come back as messages. */
async function deliverEvent(env: Env, db: Db, message: QueuedEventMessage): Promise<void> {
  const deliveries = await fanOut(db, message, Date.now());
  await Promise.all(deliveries.map((d) => deliverAttempt(env, db, deliveryMessageFor(d, message.shard, 1, 0), Date.now())));
}

/** The database of the shard a message names. */
const dbOf = (env: Env, message: { shard: string }) => openDb(shardD1(env, message.shard));

const live: Consumer = async (batch, env) => {
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = parseWebhookMessage(message.body);
      if (!parsed) {
        // It can never be handled; retrying takes it to the dead-letter queue, which logs it.
        log({ queue: batch.queue, message_id: message.id, error: "unreadable message" });
        message.retry();
        return;
      }
      try {
        if (parsed.type === "event") await deliverEvent(env, dbOf(env, parsed.body), parsed.body);
        else await deliverAttempt(env, dbOf(env, parsed.body), parsed.body, Date.now());
        message.ack();
      } catch (error) {
        log({ queue: batch.queue, message_id: message.id, type: parsed.type, error: String(error) });
        message.retry({ delaySeconds: RETRY_AFTER_ERROR_SECONDS });
      }
    }),
  );
};

const DEAD_LETTERED = { ok: false, status_code: null, duration_ms: 0, error: "dead-lettered: the attempt could not be processed" };

async function markFailed(db: Db, delivery: WebhookDelivery, attemptNo: number): Promise<void> {
  await recordAttempt(db, delivery, attemptNo, DEAD_LETTERED, "failed", Date.now());
  // The attempt may already be recorded; the delivery still ends failed, not pending forever.
  await db
    .update(webhookDeliveries)
    .set({ state: "failed", updated_at: Date.now() })
    .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.state, "pending")));
}

async function buryAttempt(db: Db, message: DeliveryMessage): Promise<void> {
  const delivery = await db.query.webhookDeliveries.findFirst({
    where: and(eq(webhookDeliveries.id, message.delivery_id), eq(webhookDeliveries.account_id, message.account_id)),
  });
  if (delivery?.state === "pending") await markFailed(db, delivery, message.attempt);
}

async function buryEvent(db: Db, message: WebhookEventMessage): Promise<void> {
  for (const delivery of await fanOut(db, message, Date.now())) await markFailed(db, delivery, 1);
}

const dead: Consumer = async (batch, env) => {
  for (const message of batch.messages) {
    const parsed = parseWebhookMessage(message.body);
    log({ queue: batch.queue, message_id: message.id, type: parsed?.type ?? "unreadable", error: "dead-lettered" });
    try {
      if (parsed?.type === "event") await buryEvent(dbOf(env, parsed.body), parsed.body);
      else if (parsed?.type === "delivery") await buryAttempt(dbOf(env, parsed.body), parsed.body);
      message.ack();
    } catch (error) {
      log({ queue: batch.queue, message_id: message.id, error: String(error) });
      message.retry({ delaySeconds: RETRY_AFTER_ERROR_SECONDS });
    }
  }
};

export const webhookConsumer = { live, dead };
