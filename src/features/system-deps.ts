// The `deps` of background work (cron jobs, queue consumers): the same shape a request has, so
// effects and serializers apply unchanged, with surface "system" (webhooks say `via: "system"`).
import { inArray } from "drizzle-orm";
import { accounts, type Account } from "../db/schema";
import { durableCapacityGuard } from "../durable-objects/guard-client";
import type { Db, Deps, Env } from "../env";

export const systemDeps = (db: Db, env: Env, account: Account, now: number): Deps => ({
  db, env, account, now, surface: "system", capacityGuard: durableCapacityGuard(env),
});

/** Cron jobs act across accounts: the rows they changed, handled one account at a time. */
export async function byAccount<T extends { account_id: number }>(
  db: Db,
  env: Env,
  now: number,
  rows: T[],
  handle: (deps: Deps, rows: T[]) => Promise<void>,
): Promise<void> {
  if (rows.length === 0) return;
  const ids = [...new Set(rows.map((r) => r.account_id))];
  const found: Account[] = await db.select().from(accounts).where(inArray(accounts.id, ids));
  for (const account of found) {
    await handle(systemDeps(db, env, account, now), rows.filter((r) => r.account_id === account.id));
  }
}
