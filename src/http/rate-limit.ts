// Request budgets (spec: Limits): every request draws on its client address's budget; a request
// to the private API that presents an API key also draws on that key's budget. One RPC to a
// RateLimiter object per budget (docs/decisions/rate-limit.md says how the two combine).
import { createMiddleware } from "hono/factory";
import type { AppEnv, Env } from "../env";
import type { RateLimitDecision, RateLimitPolicy } from "../durable-objects/rate-limiter";
import { apiKeyFrom } from "./auth";
import { rateLimitKey } from "./client-ip";
import { ApiError } from "./errors";
import { sha256Hex } from "./secrets";

const DEFAULT_LIMIT = 80;
const DEFAULT_KEY_LIMIT = 240;
const DEFAULT_WINDOW_SECONDS = 20;

const positiveInt = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const windowMs = (env: Env) => positiveInt(env.RATE_LIMIT_WINDOW_SECONDS, DEFAULT_WINDOW_SECONDS) * 1000;

export const rateLimitPolicy = (env: Env): RateLimitPolicy => ({
  limit: positiveInt(env.RATE_LIMIT_REQUESTS, DEFAULT_LIMIT),
  windowMs: windowMs(env),
});

export const keyRateLimitPolicy = (env: Env): RateLimitPolicy => ({
  limit: positiveInt(env.RATE_LIMIT_KEY_REQUESTS, DEFAULT_KEY_LIMIT),
  windowMs: windowMs(env),
});

export const rateLimitHeaders = (d: RateLimitDecision): Record<string, string> => ({
  "RateLimit-Limit": String(d.limit),
  "RateLimit-Remaining": String(d.remaining),
  "RateLimit-Reset": String(d.resetSeconds),
});

const refuse = (decision: RateLimitDecision, policy: RateLimitPolicy, who: string) => {
  const headers = rateLimitHeaders(decision);
  return new ApiError(
    429,
    { error: `Too many requests: at most ${decision.limit} every ${policy.windowMs / 1000} seconds ${who}. Retry after ${decision.resetSeconds} seconds.` },
    { ...headers, "Retry-After": String(decision.resetSeconds) },
  );
};

/** The key a private-API request presents, unverified: its budget is named by the key's hash, so no D1 read runs first. */
const presentedKey = (path: string, authorization: string | undefined) =>
  /^\/api\/v1(\/|$)/.test(path) ? apiKeyFrom(authorization) : null;

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const policy = rateLimitPolicy(c.env);
  const address = await c.env.RATE_LIMITER.getByName(rateLimitKey(c.req.header("cf-connecting-ip"))).hit(policy);
  if (!address.allowed) throw refuse(address, policy, "from one address");
  let binding = address;
  const key = presentedKey(c.req.path, c.req.header("authorization"));
  if (key) {
    // Checked after the address, so a request the address refuses never counts against the key.
    const keyPolicy = keyRateLimitPolicy(c.env);
    const perKey = await c.env.RATE_LIMITER.getByName(`key:${await sha256Hex(key)}`).hit(keyPolicy);
    if (!perKey.allowed) throw refuse(perKey, keyPolicy, "for one API key");
    // The headers describe whichever budget runs out first.
    if (perKey.remaining < address.remaining) binding = perKey;
  }
  await next();
  // Errors and 404s rendered downstream pass back through here, so every answer carries them.
  for (const [name, value] of Object.entries(rateLimitHeaders(binding))) c.res.headers.set(name, value);
});
