// Cron: paid bookings' sweep (features/payments/sweep.ts), loaded only on shards that have a
// booking whose money is not settled: a shop without payments costs this job one read of three indexes.
import { openDb } from "../../db/client";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import { sql } from "drizzle-orm";

export async function sweepPayments(env: Env, now: number, shard: string): Promise<void> {
  const db = openDb(shardD1(env, shard));
  const [work] = await db.all<{ n: number }>(sql`SELECT
      (SELECT COUNT(*) FROM (SELECT 1 FROM bookings WHERE state = 'awaiting_payment' LIMIT 1))
    + (SELECT COUNT(*) FROM (SELECT 1 FROM bookings WHERE json_extract(payment, '$.refund_due') IS NOT NULL LIMIT 1))
    + (SELECT COUNT(*) FROM (SELECT 1 FROM bookings WHERE json_extract(payment, '$.reconcile_at') IS NOT NULL LIMIT 1)) AS n`);
  if (!work?.n) return;
  const { sweepPayments: sweep } = await import("../../features/payments/sweep");
  await sweep(env, now, shard);
}
