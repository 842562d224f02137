// npm run deploy [-- wrangler deploy flags]: refuses settings that only make sense locally, applies
// the migrations of every D1 database remotely, then runs `wrangler deploy` with the given flags.
// With --dry-run it needs no account and no network: it prints the checks and migrations a real
// deploy would run and runs only `wrangler deploy --dry-run` (which builds the bundle).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { deployCommands, deployProblems, parseDeployArgs, readDeployConfig, REQUIRED_SECRETS, secretListCommand, secretProblems } from "./deploy-plan.mjs";

const wranglerPackage = createRequire(import.meta.url).resolve("wrangler/package.json");
const wranglerBin = path.join(path.dirname(wranglerPackage), JSON.parse(readFileSync(wranglerPackage, "utf8")).bin.wrangler);

const shown = (argv) => ["npx wrangler", ...argv].join(" ");

function wrangler(argv) {
  console.log(`\n> ${shown(argv)}`);
  const run = spawnSync(process.execPath, [wranglerBin, ...argv], { stdio: "inherit" });
  if (run.status !== 0) {
    console.error(`Stopped: \`${shown(argv)}\` failed${run.status === null ? ` (${run.signal})` : ` with exit code ${run.status}`}.`);
    process.exit(run.status || 1);
  }
}

/** The Worker's secret names, or null when wrangler cannot list them (no Worker yet, no login). */
function secretNames() {
  const argv = secretListCommand(args);
  console.log(`\n> ${shown(argv)}`);
  const run = spawnSync(process.execPath, [wranglerBin, ...argv], { encoding: "utf8", stdio: ["inherit", "pipe", "inherit"] });
  if (run.status !== 0) return null;
  try {
    return JSON.parse(run.stdout.slice(run.stdout.indexOf("["))).map((secret) => secret.name);
  } catch {
    return null;
  }
}

const args = parseDeployArgs(process.argv.slice(2));
const config = readDeployConfig(args);
const problems = deployProblems(config);
const { migrations, deploy } = deployCommands(config, args);

if (args.dryRun) {
  if (problems.length > 0) {
    console.log(`Dry run: a real deploy would refuse this configuration until these are set:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  }
  console.log(`Dry run: a real deploy would first check that the Worker has the secrets ${REQUIRED_SECRETS.join(", ")} (\`${shown(secretListCommand(args))}\`).`);
  console.log(
    migrations.length === 0
      ? "Dry run: the configuration has no D1 database to migrate."
      : `Dry run: a real deploy would first apply the migrations of each D1 database:\n${migrations.map((m) => `  ${shown(m)}`).join("\n")}`,
  );
  wrangler(deploy);
} else {
  if (problems.length > 0) {
    console.error(`Not deploying.\n${problems.map((p) => `- ${p}`).join("\n")}`);
    process.exit(1);
  }
  // Secrets are not in the configuration: only the account knows them, so this one asks wrangler.
  const missing = secretProblems(secretNames());
  if (missing.length > 0) {
    console.error(`Not deploying.\n${missing.map((p) => `- ${p}`).join("\n")}`);
    process.exit(1);
  }
  for (const migration of migrations) wrangler(migration);
  wrangler(deploy);
}
