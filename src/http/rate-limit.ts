// The per-IP request budget (spec: Limits): one RPC to the client's RateLimiter per request.
import { createMiddleware } from "hono/factory";
import type { AppEnv, Env } from "../env";
import type { RateLimitDecision, RateLimitPolicy } from "../durable-objects/rate-limiter";
import { rateLimitKey } from "./client-ip";
import { ApiError } from "./errors";

const DEFAULT_LIMIT = 80;
const DEFAULT_WINDOW_SECONDS = 20;

const positiveInt = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

export const rateLimitPolicy = (env: Env): RateLimitPolicy => ({
  limit: positiveInt(env.RATE_LIMIT_REQUESTS, DEFAULT_LIMIT),
  windowMs: positiveInt(env.RATE_LIMIT_WINDOW_SECONDS, DEFAULT_WINDOW_SECONDS) * 1000,
});

export const rateLimitHeaders = (d: RateLimitDecision): Record<string, string> => ({
  "RateLimit-Limit": String(d.limit),
  "RateLimit-Remaining": String(d.remaining),
  "RateLimit-Reset": String(d.resetSeconds),
});

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.RATE_LIMITER.getByName(rateLimitKey(c.req.header("cf-connecting-ip")));
  const policy = rateLimitPolicy(c.env);
  const decision = await limiter.hit(policy);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      { error: `Too many requests: at most ${decision.limit} every ${policy.windowMs / 1000} seconds from one address. Retry after ${decision.resetSeconds} seconds.` },
      { ...headers, "Retry-After": String(decision.resetSeconds) },
    );
  }
  await next();
  // Errors and 404s rendered downstream pass back through here, so every answer carries them.
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
