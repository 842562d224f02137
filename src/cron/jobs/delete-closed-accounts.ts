// Cron: an account closed longer than its grace period is deleted, a bounded slice of its rows per
// run on its shard, its directory rows last, so it stays closed (and answers as no account) until
// nothing of it is left (docs/decisions/personal-data.md, "An account that leaves").
import { and, eq, lte } from "drizzle-orm";
import { deleteAccountRowsBounded } from "../../db/account-rows";
import { directoryDb } from "../../db/directory";
import { accounts, apiKeys } from "../../db/schema";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";

/** Rows per statement and table: one statement holds the shard's writer for a few milliseconds. */
const ROWS_PER_STATEMENT = 500;
/** Rounds (D1 batches of one statement per table) per account and run. */
const ROUNDS_PER_RUN = 4;
/** Accounts taken per run and shard: the rest wait for the next minute. */
const ACCOUNTS_PER_RUN = 2;

export async function deleteClosedAccounts(env: Env, now: number, shard: string): Promise<void> {
  const directory = directoryDb(env);
  const due = await directory
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(lte(accounts.delete_at, now), eq(accounts.shard, shard)))
    .orderBy(accounts.delete_at)
    .limit(ACCOUNTS_PER_RUN);
  for (const { id } of due) {
    const { changes, done } = await deleteAccountRowsBounded(shardD1(env, shard), id, { rowsPerStatement: ROWS_PER_STATEMENT, rounds: ROUNDS_PER_RUN });
    if (done) {
      // Still due: a restore cannot have come between (it refuses once delete_at has passed).
      await directory.batch([
        directory.delete(apiKeys).where(eq(apiKeys.account_id, id)),
        directory.delete(accounts).where(and(eq(accounts.id, id), lte(accounts.delete_at, now))),
      ]);
    }
    console.log(JSON.stringify({ cron: "delete-closed-accounts", shard, account_id: id, row_changes: changes, deleted: done }));
  }
}
