// What a plain deploy ships: wrangler.toml's top level without .dev.vars (npm run deploy's own checks: deploy-plan.test.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { describe, expect, it } from "vitest";
import type { Env } from "../../../src/env";
import { targetPolicy } from "../../../src/features/webhooks/policy";
import { targetUrlProblem } from "../../../src/features/webhooks/ssrf";

const root = path.resolve(import.meta.dirname, "../../..");
const deployedVars = () => unstable_readConfig({ config: path.join(root, "wrangler.toml") }, { hideWarnings: true }).vars as unknown as Env;

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

  it("keeps local runs on localhost and stored-only messages whatever production values wrangler.toml gets", () => {
    const devVars = readFileSync(path.join(root, ".dev.vars"), "utf8");
    expect(devVars).toMatch(/^ROOT_DOMAIN=localhost$/m);
    expect(devVars).toMatch(/^MESSAGE_PROVIDER=sink$/m);
  });
});
