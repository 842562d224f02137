// Tenants: creating accounts with their first API key, rotating keys, operator-only flags.
import { and, eq, isNull } from "drizzle-orm";
import { accounts, apiKeys, type Account } from "../../db/schema";
import type { Db, Env } from "../../env";
import { evictAccount } from "../../http/account-cache";
import { ApiError } from "../../http/errors";
import { newApiKey, newWebhookSecret, sha256Hex } from "../../http/secrets";
import type * as z from "zod";
import type { createAccountBody, operatorUpdateBody } from "./schema";
import { chooseShard, claimIdRange } from "./shards";

type NewAccount = z.output<typeof createAccountBody>["account"];
type OperatorUpdate = z.output<typeof operatorUpdateBody>["account"];

export async function createAccount(env: Env, db: Db, input: NewAccount, now: number) {
  const { shard: requested, ...attributes } = input;
  await assertSubdomainFree(db, attributes.subdomain);
  const shard = await chooseShard(env, requested);
  await claimIdRange(env, shard);
  const webhookSecret = newWebhookSecret();
  const [account] = await db
    .insert(accounts)
    .values({ ...attributes, shard, webhook_secret: webhookSecret, created_at: now, updated_at: now } as typeof accounts.$inferInsert)
    .returning();
  const apiKey = await issueApiKey(db, account.id, now);
  return { account, apiKey, webhookSecret };
}

export async function rotateApiKey(db: Db, accountId: number, now: number): Promise<string> {
  await findAccount(db, accountId);
  const apiKey = newApiKey();
  const hash = await sha256Hex(apiKey);
  // One batch, so there is no moment with two live keys or none.
  await db.batch([
    db
      .update(apiKeys)
      .set({ revoked_at: now })
      .where(and(eq(apiKeys.account_id, accountId), isNull(apiKeys.revoked_at))),
    db.insert(apiKeys).values({ account_id: accountId, key_hash: hash, created_at: now }),
  ]);
  evictAccount(accountId);
  return apiKey;
}

export async function updateAccountAsOperator(db: Db, accountId: number, input: OperatorUpdate, now: number) {
  const current = await findAccount(db, accountId);
  const { remove_logo, ...changes } = input;
  if (changes.subdomain && changes.subdomain !== current.subdomain) await assertSubdomainFree(db, changes.subdomain);
  const [account] = await db
    .update(accounts)
    .set({ ...changes, ...(remove_logo ? { logo: null } : {}), updated_at: now } as Partial<Account>)
    .where(eq(accounts.id, accountId))
    .returning()
    .catch((error: unknown) => {
      // One Stripe account pays one shop: its events find their account by it.
      if (`${error} ${(error as { cause?: unknown })?.cause ?? ""}`.includes("accounts.stripe_account_id")) {
        throw ApiError.invalid("stripe_account_id", "is linked to another account");
      }
      throw error;
    });
  evictAccount(accountId);
  return account;
}

export const listAccounts = (db: Db) => db.select().from(accounts).orderBy(accounts.id);

async function findAccount(db: Db, accountId: number): Promise<Account> {
  const account = await db.query.accounts.findFirst({ where: eq(accounts.id, accountId) });
  if (!account) throw ApiError.notFound("account");
  return account;
}

export async function assertSubdomainFree(db: Db, subdomain: string): Promise<void> {
  const taken = await db.query.accounts.findFirst({ where: eq(accounts.subdomain, subdomain), columns: { id: true } });
  if (taken) throw ApiError.invalid("subdomain", "has already been taken");
}

async function issueApiKey(db: Db, accountId: number, now: number): Promise<string> {
  const apiKey = newApiKey();
  await db.insert(apiKeys).values({ account_id: accountId, key_hash: await sha256Hex(apiKey), created_at: now });
  return apiKey;
}
