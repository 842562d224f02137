// The calendar fetch queue's consumer: each message fetches one subscription's feed and applies
// it (sync.ts). A feed that fails is recorded on the subscription, not retried by the queue: the
// next interval is the retry. Only a fault of ours (D1 unreachable) is retried, then dead-lettered.
import { and, eq } from "drizzle-orm";
import { openDb } from "../../db/client";
import { directoryDb } from "../../db/directory";
import { accounts, calendarSubscriptions } from "../../db/schema";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import type { Consumer } from "../queue-consumer";
import { systemDeps } from "../system-deps";
import { calendarFetchMessage, type CalendarFetchMessage } from "./refresh";
import { syncSubscription } from "./sync";

async function fetchOne(env: Env, message: CalendarFetchMessage): Promise<void> {
  const db = openDb(shardD1(env, message.shard));
  const account = await directoryDb(env).query.accounts.findFirst({ where: eq(accounts.id, message.account_id) });
  const subscription = await db.query.calendarSubscriptions.findFirst({
    where: and(eq(calendarSubscriptions.id, message.subscription_id), eq(calendarSubscriptions.account_id, message.account_id)),
  });
  // Deleted since it was queued (or the account moved shards): nothing to fetch.
  if (!account || account.shard !== message.shard || !subscription) return;
  const result = await syncSubscription(systemDeps(db, env, account, Date.now()), subscription);
  console.log(JSON.stringify({ queue: "calendar-fetches", subscription: subscription.id, account: account.id, ...result }));
}

const live: Consumer = async (batch, env) => {
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = calendarFetchMessage.safeParse(message.body);
      try {
        if (!parsed.success) throw new Error(`unreadable message: ${JSON.stringify(message.body)}`);
        await fetchOne(env, parsed.data);
        message.ack();
      } catch (error) {
        console.error(JSON.stringify({ queue: batch.queue, message: message.id, attempts: message.attempts, error: String(error) }));
        message.retry({ delaySeconds: Math.min(300, 5 * 2 ** message.attempts) });
      }
    }),
  );
};

/** Retries exhausted: the subscription waits for its next turn with its last good busy times. */
const dead: Consumer = async (batch) => {
  for (const message of batch.messages) {
    console.error(JSON.stringify({ queue: batch.queue, message: message.id, error: "calendar fetch dead-lettered", body: message.body }));
    message.ack();
  }
};

export const calendarFetchConsumer = { live, dead };
