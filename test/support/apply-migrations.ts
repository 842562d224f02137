// Brings every D1 binding of wrangler.toml up to its migrations before each test file. The files of a
// project share one runtime and its storage (vitest.config.ts, `isolate: false`), so the first file
// of a runtime applies them and the rest find them recorded in d1_migrations and skip them.
import { applyD1Migrations, env } from "cloudflare:test";

for (const [binding, migrations] of Object.entries(env.TEST_D1_MIGRATIONS)) {
  await applyD1Migrations(env[binding as keyof typeof env] as D1Database, migrations);
}

// DIAGNOSTIC (temporary): background work left by earlier files of this runtime.
const left = await env.DB.batch([
  env.DB.prepare("SELECT COUNT(*) AS n FROM recurring_collections WHERE status = 'pending'"),
  env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE status NOT IN ('sent', 'failed')"),
  env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state NOT IN ('delivered', 'failed')"),
  env.DB.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger'"),
]);
console.warn(`LEFTOVER ${left.map((r) => (r.results[0] as { n: number }).n).join(" ")}`);
