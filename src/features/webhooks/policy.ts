// The deployment's target URL policy, read from the environment once per use.
import type { Env } from "../../env";
import type { TargetPolicy } from "./ssrf";

export const targetPolicy = (env: Env): TargetPolicy => ({
  // Only an explicit "development" relaxes the policy: a missing or misspelt value is production.
  production: env.ENVIRONMENT !== "development",
  rootDomain: env.ROOT_DOMAIN || "localhost",
});
