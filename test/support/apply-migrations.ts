// Applies drizzle/ to the per-file isolated D1 before each test file runs.
import { applyD1Migrations, env } from "cloudflare:test";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
