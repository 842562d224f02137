// Cron: idempotency keys older than their 24-hour life are deleted (the middleware only frees a
// key when it is reused, so unused ones would pile up).
import { lt } from "drizzle-orm";
import { openDb } from "../../db/client";
import { shardD1 } from "../../db/shards";
import { idempotencyKeys } from "../../db/schema";
import type { Env } from "../../env";
import { IDEMPOTENCY_TTL_MS } from "../../http/idempotency";

export async function purgeIdempotencyKeys(env: Env, now: number, shard: string): Promise<void> {
  await openDb(shardD1(env, shard))
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.created_at, now - IDEMPOTENCY_TTL_MS));
}
