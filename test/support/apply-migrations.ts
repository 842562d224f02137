// Applies drizzle/ to every shard's per-file isolated D1 (DB, DB_SHARD_1, …) before each test file runs.
import { applyD1Migrations, env } from "cloudflare:test";
import { shardNames } from "../../src/db/shards";

for (const shard of shardNames(env)) await applyD1Migrations((env as unknown as Record<string, D1Database>)[shard], env.TEST_MIGRATIONS);
