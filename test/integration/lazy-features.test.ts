// A feature's routes load on the first request that reaches them (src/features/lazy-routes.ts,
// issue 21). These requests are the first of a fresh app and fresh stand-ins, so they take the
// path where the handler waits for its feature: the middleware's context (account, request id,
// rate-limit headers, Server-Timing, idempotency) must be the same as on a loaded feature.
import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { lazyRoutes } from "../../src/features/lazy-routes";
import { routeLoaders, type FeatureRoutes } from "../../src/features/loaders";
import { ROUTE_TABLES } from "../../src/features/route-tables";
import { env, newAccount } from "../support/api";

/** The production services routes behind fresh stand-ins, counting their loads. */
function freshApp() {
  const loads: FeatureRoutes[] = [];
  const fresh = (feature: FeatureRoutes) =>
    lazyRoutes(ROUTE_TABLES[feature], () => {
      loads.push(feature);
      return routeLoaders[feature]();
    });
  const app = buildApp({
    privateFeatures: [
      ["/services", fresh("privateSlots")],
      ["/services", fresh("services")],
    ],
  });
  return { app, loads };
}

const request = (method: string, path: string, init: { apiKey?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  new Request(`http://api.test${path}`, {
    method,
    headers: {
      "user-agent": "tests",
      ...(init.apiKey ? { authorization: `Bearer ${init.apiKey}` } : {}),
      ...(init.body ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body ? JSON.stringify(init.body) : null,
  });

const fetchFrom = (app: ReturnType<typeof buildApp>, req: Request) => app.fetch(req, env, createExecutionContext());

describe("a feature on its first request", () => {
  it("is not loaded by building the app, nor by a request its auth refuses", async () => {
    const { app, loads } = freshApp();
    expect(loads).toEqual([]);
    const res = await fetchFrom(app, request("GET", "/api/v1/services"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    expect(loads).toEqual([]);
  });

  it("answers with the account, the request id, the rate-limit headers and Server-Timing", async () => {
    const { api } = await newAccount({ time_zone: "America/New_York" });
    const created = await api.post("/services", { service: { title: "Massage" } });
    const { app, loads } = freshApp();
    const res = await fetchFrom(app, request("GET", `/api/v1/services/${created.body.service.id}`, { apiKey: api.apiKey }));
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.service).toMatchObject({ id: created.body.service.id, title: "Massage" });
    // Datetimes in the account's zone: the handler read c.var.account.
    expect(body.service.created_at).toMatch(/-0[45]:00$/);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("ratelimit-limit")).toBeTruthy();
    expect(res.headers.get("ratelimit-remaining")).toBeTruthy();
    expect(res.headers.get("server-timing")).toMatch(/d1;desc="\d+ round trips"/);
    // Only the feature a matching route belongs to: the slot routes also under /services stay unloaded.
    expect(loads).toEqual(["services"]);
  });

  it("validates with the feature's schema and keeps the idempotency middleware around the handler", async () => {
    const { api } = await newAccount();
    const { app } = freshApp();
    const bad = await fetchFrom(app, request("POST", "/api/v1/services", { apiKey: api.apiKey, body: { service: { interval: "often" } } }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toHaveProperty("interval");

    const again = freshApp().app;
    const send = () =>
      fetchFrom(
        again,
        request("POST", "/api/v1/services", {
          apiKey: api.apiKey,
          body: { service: { title: "Once" } },
          headers: { "idempotency-key": "lazy-first" },
        }),
      );
    const [first, second] = [await send(), await send()];
    expect(first.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const ids = [await first.json(), await second.json()].map((body: any) => body.service.id);
    expect(ids[1]).toBe(ids[0]);
  });

  it("loads once for requests that arrive together", async () => {
    const { api } = await newAccount();
    const { app, loads } = freshApp();
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetchFrom(app, request("GET", "/api/v1/services", { apiKey: api.apiKey }))));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(loads).toEqual(["services"]);
  });

  it("answers a wrong method as the loaded app does: 405 with Allow", async () => {
    const { api } = await newAccount();
    const res = await fetchFrom(freshApp().app, request("PATCH", "/api/v1/services", { apiKey: api.apiKey }));
    const deployed = await exports.default.fetch(request("PATCH", "/api/v1/services", { apiKey: api.apiKey }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(deployed.headers.get("allow"));
    expect(await res.json()).toEqual(await deployed.json());
  });

  it("refuses with a 500 rather than call a handler when the table is not the feature's routes", async () => {
    const { api } = await newAccount();
    const stale = lazyRoutes([...ROUTE_TABLES.services].reverse(), routeLoaders.services);
    const app = buildApp({ privateFeatures: [["/services", stale]] });
    const res = await fetchFrom(app, request("GET", "/api/v1/services", { apiKey: api.apiKey }));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "system error" });
  });
});
