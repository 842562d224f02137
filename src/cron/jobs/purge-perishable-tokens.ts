// Cron: expired perishable tokens are deleted; a burned token stays until it expires, so its
// owner keeps hearing "tried too many times" rather than "invalid".
import { lte } from "drizzle-orm";
import { openDb } from "../../db/client";
import { shardD1 } from "../../db/shards";
import { perishableTokens } from "../../db/schema";
import type { Env } from "../../env";

export async function purgePerishableTokens(env: Env, now: number, shard: string): Promise<void> {
  await openDb(shardD1(env, shard)).delete(perishableTokens).where(lte(perishableTokens.expires_at, now));
}
