// A request whose account the isolate does not know is answered by a NearDatabase object beside
// the database: the Worker waits once (a read) or for the limiter and once (a write), and learns
// the account for the next request (http/near-database.ts, src/near-database.ts).
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import worker from "../../src/index";
import { rateLimitWith, type RateLimiter } from "../../src/http/rate-limit";
import { client, env, newAccount, publicSite, send } from "../support/api";
import { costOf } from "../support/server-timing";

const count = async (sql: string, ...values: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...values)
    .first<{ n: number }>())!.n;

/** The Worker's app with a rate limiter that refuses every request. */
function refusingApp() {
  const refusing: RateLimiter = {
    limit: async (_key, policy) => ({ allowed: false, limit: policy.limit, remaining: 0, resetSeconds: 7 }),
    refund: async () => undefined,
  };
  return buildApp({ rateLimit: rateLimitWith(() => refusing), forwardBesideDatabase: true });
}

describe("the first request of an account the isolate does not know", () => {
  it("a private read: one wait, on the object; the next request is answered here", async () => {
    const { api } = await newAccount();
    const first = await api.get("/client");
    expect(first.status).toBe(200);
    expect(first.body.client.name).toMatch(/^Account/);
    expect(costOf(first.headers)).toMatchObject({ roundTrips: 0, waits: 1, doWaits: 1 });
    // The object's word for the account stays between it and the Worker.
    expect([...first.headers.keys()].filter((name) => name.startsWith("x-near"))).toEqual([]);
    // Known now: no object, no directory read (GET /client reads nothing else).
    const second = await api.get("/client");
    expect(costOf(second.headers)).toMatchObject({ roundTrips: 0, doCalls: 2 });
  });

  it("a private write: made once, within two waits (the limiter's verdict, then the object)", async () => {
    const { api, account } = await newAccount();
    const res = await api.post("/resources", { resource: { title: "First" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(costOf(res.headers).waits).toBeLessThanOrEqual(2);
    expect(await count("SELECT count(*) AS n FROM resources WHERE account_id = ?", account.id)).toBe(1);
  });

  it("an account whose name is not ASCII comes back whole (header values are bytes)", async () => {
    const { api } = await newAccount({ name: "Frisør Ågot" });
    expect((await api.get("/client")).body.client.name).toBe("Frisør Ågot");
    const known = await api.get("/client");
    expect(costOf(known.headers).besideDatabaseWaits).toBeUndefined();
    expect(known.body.client.name).toBe("Frisør Ågot");
  });

  it("a key that opens nothing: 401 from the object, and nothing learnt", async () => {
    const stranger = client(`not-a-key-${crypto.randomUUID()}`);
    for (let i = 0; i < 2; i++) {
      const refused = await stranger.get("/client");
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="api"');
      // Asked again: still unknown here, so still the object's to answer.
      expect(costOf(refused.headers)).toMatchObject({ roundTrips: 0, doWaits: 1 });
    }
  });

  it("a write the limiter refuses is never forwarded: 429 and nothing written", async () => {
    const { account } = await newAccount();
    const app = refusingApp();
    const site = await app.fetch(
      new Request(`http://${account.subdomain}.localhost/bookings`, {
        method: "POST",
        headers: { "user-agent": "tests", "cf-connecting-ip": "203.0.113.71", "content-type": "application/json" },
        body: JSON.stringify({
          booking: { service_id: 1, booked_from: "2031-01-06 10:00", booked_to: "2031-01-06 11:00", person_attributes: { name: "Over", email: "over@example.com" } },
        }),
      }),
      env,
      createExecutionContext(),
    );
    expect(site.status).toBe(429);
    // The limiter here is not an object: a call counted would be the forward.
    expect(costOf(site.headers).doCalls).toBe(0);
    expect(await count("SELECT count(*) AS n FROM people WHERE account_id = ?", account.id)).toBe(0);
  });

  it("a booking site's services, page and widget script: one wait each", async () => {
    for (const path of ["/services", "/", "/widget.js"]) {
      const { account } = await newAccount();
      const res = await publicSite(account.subdomain).get(path);
      expect(res.status, path).toBe(200);
      expect(costOf(res.headers), path).toMatchObject({ waits: 1, doWaits: 1 });
    }
  });
});

/** A request through the Worker's entry as it runs far from its database: writes go beside it. */
const farFetch = (method: string, url: string, apiKey: string | null, body?: unknown) =>
  worker.fetch(
    new Request(url, {
      method,
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), "content-type": "application/json", "user-agent": "tests" },
      body: body === undefined ? null : JSON.stringify(body),
    }),
    { ...env, WRITES_BESIDE_DATABASE: "always" },
    createExecutionContext(),
  );

describe("a known account's writes, answered beside the database (far from it)", () => {
  it("a write waits for the limiter's verdict and the object; the object's own waits are reported", async () => {
    const { api, account } = await newAccount();
    expect((await api.get("/client")).status).toBe(200);
    const answer = await farFetch("POST", "http://api.test/api/v1/resources", api.apiKey, { resource: { title: "Known" } });
    const made = { status: answer.status, headers: answer.headers, body: await answer.json() };
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const cost = costOf(made.headers);
    expect(cost).toMatchObject({ waits: 2, doWaits: 2, d1Waits: 0 });
    expect(cost.besideDatabaseWaits).toBeGreaterThanOrEqual(1);
    expect([...made.headers.keys()].filter((name) => name.startsWith("x-near"))).toEqual([]);
    expect(await count("SELECT count(*) AS n FROM resources WHERE account_id = ?", account.id)).toBe(1);
    // A read of the known account stays here, and sees the write.
    const listed = await api.get("/resources");
    expect(listed.body.map((e: { resource: { title: string } }) => e.resource.title)).toEqual(["Known"]);
    expect(costOf(listed.headers).besideDatabaseWaits).toBeUndefined();
  });

  it("a write that changes the account: the next request runs on the account as changed", async () => {
    const { api, account } = await newAccount();
    expect((await api.get("/client")).body.client.time_zone).toBe("Europe/Oslo");
    const changed = await farFetch("PUT", "http://api.test/api/v1/client", api.apiKey, { client: { time_zone: "America/New_York" } });
    expect(changed.status).toBe(200);
    expect(costOf(changed.headers).besideDatabaseWaits).toBeGreaterThanOrEqual(1);
    expect((await api.get("/client")).body.client.time_zone).toBe("America/New_York");
    expect((await publicSite(account.subdomain).get("/services")).status).toBe(200);
  });

  it("an MCP call that writes waits for the limiter's verdict: refused, it is never forwarded", async () => {
    const { account } = await newAccount();
    const app = refusingApp();
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "book", arguments: { service_id: 1, booked_from: "2031-01-06 10:00", name: "Over", email: "over@example.com" } },
    };
    const res = await app.fetch(
      new Request(`http://${account.subdomain}.localhost/mcp`, {
        method: "POST",
        headers: { "user-agent": "tests", "cf-connecting-ip": "203.0.113.72", "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(call),
      }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(429);
    expect(costOf(res.headers).doCalls).toBe(0);
    expect(await count("SELECT count(*) AS n FROM people WHERE account_id = ?", account.id)).toBe(0);
  });

  it("an MCP call that only reads, of a known account, is answered here", async () => {
    const { account } = await newAccount();
    const site = publicSite(account.subdomain);
    expect((await site.get("/services")).status).toBe(200);
    const res = await send("POST", `http://${account.subdomain}.localhost/mcp`, {
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_services", arguments: {} } }),
    });
    expect(res.status).toBe(200);
    expect(costOf(res.headers).besideDatabaseWaits).toBeUndefined();
  });
});

describe("where writes are answered, by the setting and the distance measured", () => {
  const write = (apiKey: string, bindings: typeof env) =>
    worker.fetch(
      new Request("http://api.test/api/v1/resources", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "user-agent": "tests" },
        body: JSON.stringify({ resource: { title: "Here" } }),
      }),
      bindings,
      createExecutionContext(),
    );

  it("auto, with the database measured near (this pool's local D1): a known account's write is answered here", async () => {
    const { api, account } = await newAccount();
    // A read of the known account: its D1 round trip is what the Worker measures.
    expect((await api.get("/resources")).status).toBe(200);
    const res = await write(api.apiKey, { ...env, WRITES_BESIDE_DATABASE: "auto" });
    expect(res.status).toBe(200);
    expect(costOf(res.headers).besideDatabaseWaits).toBeUndefined();
    expect(costOf(res.headers).roundTrips).toBeGreaterThan(0);
    expect(await count("SELECT count(*) AS n FROM resources WHERE account_id = ?", account.id)).toBe(1);
  });

  it("never: answered here; always: beside the database", async () => {
    const { api } = await newAccount();
    expect((await api.get("/resources")).status).toBe(200);
    expect(costOf((await write(api.apiKey, { ...env, WRITES_BESIDE_DATABASE: "never" })).headers).besideDatabaseWaits).toBeUndefined();
    expect(costOf((await write(api.apiKey, { ...env, WRITES_BESIDE_DATABASE: "always" })).headers).besideDatabaseWaits).toBeGreaterThanOrEqual(1);
  });
});
