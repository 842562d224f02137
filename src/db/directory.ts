// The tenant directory: the accounts and api_keys tables of DB, which say where each account's
// data lives (`accounts.shard`). Read on a cold account cache only (http/account-cache.ts).
import { and, eq, isNull, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import { openDb } from "./client";
import { fixedStatement, readJsonRows } from "./fixed-statement";
import { everyColumn, jsonRow } from "./json-row";
import { accounts, apiKeys, type Account } from "./schema";
import { directoryD1 } from "./shards";
import type { Db, Env } from "../env";

export const directoryDb = (env: Env): Db => openDb(directoryD1(env));

// Who is asking is a cold visitor's first read: rendered once per isolate, each row one JSON
// text, where Drizzle's builder and relational mapping cost 0.3-0.7 ms per request.
const accountRow = jsonRow(accounts, everyColumn(accounts));
const accountByKeyHash = fixedStatement<"hash">(() =>
  new QueryBuilder()
    .select({ row: accountRow.field })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.account_id))
    // A closed account (waiting for its deletion) answers as no account: its keys open nothing.
    .where(and(eq(apiKeys.key_hash, sql.placeholder("hash")), isNull(apiKeys.revoked_at), isNull(accounts.closed_at)))
    .limit(1),
);
const accountBySubdomain = fixedStatement<"subdomain">(() =>
  new QueryBuilder()
    .select({ row: accountRow.field })
    .from(accounts)
    .where(and(eq(accounts.subdomain, sql.placeholder("subdomain")), isNull(accounts.closed_at)))
    .limit(1),
);

/** The account an API key (by its SHA-256) opens, unless the key is revoked or the account closed. */
export const accountOfKeyHash = async (env: Env, hash: string): Promise<Account | null> =>
  (await readJsonRows(directoryD1(env), accountByKeyHash, accountRow, { hash }))[0] ?? null;

/** The account whose booking site is at `subdomain`, unless it is closed. */
export const accountOfSubdomain = async (env: Env, subdomain: string): Promise<Account | null> =>
  (await readJsonRows(directoryD1(env), accountBySubdomain, accountRow, { subdomain }))[0] ?? null;
