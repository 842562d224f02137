import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { ADMIN_TOKEN, newAccount, send, type Client } from "../support/api";
import { catalogue } from "../support/bookings";
import { mcpClient } from "../support/mcp";

// This file runs in the `workers-rate-limit` project: wrangler.toml's budget of 80 per 20 s.
const LIMIT = 80;
const WINDOW_SECONDS = 20;

let api: Client;
let subdomain: string;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  subdomain = mine.account.subdomain;
});

let ipCounter = 0;
const freshIp = () => `198.51.${(ipCounter += 1)}.${Math.floor(Math.random() * 250) + 1}`;
const from = (ip: string) => ({ "cf-connecting-ip": ip });
const publicGet = (ip: string, path: string) => send("GET", `http://${subdomain}.localhost${path}`, { headers: from(ip) });

const rateHeaders = (res: { headers: Headers }) => ({
  limit: res.headers.get("ratelimit-limit"),
  remaining: res.headers.get("ratelimit-remaining"),
  reset: res.headers.get("ratelimit-reset"),
});

/**
 * Spends the whole budget of `ip`, checking each answer's countdown. Unauthenticated requests
 * (401, no D1 work) count like any other and are cheap, so 80 of them never outlast the window
 * on a loaded machine.
 */
async function exhaust(ip: string) {
  for (let i = 1; i <= LIMIT; i += 1) {
    const res = await send("GET", "/api/v1/services", { headers: from(ip) });
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit-remaining")).toBe(String(LIMIT - i));
  }
}

describe("rate limit on HTTP requests", () => {
  it("answers the 81st request in a window with 429, the spec's body, Retry-After and the headers", async () => {
    const ip = freshIp();
    const started = Date.now();
    await exhaust(ip);
    const res = await api.get("/services", from(ip));
    const elapsed = Date.now() - started;

    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: expect.stringContaining("Too many requests") });
    const retryAfter = Number(res.headers.get("retry-after"));
    // Whole seconds until the first request of the window leaves it.
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((WINDOW_SECONDS * 1000 - elapsed) / 1000));
    expect(rateHeaders(res)).toEqual({ limit: "80", remaining: "0", reset: String(retryAfter) });
  });

  it("carries the headers on a success, counting down from the limit", async () => {
    const res = await api.get("/services", from(freshIp()));
    expect(res.status).toBe(200);
    expect(rateHeaders(res)).toEqual({ limit: "80", remaining: "79", reset: "20" });
  });

  it("carries the headers on 404s and errors", async () => {
    const ip = freshIp();
    const answers = [
      await api.get("/services/999999", from(ip)),
      await send("GET", "/api/v1/nothing-here", { headers: { ...from(ip), authorization: `Bearer ${api.apiKey}` } }),
      await send("GET", "/api/v1/services", { headers: { ...from(ip), authorization: "Bearer wrong" } }),
      await send("GET", "/api/v1/services", { headers: { ...from(ip), "user-agent": "" } }),
      await send("GET", "/api/v1/services.xml", { headers: { ...from(ip), authorization: `Bearer ${api.apiKey}` } }),
      await api.post("/services", { service: {} }, from(ip)),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 401, 400, 406, 400]);
    expect(answers.map((r) => rateHeaders(r).remaining)).toEqual(["79", "78", "77", "76", "75", "74"]);
    for (const res of answers) expect(res.headers.get("ratelimit-limit")).toBe("80");
  });

  it("counts private, public and operator requests against one budget per address", async () => {
    const ip = freshIp();
    expect((await api.get("/services", from(ip))).status).toBe(200);
    const site = await publicGet(ip, "/services");
    expect(site.status).toBe(200);
    expect(site.headers.get("ratelimit-remaining")).toBe("78");
    // A widget on another origin must be able to read its budget.
    expect(site.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
    const op = await send("GET", "/admin/v1/accounts", { headers: { ...from(ip), authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(op.status).toBe(200);
    expect(op.headers.get("ratelimit-remaining")).toBe("77");
  });

  it("refuses a write over the limit without changing anything", async () => {
    const ip = freshIp();
    await exhaust(ip);
    const res = await api.post("/services", { service: { title: "Over the limit" } }, from(ip));
    expect(res.status).toBe(429);
    const list = await api.get("/services", from(freshIp()));
    expect(list.body.map((s: { service: { title: string } }) => s.service.title)).not.toContain("Over the limit");
  });

  it("refuses the public site too once the address has spent its budget", async () => {
    const ip = freshIp();
    await exhaust(ip);
    const res = await publicGet(ip, "/services");
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it("gives each address its own budget", async () => {
    const spent = freshIp();
    await exhaust(spent);
    expect((await api.get("/services", from(spent))).status).toBe(429);
    const other = await api.get("/services", from(freshIp()));
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-remaining")).toBe("79");
  });

  it("treats the IPv6 addresses of one /64 as one client", async () => {
    await exhaust("2001:db8:aa:1::1");
    expect((await api.get("/services", from("2001:0db8:00aa:0001:ffff::9"))).status).toBe(429);
    expect((await api.get("/services", from("2001:db8:aa:2::1"))).status).toBe(200);
  });
});

const KEY_LIMIT = 240; // wrangler.toml's RATE_LIMIT_KEY_REQUESTS
const policy = (limit: number) => ({ limit, windowMs: WINDOW_SECONDS * 1000 });
const sha256 = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");
/**
 * Spends `n` of a budget straight on the RateLimiter object the middleware uses (the key's is
 * named by the key's hash): hundreds of HTTP requests would outlast the window on a loaded machine.
 */
const spend = async (name: string, limit: number, n: number) => {
  const stub = env.RATE_LIMITER.getByName(name);
  for (let i = 0; i < n; i += 1) await stub.hit(policy(limit));
};

/** Spends a budget until `left` requests remain, however many the client's own handshake took. */
const spendUntil = async (name: string, limit: number, left: number) => {
  const stub = env.RATE_LIMITER.getByName(name);
  while ((await stub.hit(policy(limit))).remaining > left);
};

describe("rate limit per API key", () => {
  it("counts a key's requests from every address, refuses it with the key's headers, and leaves other keys alone", async () => {
    const { api: spender } = await newAccount();
    const keyBudget = `key:${await sha256(spender.apiKey)}`;
    await spend(keyBudget, KEY_LIMIT, KEY_LIMIT - 2);

    const first = await spender.get("/client", from(freshIp()));
    expect(first.status).toBe(200);
    // The key (1 left) runs out before the fresh address (79 left), so the headers describe the key.
    expect(rateHeaders(first)).toMatchObject({ limit: String(KEY_LIMIT), remaining: "1" });
    expect((await spender.get("/client", from(freshIp()))).status).toBe(200);

    const over = await spender.get("/client", from(freshIp()));
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: expect.stringContaining(`at most ${KEY_LIMIT} every ${WINDOW_SECONDS} seconds for one API key`) });
    expect(over.headers.get("ratelimit-limit")).toBe(String(KEY_LIMIT));
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);

    const { api: neighbour } = await newAccount();
    const ip = freshIp();
    const other = await neighbour.get("/client", from(ip));
    expect(other.status).toBe(200);
    expect(rateHeaders(other)).toMatchObject({ limit: "80", remaining: "79" });
  });

  it("still holds a key to its address's budget: a request must fit both, and the key is not charged for it", async () => {
    const ip = freshIp();
    await spend(ip, 80, 80);
    const { api: fresh } = await newAccount();
    const res = await fresh.get("/client", from(ip));
    expect(res.status).toBe(429);
    expect(res.body.error).toContain("from one address");
    const keyState = await env.RATE_LIMITER.getByName(`key:${await sha256(fresh.apiKey)}`).hit(policy(KEY_LIMIT));
    expect(keyState.remaining).toBe(KEY_LIMIT - 1);
  });
});

describe("rate limit on MCP tool calls", () => {
  it("counts every tool call on the booking site against the address's budget, and refuses the 81st before the tool runs", async () => {
    const make = catalogue(api);
    const chair = await make.resource({ title: "Chair" });
    const cut = await make.service({ title: "Cut", interval: 60 });
    await make.provider(chair.id, cut.id);
    const ip = freshIp();
    const mcp = await mcpClient(`http://${subdomain}.localhost/mcp`, from(ip));
    await spendUntil(ip, LIMIT, 1);
    expect((await mcp.call("list_services")).services).toHaveLength(1);
    const booking = { service_id: cut.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00", person_attributes: { name: "Ola" } };
    await expect(mcp.client.callTool({ name: "book", arguments: { booking } })).rejects.toMatchObject({ code: 429 });
    const bookings = await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ?").bind(chair.id).first<{ n: number }>();
    expect(bookings!.n).toBe(0);
  });

  it("counts every tool call on the private API against the key's budget", async () => {
    const { api: spender } = await newAccount();
    const mcp = await mcpClient("http://api.test/api/v1/mcp", { ...from(freshIp()), authorization: `Bearer ${spender.apiKey}` });
    await spendUntil(`key:${await sha256(spender.apiKey)}`, KEY_LIMIT, 1);
    expect((await mcp.call("list_services")).services).toEqual([]);
    await expect(mcp.call("list_services")).rejects.toMatchObject({ code: 429, message: expect.stringContaining("for one API key") });
  });
});

describe("RateLimiter durable object", () => {
  const limiter = () => env.RATE_LIMITER.getByName(`test-${crypto.randomUUID()}`);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("refuses once the budget is spent and lets requests through when the window has passed", async () => {
    // Wide margins: the sliding arithmetic itself is unit-tested (test/unit/sliding-log.test.ts);
    // this proves the object keeps the log between calls and reads the real clock.
    const stub = limiter();
    const policy = { limit: 1, windowMs: 3000 };
    expect((await stub.hit(policy)).allowed).toBe(true);
    expect(await stub.hit(policy)).toMatchObject({ allowed: false, remaining: 0 });
    await sleep(3500);
    expect((await stub.hit(policy)).allowed).toBe(true);
  });

  it("keeps separate budgets per object", async () => {
    const policy = { limit: 1, windowMs: 20_000 };
    const a = limiter();
    expect((await a.hit(policy)).allowed).toBe(true);
    expect((await a.hit(policy)).allowed).toBe(false);
    expect((await limiter().hit(policy)).allowed).toBe(true);
  });
});
