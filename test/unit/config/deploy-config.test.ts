// What a plain deploy ships: wrangler.toml's top level without .dev.vars, and the predeploy check.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../src/env";
import { targetPolicy } from "../../../src/features/webhooks/policy";
import { targetUrlProblem } from "../../../src/features/webhooks/ssrf";

const root = path.resolve(import.meta.dirname, "../../..");
const deployedVars = () => unstable_readConfig({ config: path.join(root, "wrangler.toml") }, { hideWarnings: true }).vars as unknown as Env;
const checkDeploy = (configPath: string) =>
  spawnSync(process.execPath, [path.join(root, "scripts/check-deploy.mjs"), configPath], { cwd: root, encoding: "utf8" });

describe("wrangler.toml as deployed", () => {
  it("runs as production, so web hook targets on loopback or plain http are refused", () => {
    const policy = targetPolicy(deployedVars());
    expect(policy.production).toBe(true);
    expect(targetUrlProblem("http://127.0.0.1:3000/hook", policy)).not.toBeNull();
    expect(targetUrlProblem("https://localhost/hook", policy)).not.toBeNull();
    expect(targetUrlProblem("https://hooks.example.com/booking", policy)).toBeNull();
  });

  it("is production when ENVIRONMENT is missing or misspelt; only `development` relaxes the policy", () => {
    expect(targetPolicy({} as Env).production).toBe(true);
    expect(targetPolicy({ ENVIRONMENT: "dev" } as Env).production).toBe(true);
    expect(targetPolicy({ ENVIRONMENT: "development" } as Env).production).toBe(false);
  });

  it("leaves development to the committed .dev.vars, which wrangler dev and the tests read", () => {
    expect(readFileSync(path.join(root, ".dev.vars"), "utf8")).toMatch(/^ENVIRONMENT=development$/m);
  });
});

describe("npm run deploy's predeploy check", () => {
  it("refuses the placeholder database_id with a sentence saying what to set", () => {
    const run = checkDeploy(path.join(root, "wrangler.toml"));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("placeholder database_id: run `npx wrangler d1 create booking` and set database_id in wrangler.toml");
    // The shard's placeholder (all zeros but its last digit) is refused as well.
    expect(run.stderr).toContain("run `npx wrangler d1 create booking-shard-1`");
  });

  it("lets a configuration with a real database_id through", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "deploy-config-"));
    const config = readFileSync(path.join(root, "wrangler.toml"), "utf8")
      // Every D1 database (DB and each shard) gets a real id of its own.
      .replace(/database_id = "[^"]+"/g, () => `database_id = "${crypto.randomUUID()}"`)
      .replace('main = "src/index.ts"', `main = "${path.join(root, "src/index.ts")}"`)
      .replaceAll('migrations_dir = "drizzle"', `migrations_dir = "${path.join(root, "drizzle")}"`);
    writeFileSync(path.join(dir, "wrangler.toml"), config);
    const run = checkDeploy(path.join(dir, "wrangler.toml"));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
