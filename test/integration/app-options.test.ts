// The app is built from injected parts: a build may bring its own request budgets (RateLimiter)
// and its own private feature table, and needs no flag in app.ts for either.
import { createExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import type { AppEnv } from "../../src/env";
import { privateFeatures } from "../../src/features";
import { rateLimitWith, type RateLimiter } from "../../src/http/rate-limit";
import { env, newAccount } from "../support/api";

const get = (app: ReturnType<typeof buildApp>, path: string, apiKey?: string) =>
  app.fetch(
    new Request(`http://api.test${path}`, {
      headers: { "user-agent": "tests", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    }),
    env,
    createExecutionContext(),
  );

describe("buildApp", () => {
  it("asks the injected RateLimiter for the address budget and then the key's, and answers its refusal", async () => {
    const { api } = await newAccount();
    const asked: string[] = [];
    const refuseKeys: RateLimiter = {
      limit: async (key, policy) => {
        asked.push(key.startsWith("key:") ? "key" : "address");
        const allowed = !key.startsWith("key:");
        return { allowed, limit: policy.limit, remaining: allowed ? 5 : 0, resetSeconds: 7 };
      },
      refund: async () => undefined,
    };
    const res = await get(buildApp({ rateLimit: rateLimitWith(() => refuseKeys) }), "/api/v1/client", api.apiKey);
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("7");
    expect(asked).toEqual(["address", "key"]);
  });

  it("mounts an injected private feature table behind the private API's auth", async () => {
    const { api } = await newAccount();
    const extra = new Hono<AppEnv>().get("/", (c) => c.json({ account: c.var.account.id }));
    const app = buildApp({ privateFeatures: [...privateFeatures, ["/__extra", extra]] });
    expect((await get(app, "/api/v1/__extra")).status).toBe(401);
    const res = await get(app, "/api/v1/__extra", api.apiKey);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ account: expect.any(Number) });
  });
});
