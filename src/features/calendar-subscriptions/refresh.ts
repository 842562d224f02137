// When subscriptions are fetched: the cron hands the due ones to the fetch queue, a batch per shard
// per minute, and pushes each one's next fetch an interval on. Never on a visitor's request.
import * as z from "zod";
import type { Env } from "../../env";

/** How often a feed is read: calendar hosts publish changes within minutes to hours (Google: up to a day for others' reads). */
const FETCH_INTERVAL_MS = 15 * 60_000;
/** Subscriptions made together (an import) would stay together; an offset by id spreads them over 5 minutes. */
const SPREAD_MS = 5 * 60_000;
/** Handed to the queue per shard per cron run: 100 a minute is 1,500 subscriptions per interval per shard. */
const FETCHES_PER_RUN = 100;

export const calendarFetchMessage = z.object({
  shard: z.string(),
  account_id: z.number().int().positive(),
  subscription_id: z.number().int().positive(),
});
export type CalendarFetchMessage = z.output<typeof calendarFetchMessage>;

export const queueFetch = (env: Env, message: CalendarFetchMessage) => env.CALENDAR_QUEUE.send(message, { contentType: "json" });

/**
 * Claims the shard's due subscriptions (each one's next fetch moved on in the same statement, so
 * overlapping cron runs never hand one out twice) and queues their fetches. A fetch lost with a
 * failed send waits for its next turn: the feed keeps its last good busy times meanwhile.
 */
export async function queueDueFetches(env: Env, d1: D1Database, shard: string, now: number): Promise<number> {
  const { results } = await d1
    .prepare(
      `UPDATE calendar_subscriptions SET next_fetch_at = ? + ${FETCH_INTERVAL_MS} + ((id * 7919) % ${SPREAD_MS})
      WHERE id IN (SELECT id FROM calendar_subscriptions WHERE next_fetch_at <= ? ORDER BY next_fetch_at LIMIT ${FETCHES_PER_RUN})
      RETURNING id, account_id`,
    )
    .bind(now, now)
    .all<{ id: number; account_id: number }>();
  if (results.length === 0) return 0;
  await env.CALENDAR_QUEUE.sendBatch(results.map((r) => ({ body: { shard, account_id: r.account_id, subscription_id: r.id }, contentType: "json" as const })));
  return results.length;
}
