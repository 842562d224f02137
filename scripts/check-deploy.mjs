// Runs before `npm run deploy` (npm's predeploy): refuses settings that only make sense locally.
import { unstable_readConfig } from "wrangler";

// All zeros but the last digits: DB_SHARD_n locally needs an id of its own (wrangler.toml).
const PLACEHOLDER = /^0{8}-0{4}-0{4}-0{4}-0{8}[0-9]{4}$/;
const config = unstable_readConfig({ config: process.argv[2] ?? "wrangler.toml" }, { hideWarnings: true });

const problems = [];
for (const db of config.d1_databases ?? []) {
  if (!db.database_id || PLACEHOLDER.test(db.database_id)) {
    problems.push(`The D1 database "${db.binding}" still has the placeholder database_id: run \`npx wrangler d1 create ${db.database_name}\` and set database_id in wrangler.toml to the id it prints.`);
  }
}
if (config.vars?.ENVIRONMENT === "development") {
  problems.push("wrangler.toml sets ENVIRONMENT = \"development\" at the top level: a deploy must run as production (development belongs in .dev.vars).");
}
if (problems.length > 0) {
  console.error(`Not deploying.\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
