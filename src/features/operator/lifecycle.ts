// An account that leaves: closed at once, deleted after a grace period by the cron
// (cron/jobs/delete-closed-accounts.ts), restorable until then (docs/decisions/personal-data.md).
import { and, eq, gt, isNotNull } from "drizzle-orm";
import { configOf } from "../../config";
import { accounts, type Account } from "../../db/schema";
import type { Db, Env } from "../../env";
import { evictAccount } from "../../http/account-cache";
import { ApiError } from "../../http/errors";

const DAY_MS = 86_400_000;

async function findAccount(db: Db, accountId: number): Promise<Account> {
  const account = await db.query.accounts.findFirst({ where: eq(accounts.id, accountId) });
  if (!account) throw ApiError.notFound("account");
  return account;
}

/**
 * Closes the account: from now its keys and booking site answer as for no account (the directory's
 * lookups leave closed accounts out), and from `delete_at` on the cron deletes it. Closing a
 * closed account changes nothing, its deletion date included.
 */
export async function closeAccount(env: Env, db: Db, accountId: number, now: number): Promise<Account> {
  const account = await findAccount(db, accountId);
  if (account.closed_at !== null) return account;
  const deleteAt = now + configOf(env).ACCOUNT_DELETION_GRACE_DAYS * DAY_MS;
  const [closed] = await db.update(accounts).set({ closed_at: now, delete_at: deleteAt, updated_at: now }).where(eq(accounts.id, accountId)).returning();
  evictAccount(accountId);
  return closed;
}

/**
 * Opens a closed account again, as it was. Once its deletion date has come the cron may have begun
 * deleting its rows, so it is a 409 from then on: what is left is restored from an export.
 */
export async function restoreAccount(db: Db, accountId: number, now: number): Promise<Account> {
  const account = await findAccount(db, accountId);
  if (account.closed_at === null) return account;
  const [restored] = await db
    .update(accounts)
    .set({ closed_at: null, delete_at: null, updated_at: now })
    .where(and(eq(accounts.id, accountId), isNotNull(accounts.delete_at), gt(accounts.delete_at, now)))
    .returning();
  if (!restored) {
    throw new ApiError(409, { error: "The account's deletion has begun (its grace period is over): restore it from an export (POST /admin/v1/accounts/import)." });
  }
  evictAccount(accountId);
  return restored;
}
