// Queue entry: one consumer per queue kind, chosen by the queue's name (`booking-<kind>[-dlq]`).
import { badConfig, configErrorLine } from "../config";
import type { Env } from "../env";
import type { Consumer, QueueKind } from "../features/queue-consumer";
import { withoutClosedAccounts } from "./closed-accounts";
import { webhookConsumer } from "../features/webhooks/consumer";
import { messageConsumers } from "../features/messages/consumer";
import { recurrenceConsumer } from "../features/recurrence/consumer";
import { calendarFetchConsumer } from "../features/calendar-subscriptions/consumer";

/** Each background feature registers its consumers here; `dead` handles its dead-letter queue. */
const consumers: Partial<Record<QueueKind, { live: Consumer; dead: Consumer }>> = {};
consumers.webhooks = webhookConsumer;
consumers.messages = messageConsumers;
consumers.recurrence = recurrenceConsumer;
consumers.calendars = calendarFetchConsumer;

function kindOf(queueName: string): { kind: QueueKind; dead: boolean } | null {
  const match = /^booking-(recurrence|webhooks|messages|calendars)(-dlq)?$/.exec(queueName);
  return match ? { kind: match[1] as QueueKind, dead: match[2] !== undefined } : null;
}

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  const misconfigured = badConfig(env);
  if (misconfigured) {
    // Nothing runs on a bad setting; the messages wait (and dead-letter) rather than being lost.
    console.error(configErrorLine(misconfigured, { queue: batch.queue }));
    batch.retryAll({ delaySeconds: 60 });
    return;
  }
  const target = kindOf(batch.queue);
  const consumer = target && consumers[target.kind];
  if (!target || !consumer) {
    // Never ack what nothing handles: retry, so the message reaches the dead-letter queue.
    console.error(JSON.stringify({ queue: batch.queue, error: "no consumer for this queue" }));
    batch.retryAll({ delaySeconds: 60 });
    return;
  }
  const open = await withoutClosedAccounts(batch, env);
  if (open.messages.length) await (target.dead ? consumer.dead : consumer.live)(open, env, ctx);
}
