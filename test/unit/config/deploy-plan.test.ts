// npm run deploy: what it refuses, the remote migration it plans for each D1 database, its dry run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deployCommands, deployProblems, parseDeployArgs, readDeployConfig, secretListCommand, secretProblems } from "../../../scripts/deploy-plan.mjs";

const root = path.resolve(import.meta.dirname, "../../..");
const REAL_ID = "5f2b6c1e-3a4d-4e8f-9b0a-1c2d3e4f5a6b";
const SHARD_ID = "7a1c9e2b-4d3f-4a5b-8c6d-0e1f2a3b4c5d";

/** The repository's wrangler.toml in a temporary directory, with a second D1 database and the ids given. */
function configWithTwoDatabases(ids: { main: string; shard: string }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "deploy-plan-"));
  const config =
    readFileSync(path.join(root, "wrangler.toml"), "utf8")
      .replace(/^\[\[d1_databases\]\][\s\S]*?(?=^\[|$(?![\s\S]))/gm, "") // every D1 database of the file, the last one too
      .replace('main = "src/index.ts"', `main = "${path.join(root, "src/index.ts")}"`)
      // The [alias] modules (the MCP SDK's ajv, ical.js's minified build, the holiday engine's zones) are paths relative to the file, which moves here.
      .replaceAll('"./src/', `"${root}/src/`)
      .replaceAll('"./node_modules/', `"${root}/node_modules/`) +
    [
      `[[d1_databases]]\nbinding = "DB"\ndatabase_name = "booking"\ndatabase_id = "${ids.main}"\nmigrations_dir = "${path.join(root, "drizzle")}"\n`,
      `[[d1_databases]]\nbinding = "DB_SHARD_1"\ndatabase_name = "booking-shard-1"\ndatabase_id = "${ids.shard}"\nmigrations_dir = "${path.join(root, "drizzle")}"\n`,
    ].join("\n");
  const file = path.join(dir, "wrangler.toml");
  writeFileSync(file, config);
  return file;
}

const runDeploy = (args: string[]) =>
  spawnSync(process.execPath, [path.join(root, "scripts/deploy.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });

describe("parseDeployArgs", () => {
  it("passes every argument to wrangler deploy and repeats the configuration's flags for the migrations", () => {
    const args = parseDeployArgs(["--dry-run", "-c", "other.toml", "--env=staging", "--var", "ROOT_DOMAIN:book.example.com"]);
    expect(args).toEqual({
      config: "other.toml",
      env: "staging",
      configArgs: ["--config", "other.toml", "--env", "staging"],
      dryRun: true,
      deployArgs: ["--dry-run", "-c", "other.toml", "--env=staging", "--var", "ROOT_DOMAIN:book.example.com"],
    });
  });

  it("is a real deploy without --dry-run", () => {
    expect(parseDeployArgs([]).dryRun).toBe(false);
  });
});

describe("deployCommands", () => {
  it("applies the migrations of every D1 database remotely, in the configuration's order, before the deploy", () => {
    const args = parseDeployArgs(["--config", "x.toml", "--minify"]);
    const config = {
      d1_databases: [
        { binding: "DB", database_name: "booking" },
        { binding: "DB_SHARD_1", database_name: "booking-shard-1" },
      ],
    };
    expect(deployCommands(config, args)).toEqual({
      migrations: [
        ["d1", "migrations", "apply", "booking", "--remote", "--config", "x.toml"],
        ["d1", "migrations", "apply", "booking-shard-1", "--remote", "--config", "x.toml"],
      ],
      deploy: ["deploy", "--config", "x.toml", "--minify"],
    });
  });

  it("reads the databases from the wrangler configuration file", () => {
    const file = configWithTwoDatabases({ main: REAL_ID, shard: SHARD_ID });
    const args = parseDeployArgs(["-c", file]);
    expect(deployCommands(readDeployConfig(args), args).migrations.map((m) => m[3])).toEqual(["booking", "booking-shard-1"]);
  });
});

describe("deployProblems", () => {
  it("names the repository's placeholder database_ids (DB's and the shard's) and what to run instead", () => {
    expect(deployProblems(readDeployConfig(parseDeployArgs([])))).toEqual([
      expect.stringContaining("placeholder database_id: run `npx wrangler d1 create booking` and set database_id in wrangler.toml"),
      expect.stringContaining("placeholder database_id: run `npx wrangler d1 create booking-shard-1`"),
    ]);
  });

  it("names each database that still has the placeholder", () => {
    const file = configWithTwoDatabases({ main: REAL_ID, shard: "00000000-0000-0000-0000-000000000000" });
    const problems = deployProblems(readDeployConfig(parseDeployArgs(["-c", file])));
    expect(problems).toEqual([expect.stringContaining('"DB_SHARD_1" still has the placeholder database_id: run `npx wrangler d1 create booking-shard-1`')]);
  });

  it("refuses a top-level ENVIRONMENT of development", () => {
    expect(deployProblems({ vars: { ENVIRONMENT: "development" } })).toEqual([expect.stringContaining("must run as production")]);
  });

  it("refuses Stripe keys kept as vars (they are secrets) and the local stand-in's address", () => {
    expect(deployProblems({ vars: { STRIPE_SECRET_KEY: "sk_test_local", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_API_BASE: "http://127.0.0.1:8790" } })).toEqual([
      expect.stringContaining("STRIPE_SECRET_KEY as a var: it is a secret"),
      expect.stringContaining("STRIPE_WEBHOOK_SECRET as a var: it is a secret"),
      expect.stringContaining("STRIPE_API_BASE"),
    ]);
  });

  it("refuses SMTP logins kept as vars, and an SMTP deploy with a placeholder or local host, address or no encryption", () => {
    expect(deployProblems({ vars: { SMTP_USERNAME: "apikey", SMTP_PASSWORD: "secret" } })).toEqual([
      expect.stringContaining("SMTP_USERNAME as a var: it is a secret"),
      expect.stringContaining("SMTP_PASSWORD as a var: it is a secret"),
    ]);
    expect(deployProblems({ vars: { MESSAGE_PROVIDER: "smtp" } })).toEqual([
      expect.stringContaining("MAIL_FROM is not set"),
      expect.stringContaining("SMTP_HOST is not set"),
    ]);
    expect(deployProblems({ vars: { MESSAGE_PROVIDER: "smtp", SMTP_HOST: "smtp.example.com", MAIL_FROM: "bookings@example.com" } })).toEqual([
      expect.stringContaining('MAIL_FROM is "bookings@example.com", a placeholder'),
      expect.stringContaining('SMTP_HOST is "smtp.example.com", a placeholder'),
    ]);
    expect(deployProblems({ vars: { MESSAGE_PROVIDER: "smtp", SMTP_HOST: "127.0.0.1", MAIL_FROM: "bookings@shop.no", SMTP_SECURITY: "none" } })).toEqual([
      expect.stringContaining('SMTP_HOST is "127.0.0.1"'),
      expect.stringContaining('SMTP_SECURITY is "none"'),
    ]);
    expect(deployProblems({ vars: { MESSAGE_PROVIDER: "smtp", SMTP_HOST: "smtp.postmarkapp.com", MAIL_FROM: "bookings@salon.no" } })).toEqual([]);
  });

  it("refuses a Resend key kept as a var, the tests' stand-in, and a Resend deploy without a real sender", () => {
    expect(deployProblems({ vars: { MESSAGE_PROVIDER: "resend", RESEND_API_KEY: "re_123", RESEND_API_BASE: "http://127.0.0.1:9" } })).toEqual([
      expect.stringContaining("RESEND_API_KEY as a var: it is a secret"),
      expect.stringContaining("RESEND_API_BASE"),
      expect.stringContaining('MESSAGE_PROVIDER is "resend" but MAIL_FROM is not set'),
    ]);
    expect(deployProblems({ vars: { MESSAGE_PROVIDER: "resend", MAIL_FROM: "bookings@salon.no" } })).toEqual([]);
    expect(deployProblems({ vars: { SMS_PROVIDER: "twilio", TWILIO_AUTH_TOKEN: "x", TWILIO_API_BASE: "http://127.0.0.1:9" } })).toEqual([
      expect.stringContaining("TWILIO_AUTH_TOKEN as a var: it is a secret"),
      expect.stringContaining("TWILIO_API_BASE"),
    ]);
  });

  it("refuses PERSONAL_DATA_KEYS as a var: the key would sit beside the data it seals", () => {
    expect(deployProblems({ vars: { PERSONAL_DATA_KEYS: "k1:AAAA" } })).toEqual([expect.stringContaining("PERSONAL_DATA_KEYS as a var: it is a secret")]);
  });

  it("lets a configuration with real ids through", () => {
    const file = configWithTwoDatabases({ main: REAL_ID, shard: SHARD_ID });
    expect(deployProblems(readDeployConfig(parseDeployArgs(["-c", file])))).toEqual([]);
  });
});

describe("secretProblems", () => {
  it("refuses a Worker without the PERSONAL_DATA_KEYS secret, and one whose secrets cannot be listed", () => {
    expect(secretProblems(["ADMIN_TOKEN"])).toEqual([expect.stringContaining("npx wrangler secret put PERSONAL_DATA_KEYS")]);
    expect(secretProblems(null)).toEqual([expect.stringContaining("could not be listed")]);
    expect(secretProblems(["ADMIN_TOKEN", "PERSONAL_DATA_KEYS"])).toEqual([]);
  });

  it("lists the secrets of the configuration the deploy ships", () => {
    expect(secretListCommand(parseDeployArgs(["-c", "x.toml", "--env", "staging", "--minify"]))).toEqual([
      "secret",
      "list",
      "--format",
      "json",
      "--config",
      "x.toml",
      "--env",
      "staging",
    ]);
  });
});

describe("npm run deploy", () => {
  it("refuses a real deploy with the placeholder database_id before running any wrangler command", () => {
    const run = runDeploy([]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Not deploying.");
    expect(run.stdout).not.toContain("> npx wrangler");
  }, 30_000);

  it("in a dry run, lists each database's migration and builds the bundle without an account", () => {
    const file = configWithTwoDatabases({ main: REAL_ID, shard: "00000000-0000-0000-0000-000000000000" });
    const outdir = mkdtempSync(path.join(tmpdir(), "deploy-plan-out-"));
    const run = runDeploy(["--dry-run", "-c", file, "--outdir", outdir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("a real deploy would refuse this configuration");
    expect(run.stdout).toContain(`npx wrangler d1 migrations apply booking --remote --config ${file}`);
    expect(run.stdout).toContain(`npx wrangler d1 migrations apply booking-shard-1 --remote --config ${file}`);
    expect(run.stdout).toContain(`> npx wrangler deploy --dry-run -c ${file} --outdir ${outdir}`);
    expect(existsSync(path.join(outdir, "index.js"))).toBe(true);
  }, 60_000); // wrangler builds the whole Worker: seconds on a shared machine
});
