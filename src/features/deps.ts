// The one bridge from a Hono context to the plain `deps` services take.
import type { Context } from "hono";
import { durableCapacityGuard } from "../durable-objects/guard-client";
import { rateLimitKey } from "../http/client-ip";
import type { AppEnv, Deps } from "../env";

export const deps = (c: Context<AppEnv>): Deps => ({
  db: c.var.db,
  env: c.env,
  account: c.var.account,
  now: c.var.now,
  surface: c.var.surface,
  capacityGuard: durableCapacityGuard(c.env, c.var.account.shard),
  ...(c.var.surface === "public_api" ? { visitor: rateLimitKey(c.req.header("cf-connecting-ip")) } : {}),
});
