// Every minute: the shard's calendar subscriptions that are due go to the fetch queue. A shard
// with none due costs one indexed read; the feature's module is loaded only when one is.
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";

export async function refreshCalendars(env: Env, now: number, shard: string): Promise<void> {
  const d1 = shardD1(env, shard);
  const due = await d1.prepare("SELECT 1 AS due FROM calendar_subscriptions WHERE next_fetch_at <= ? LIMIT 1").bind(now).first();
  if (!due) return;
  const { queueDueFetches } = await import("../../features/calendar-subscriptions/refresh");
  await queueDueFetches(env, d1, shard, now);
}
