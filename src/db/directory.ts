// The tenant directory: the accounts and api_keys tables of DB, which say where each account's
// data lives (`accounts.shard`). Read on a cold account cache only (http/account-cache.ts).
import { openDb } from "./client";
import { directoryD1 } from "./shards";
import type { Db, Env } from "../env";

export const directoryDb = (env: Env): Db => openDb(directoryD1(env));
