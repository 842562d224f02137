// The deployment's target URL policy, read from the environment once per use.
import { configOf } from "../../config";
import type { Env } from "../../env";
import type { TargetPolicy } from "./ssrf";

export const targetPolicy = (env: Env): TargetPolicy => ({
  // Only an explicit "development" relaxes the policy: a missing or misspelt value is production.
  production: configOf(env).ENVIRONMENT !== "development",
  rootDomain: configOf(env).ROOT_DOMAIN,
});
