// Cron jobs act across accounts: rows they change are grouped by account and handled with the
// same `deps` a request would have, so effects and serializers apply unchanged.
import { inArray } from "drizzle-orm";
import { accounts, type Account } from "../../db/schema";
import type { Db, Deps, Env } from "../../env";

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
    // No request surface: webhook performers are passed as "system" explicitly by each job.
    const deps: Deps = { db, env, account, now, surface: "private_api" };
    await handle(deps, rows.filter((r) => r.account_id === account.id));
  }
}
