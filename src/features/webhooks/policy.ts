// The deployment's target URL policy, read from the environment once per use.
import type { Env } from "../../env";
import type { TargetPolicy } from "./ssrf";

export const targetPolicy = (env: Env): TargetPolicy => ({
  production: env.ENVIRONMENT === "production",
  rootDomain: env.ROOT_DOMAIN || "localhost",
});
