// The `deps` of background work (cron jobs, queue consumers): the same shape a request has, so
// effects and serializers apply unchanged, with surface "system" (webhooks say `via: "system"`).
import { and, inArray, isNull } from "drizzle-orm";
import { openDb } from "../db/client";
import { accounts, type Account } from "../db/schema";
import { directoryDb } from "../db/directory";
import { shardD1 } from "../db/shards";
import { durableCapacityGuard } from "../durable-objects/guard-client";
import type { Db, Deps, Env } from "../env";

export const systemDeps = (db: Db, env: Env, account: Account, now: number): Deps => ({
  db,
  env,
  account,
  now,
  surface: "system",
  capacityGuard: durableCapacityGuard(env, account.shard),
});

/** Cron jobs act across accounts: the rows they changed on one shard, handled one account at a time. */
export async function byAccount<T extends { account_id: number }>(
  shard: string,
  env: Env,
  now: number,
  rows: T[],
  handle: (deps: Deps, rows: T[]) => Promise<void>,
): Promise<void> {
  if (rows.length === 0) return;
  const ids = [...new Set(rows.map((r) => r.account_id))];
  // A closed account's rows wait for its deletion (or restore): no message, web hook or charge goes out for it.
  const found: Account[] = await directoryDb(env)
    .select()
    .from(accounts)
    .where(and(inArray(accounts.id, ids), isNull(accounts.closed_at)));
  // Rows are handled as their account's shard says: a copy left on another shard (a move
  // between its import and its cleanup) is not the account's data.
  const db = openDb(shardD1(env, shard));
  for (const account of found.filter((a) => a.shard === shard)) {
    await handle(
      systemDeps(db, env, account, now),
      rows.filter((r) => r.account_id === account.id),
    );
  }
}
