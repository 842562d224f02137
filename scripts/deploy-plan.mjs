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
      problems.push(
        `The D1 database "${db.binding}" still has the placeholder database_id: run \`npx wrangler d1 create ${db.database_name}\` and set database_id in wrangler.toml to the id it prints.`,
      );
    }
  }
  if (config.vars?.ENVIRONMENT === "development") {
    problems.push('wrangler.toml sets ENVIRONMENT = "development" at the top level: a deploy must run as production (development belongs in .dev.vars).');
  }
  // Paid bookings (docs/decisions/payments.md): the platform's Stripe keys are Worker secrets only,
  // and a deploy talks to Stripe itself, never to the local stand-in.
  for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]) {
    if (config.vars?.[name] !== undefined) {
      problems.push(`wrangler.toml sets ${name} as a var: it is a secret. Remove it and run \`npx wrangler secret put ${name}\` with the platform's live value.`);
    }
  }
  // National id numbers are sealed under it (docs/decisions/personal-data.md): a var would put the
  // key beside the data it protects, in the file and in every deploy's settings.
  if (config.vars?.PERSONAL_DATA_KEYS !== undefined) {
    problems.push(
      "wrangler.toml sets PERSONAL_DATA_KEYS as a var: it is a secret. Remove it (and make a new key: this one is no longer secret) and run `npx wrangler secret put PERSONAL_DATA_KEYS`.",
    );
  }
  if (config.vars?.STRIPE_API_BASE !== undefined) {
    problems.push("wrangler.toml sets STRIPE_API_BASE: that points payments at a local stand-in (tests, npm run dev). A deploy talks to api.stripe.com: remove it.");
  }
  problems.push(...mailProblems(config.vars ?? {}));
  return problems;
}

/** The Worker secrets a deploy refuses to go without: national id numbers would be stored readable. */
export const REQUIRED_SECRETS = ["PERSONAL_DATA_KEYS"];

/** How to make the personal data key ring (README, step 6). */
const NEW_KEY = `node -e "console.log('k1:'+crypto.randomBytes(32).toString('base64'))"`;

/**
 * Sentences for the required secrets the Worker lacks, from `wrangler secret list --format json`'s
 * names (null: the list could not be read, e.g. before the Worker's first deploy or without a login).
 */
export function secretProblems(names) {
  const missing = names === null ? REQUIRED_SECRETS : REQUIRED_SECRETS.filter((name) => !names.includes(name));
  return missing.map(
    (name) =>
      `The Worker has no ${name} secret${names === null ? " (its secrets could not be listed)" : ""}: make a key with \`${NEW_KEY}\` and run \`npx wrangler secret put ${name}\` with it (on a first deploy this creates the Worker), then deploy again.`,
  );
}

/** The command that lists the Worker's secret names, for the same configuration as the deploy. */
export const secretListCommand = (args) => ["secret", "list", "--format", "json", ...args.configArgs];

/** Hosts and domains that stand for "fill this in" (RFC 2606, RFC 6761) or for this machine. */
const PLACEHOLDER_HOST = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$|^(127\.|0\.0\.0\.0$|\[?::1\]?$)/i;

/**
 * E-mail over SMTP or Resend, SMS through Twilio (docs/decisions/messages.md): the login, API key or auth token is a Worker secret,
 * and a deploy sends through a real server, from a real address, encrypted; never through the local
 * mail catcher of `npm run dev`, the tests' stand-in or with the README's example values.
 */
function mailProblems(vars) {
  const problems = [];
  for (const name of ["SMTP_USERNAME", "SMTP_PASSWORD", "RESEND_API_KEY", "RESEND_WEBHOOK_SECRET", "TWILIO_AUTH_TOKEN"]) {
    if (vars[name] !== undefined) {
      problems.push(`wrangler.toml sets ${name} as a var: it is a secret. Remove it and run \`npx wrangler secret put ${name}\` with your mail provider's value.`);
    }
  }
  for (const [name, host] of [
    ["RESEND_API_BASE", "api.resend.com"],
    ["TWILIO_API_BASE", "api.twilio.com"],
  ]) {
    if (vars[name] !== undefined) problems.push(`wrangler.toml sets ${name}: that points messages at a local stand-in (tests). A deploy talks to ${host}: remove it.`);
  }
  const callback = vars.TWILIO_STATUS_CALLBACK;
  if (callback !== undefined && (!/^https:\/\//.test(callback) || PLACEHOLDER_HOST.test(URL.canParse(callback) ? new URL(callback).hostname : "invalid"))) {
    problems.push(`TWILIO_STATUS_CALLBACK is "${callback}": Twilio must reach it, so it is this deployment's public https address of /api/v1/messages/twilio/events.`);
  }
  const provider = vars.MESSAGE_PROVIDER;
  if (provider !== "smtp" && provider !== "resend") return problems;
  const from = String(vars.MAIL_FROM ?? "");
  if (!from.includes("@") || PLACEHOLDER_HOST.test(from.split("@").pop())) {
    problems.push(
      `MESSAGE_PROVIDER is "${provider}" but MAIL_FROM is ${from ? `"${from}", a placeholder` : "not set"}: set the address your deployment sends from (its domain must be one your provider lets you send for).`,
    );
  }
  if (provider !== "smtp") return problems;
  const host = String(vars.SMTP_HOST ?? "");
  if (!host || PLACEHOLDER_HOST.test(host)) {
    problems.push(
      `MESSAGE_PROVIDER is "smtp" but SMTP_HOST is ${host ? `"${host}", a placeholder or this machine` : "not set"}: set your mail provider's SMTP host in wrangler.toml.`,
    );
  }
  if (vars.SMTP_SECURITY === "none") {
    problems.push(
      'SMTP_SECURITY is "none": the login and every message would cross the network in the clear. Use "starttls" (port 587) or "tls" (port 465); "none" is for the local mail catcher.',
    );
  }
  return problems;
}

/**
 * The wrangler commands of a deploy, in order: one remote migration per D1 database (each
 * binding is its own database, so each gets the whole of its migrations_dir), then the deploy.
 */
export function deployCommands(config, args) {
  const migrations = (config.d1_databases ?? []).map((db) => ["d1", "migrations", "apply", db.database_name, "--remote", ...args.configArgs]);
  return { migrations, deploy: ["deploy", ...args.deployArgs] };
}

export function readDeployConfig(args) {
  return unstable_readConfig({ config: args.config ?? "wrangler.toml", env: args.env }, { hideWarnings: true });
}
