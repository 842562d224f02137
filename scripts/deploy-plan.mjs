// What `npm run deploy` would do, worked out without running anything: the settings a deploy
// refuses, the remote migrations of every D1 database in the configuration, the deploy itself.
import { unstable_readConfig } from "wrangler";

// The committed ids: all zeros, the shards numbered in the last digits (DB_SHARD_1 ends in 0001).
const PLACEHOLDER_ID = /^0{8}-0{4}-0{4}-0{4}-0{8}[0-9]{4}$/;

/** Flags that choose the configuration; migrations must read the same one the deploy ships. */
const CONFIG_FLAGS = { "--config": "config", "-c": "config", "--env": "env", "-e": "env" };
const LONG_FLAG = { config: "--config", env: "--env" };

/**
 * The command line after `npm run deploy --`, split into what selects the configuration and
 * whether this is a dry run; every argument still goes to `wrangler deploy` unchanged.
 */
export function parseDeployArgs(argv) {
  const selected = {};
  const configArgs = [];
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const key = CONFIG_FLAGS[flag];
    if (!key) continue;
    const value = inline ?? argv[i + 1];
    if (inline === undefined) i += 1;
    selected[key] = value;
    configArgs.push(LONG_FLAG[key], value);
  }
  return { ...selected, configArgs, dryRun: argv.includes("--dry-run"), deployArgs: argv };
}

/** Sentences saying what to set before a real deploy; empty when the configuration may ship. */
export function deployProblems(config) {
  const problems = [];
  for (const db of config.d1_databases ?? []) {
    if (!db.database_id || PLACEHOLDER_ID.test(db.database_id)) {
      problems.push(`The D1 database "${db.binding}" still has the placeholder database_id: run \`npx wrangler d1 create ${db.database_name}\` and set database_id in wrangler.toml to the id it prints.`);
    }
  }
  if (config.vars?.ENVIRONMENT === "development") {
    problems.push("wrangler.toml sets ENVIRONMENT = \"development\" at the top level: a deploy must run as production (development belongs in .dev.vars).");
  }
  // Paid bookings (docs/decisions/payments.md): the platform's Stripe keys are Worker secrets only,
  // and a deploy talks to Stripe itself, never to the local stand-in.
  for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]) {
    if (config.vars?.[name] !== undefined) {
      problems.push(`wrangler.toml sets ${name} as a var: it is a secret. Remove it and run \`npx wrangler secret put ${name}\` with the platform's live value.`);
    }
  }
  if (config.vars?.STRIPE_API_BASE !== undefined) {
    problems.push("wrangler.toml sets STRIPE_API_BASE: that points payments at a local stand-in (tests, npm run dev). A deploy talks to api.stripe.com: remove it.");
  }
  return problems;
}

/**
 * The wrangler commands of a deploy, in order: one remote migration per D1 database (each
 * binding is its own database, so each gets the whole of its migrations_dir), then the deploy.
 */
export function deployCommands(config, args) {
  const migrations = (config.d1_databases ?? []).map((db) =>
    ["d1", "migrations", "apply", db.database_name, "--remote", ...args.configArgs]);
  return { migrations, deploy: ["deploy", ...args.deployArgs] };
}

export function readDeployConfig(args) {
  return unstable_readConfig({ config: args.config ?? "wrangler.toml", env: args.env }, { hideWarnings: true });
}
