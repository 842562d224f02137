// Passes freed seats to the waitlist (features/waitlist/offers.ts): every minute, for the accounts
// of this shard with someone waiting or an offer out. A lapse frees a seat with no write, so only a
// pass notices it; a freeing write starts its own pass at once.
import { sql } from "drizzle-orm";
import { openDb } from "../../db/client";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import { byAccount } from "../../features/system-deps";
import { offerFreedSeats } from "../../features/waitlist/offers";

export async function offerWaitlist(env: Env, now: number, shard: string): Promise<void> {
  const db = openDb(shardD1(env, shard));
  const rows = await db.all<{ account_id: number }>(sql`SELECT DISTINCT account_id FROM waitlist_entries WHERE state IN ('waiting', 'offered') AND booked_to > ${now}`);
  await byAccount(shard, env, now, rows, (deps) => offerFreedSeats(deps));
}
