// The D1 databases wrangler.toml binds (DB and each shard, docs/scaling.md), read from the file so
// local runs, the bench and the tests migrate whatever it binds without a list of their own.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";

const ROOT_CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "wrangler.toml");

/** Each `[[d1_databases]]` entry's binding and migrations directory (absolute). */
export function d1Databases(config = ROOT_CONFIG) {
  const { d1_databases = [] } = unstable_readConfig({ config }, { hideWarnings: true });
  return d1_databases.map((db) => ({
    binding: db.binding,
    migrationsDir: path.join(path.dirname(config), db.migrations_dir ?? "migrations"),
  }));
}
