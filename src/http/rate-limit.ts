// Request budgets (spec: Limits): every request draws on its client address's budget; a request
// to the private API that presents an API key also draws on that key's budget. One RPC to a
// RateLimiter object per budget, both at once and beside the route's reads
// (docs/decisions/rate-limit.md says how the two combine and what waits for the verdict).
import { createMiddleware } from "hono/factory";
import { configOf } from "../config";
import type { AppEnv, Env } from "../env";
import { holdWritesUntil } from "../db/request-scope";
import type { RateLimitDecision, RateLimitHit, RateLimitPolicy } from "../durable-objects/rate-limiter";
import { apiKeyFrom } from "./auth";
import { rateLimitKey } from "./client-ip";
import { ApiError } from "./errors";
import { sha256Hex } from "./secrets";

const rateLimitPolicy = (env: Env): RateLimitPolicy => ({
  limit: configOf(env).RATE_LIMIT_REQUESTS,
  windowMs: configOf(env).RATE_LIMIT_WINDOW_SECONDS * 1000,
});

const keyRateLimitPolicy = (env: Env): RateLimitPolicy => ({
  limit: configOf(env).RATE_LIMIT_KEY_REQUESTS,
  windowMs: configOf(env).RATE_LIMIT_WINDOW_SECONDS * 1000,
});

const rateLimitHeaders = (d: RateLimitDecision): Record<string, string> => ({
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
const presentedKey = (path: string, authorization: string | undefined) => (/^\/api\/v1(\/|$)/.test(path) ? apiKeyFrom(authorization) : null);

/**
 * Where request budgets are kept: the RateLimiter Durable Objects, or whatever a test or build
 * injects. Its calls are the verdict the request's writes wait for, so it must not write through
 * the request's other bindings (only `RATE_LIMITER` is exempt from the wait).
 */
export interface RateLimiter {
  limit(key: string, policy: RateLimitPolicy): Promise<RateLimitHit>;
  /** Takes back a request `limit` counted (its `countedAt`) that the other budget refused. */
  refund(key: string, hit: RateLimitHit): Promise<void>;
}

/** One RateLimiter Durable Object per budget key. */
const durableRateLimiter = (env: Env): RateLimiter => ({
  limit: (key, policy) => env.RATE_LIMITER.getByName(key).hit(policy),
  refund: async (key, hit) => {
    if (hit.countedAt !== undefined) await env.RATE_LIMITER.getByName(key).refund(hit.countedAt);
  },
});

/**
 * Gives the key back a request its address refused or failed on, so that request never counts
 * against the key; a failed refund only leaves the key charged one request for its window, which
 * must not turn the client's 429 into a 500.
 */
async function refundKey(limiter: RateLimiter, name: string, call: PromiseSettledResult<RateLimitHit>) {
  if (call.status !== "fulfilled" || !call.value.allowed) return;
  try {
    await limiter.refund(name, call.value);
  } catch (error) {
    console.error(JSON.stringify({ error: "rate limit refund failed", detail: String(error) }));
  }
}

/**
 * The request's verdict: the decision whose headers it carries, or the 429 it answers. The address
 * and the key are asked at once (two Durable Objects, one wait); a request the address refuses is
 * refunded to the key before the 429, so it does not count there (docs/decisions/rate-limit.md).
 */
async function verdictOf(limiter: RateLimiter, env: Env, ip: string | undefined, key: string | null): Promise<RateLimitDecision> {
  const policy = rateLimitPolicy(env);
  const addressCall = limiter.limit(rateLimitKey(ip), policy);
  if (!key) {
    const address = await addressCall;
    if (!address.allowed) throw refuse(address, policy, "from one address");
    return address;
  }
  const keyPolicy = keyRateLimitPolicy(env);
  const keyName = sha256Hex(key).then((hash) => `key:${hash}`);
  const [address, perKey] = await Promise.allSettled([addressCall, keyName.then((name) => limiter.limit(name, keyPolicy))]);
  if (address.status === "rejected" || !address.value.allowed) {
    await refundKey(limiter, await keyName, perKey);
    if (address.status === "rejected") throw address.reason;
    throw refuse(address.value, policy, "from one address");
  }
  if (perKey.status === "rejected") throw perKey.reason;
  if (!perKey.value.allowed) throw refuse(perKey.value, keyPolicy, "for one API key");
  // The headers describe whichever budget runs out first.
  return perKey.value.remaining < address.value.remaining ? perKey.value : address.value;
}

/**
 * The route runs while the limiter decides: its reads overlap the limiter's calls, its writes wait
 * for the verdict (db/request-scope.ts, `holdWritesUntil`). A refusal wins over whatever the route
 * answered or threw, which is discarded: the 429 carries only what was set before the route ran.
 */
export const rateLimitWith = (limiterOf: (env: Env) => RateLimiter) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const key = presentedKey(c.req.path, c.req.header("authorization"));
    const verdict = verdictOf(limiterOf(c.env), c.env, c.req.header("cf-connecting-ip"), key);
    holdWritesUntil(verdict);
    const headersBefore = new Headers(c.res.headers);
    let failure: { error: unknown } | undefined;
    try {
      await next();
    } catch (error) {
      failure = { error };
    }
    let binding: RateLimitDecision;
    try {
      binding = await verdict;
    } catch (refusal) {
      // Assigning a response merges the previous one's headers into it, so the route's answer is dropped first.
      c.res = undefined;
      c.res = new Response(null, { headers: headersBefore });
      throw refusal;
    }
    if (failure) throw failure.error;
    // Errors and 404s rendered downstream pass back through here, so every answer carries them.
    for (const [name, value] of Object.entries(rateLimitHeaders(binding))) c.res.headers.set(name, value);
  });

export const rateLimit = rateLimitWith(durableRateLimiter);
