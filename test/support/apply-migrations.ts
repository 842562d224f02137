// Brings every D1 binding of wrangler.toml up to its migrations before each test file. The files of a
// project share one runtime and its storage (vitest.config.ts, `isolate: false`), so the first file
// of a runtime applies them and the rest find them recorded in d1_migrations and skip them.
import { applyD1Migrations, env } from "cloudflare:test";

for (const [binding, migrations] of Object.entries(env.TEST_D1_MIGRATIONS)) {
  await applyD1Migrations(env[binding as keyof typeof env] as D1Database, migrations);
}
