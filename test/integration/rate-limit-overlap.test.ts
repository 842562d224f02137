// The rate limiter decides while the route reads (docs/decisions/rate-limit.md, "Order and
// counting"): over budget, whatever the route read or answered is discarded for the 429, and
// nothing it would write is written; a write waits for the verdict. Budgets are injected through
// `rateLimitWith`, so a verdict can be a refusal or held until the test releases it.
import { createExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { privateFeatures } from "../../src/features";
import { rateLimitWith, type RateLimiter } from "../../src/http/rate-limit";
import { ApiError } from "../../src/http/errors";
import type { AppEnv } from "../../src/env";
import { Hono } from "hono";
import { env, newAccount, type Client } from "../support/api";
import { catalogue } from "../support/bookings";
import { costOf } from "../support/server-timing";

const WINDOW = 20; // wrangler.toml's window; the test project raises only the budgets
const LIMIT = 1_000_000; // vitest.config.ts's RATE_LIMIT_REQUESTS and RATE_LIMIT_KEY_REQUESTS

/** A limiter whose verdict comes when `release` says; it records what it was asked and given back. */
function heldLimiter() {
  let release!: (verdict: { address: boolean; key: boolean }) => void;
  const decided = new Promise<{ address: boolean; key: boolean }>((resolve) => (release = resolve));
  const asked: string[] = [];
  const refunded: string[] = [];
  const limiter: RateLimiter = {
    limit: async (key, policy) => {
      asked.push(key.startsWith("key:") ? "key" : "address");
      const allowed = (await decided)[key.startsWith("key:") ? "key" : "address"];
      return { allowed, limit: policy.limit, remaining: allowed ? 5 : 0, resetSeconds: 7, ...(allowed ? { countedAt: 1 } : {}) };
    },
    refund: async (key) => {
      refunded.push(key.startsWith("key:") ? "key" : "address");
    },
  };
  return { limiter, release, asked, refunded };
}

/** Refuses every address at once. */
const refusing: RateLimiter = {
  limit: async (_key, policy) => ({ allowed: false, limit: policy.limit, remaining: 0, resetSeconds: 7 }),
  refund: async () => undefined,
};

const ADDRESS_REFUSAL = { error: `Too many requests: at most ${LIMIT} every ${WINDOW} seconds from one address. Retry after 7 seconds.` };

/** Watches D1 statements that may write and capacity-guard calls: when one is prepared or asked for, and when it runs. */
function watchedEnv() {
  const events: string[] = [];
  let noticeWrite!: () => void;
  const writeReached = new Promise<void>((resolve) => (noticeWrite = resolve));
  const watchStatement = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
    const writes = /^\s*(insert|update|delete)/i.test(query);
    if (writes) {
      events.push("write prepared");
      noticeWrite();
    }
    const runs =
      (method: "first" | "run" | "all" | "raw") =>
      (...args: unknown[]) => {
        if (writes) events.push("write ran");
        return (statement[method] as (...a: unknown[]) => unknown).apply(statement, args);
      };
    return {
      inner: statement,
      writes,
      bind: (...values: unknown[]) => watchStatement(statement.bind(...values), query),
      first: runs("first"),
      run: runs("run"),
      all: runs("all"),
      raw: runs("raw"),
    } as unknown as D1PreparedStatement;
  };
  const watchSession = <T extends D1Database | D1DatabaseSession>(d1: T): T => {
    const wrapped: Record<string, unknown> = {
      prepare: (query: string) => watchStatement(d1.prepare(query), query),
      batch: (statements: D1PreparedStatement[]) => {
        const watchedOnes = statements as unknown as { inner?: D1PreparedStatement; writes?: boolean }[];
        if (watchedOnes.some((s) => s.writes)) events.push("write ran");
        return d1.batch(watchedOnes.map((s) => s.inner ?? (s as unknown as D1PreparedStatement)));
      },
    };
    if ("getBookmark" in d1) wrapped.getBookmark = () => (d1 as D1DatabaseSession).getBookmark();
    if ("withSession" in d1) {
      wrapped.withSession = (constraint?: string) => watchSession((d1 as D1Database).withSession(constraint));
      wrapped.exec = (query: string) => (d1 as D1Database).exec(query);
      wrapped.dump = () => (d1 as D1Database).dump();
    }
    return wrapped as unknown as T;
  };
  const guards = new Proxy(env.CAPACITY_GUARD, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property !== "getByName") return value.bind(target);
      return (name: string) => {
        // The route asks for its guard's stub in the same expression as it calls it.
        events.push("guard asked");
        noticeWrite();
        const stub = target.getByName(name);
        return new Proxy(stub, {
          get(s, p) {
            const v = Reflect.get(s, p);
            if (typeof v !== "function" || p === "then") return v;
            return (...args: unknown[]) => {
              events.push("guard called");
              return Reflect.apply(v, s, args);
            };
          },
        });
      };
    },
  });
  const watched = { ...env, DB: watchSession(env.DB), CAPACITY_GUARD: guards } as typeof env;
  return { env: watched, events, writeReached };
}

const fetchWith = (
  app: ReturnType<typeof buildApp>,
  method: string,
  url: string,
  options: { apiKey?: string; body?: unknown; bindings?: typeof env; ip?: string } = {},
) =>
  app.fetch(
    new Request(url, {
      method,
      headers: {
        "user-agent": "tests",
        "cf-connecting-ip": options.ip ?? "203.0.113.9",
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        ...(options.body ? { "content-type": "application/json" } : {}),
      },
      body: options.body ? JSON.stringify(options.body) : null,
    }),
    options.bindings ?? env,
    createExecutionContext(),
  );

const rows = async (sql: string, ...values: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...values)
      .all()
  ).results;

let api: Client;
let accountId: number;
let subdomain: string;
let resource: any;
let service: any;

beforeAll(async () => {
  const mine = await newAccount({ first_bookable_period: "0 hours", future_bookable_period: "10 years" });
  api = mine.api;
  accountId = mine.account.id;
  subdomain = mine.account.subdomain;
  const make = catalogue(api);
  resource = await make.resource({ title: "Chair" });
  service = await make.service({ title: "Cut", interval: 60 });
  await make.provider(resource.id, service.id);
});

let day = 0;
const nextSlot = () => {
  day += 1;
  const date = `2032-02-${String(day).padStart(2, "0")}`;
  return { booked_from: `${date} 10:00`, booked_to: `${date} 11:00` };
};

const bookingsAt = (slot: { booked_from: string }) =>
  rows("SELECT id FROM bookings WHERE account_id = ? AND resource_id = ? AND title = ?", accountId, resource.id, slot.booked_from);

describe("a request over its budget", () => {
  const app = buildApp({ rateLimit: rateLimitWith(() => refusing) });

  it("writes nothing from a booking-site create, though its reads ran: no booking, no person", async () => {
    const email = `over-${crypto.randomUUID()}@example.com`;
    const countBookings = async () => ((await rows("SELECT count(*) AS n FROM bookings WHERE account_id = ?", accountId))[0] as { n: number }).n;
    const before = await countBookings();
    const res = await fetchWith(app, "POST", `http://${subdomain}.localhost/bookings`, {
      body: { booking: { service_id: service.id, ...nextSlot(), person_attributes: { name: "Over", email } } },
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual(ADDRESS_REFUSAL);
    // The account and the create's references were read while the limiter decided.
    expect(costOf(res.headers).roundTrips).toBeGreaterThan(0);
    expect(await rows("SELECT id FROM people WHERE account_id = ? AND email = ?", accountId, email)).toEqual([]);
    expect(await countBookings()).toBe(before);
  });

  it("writes nothing from a private create with a new person, nor from a cancel (a batch that reads and writes)", async () => {
    const email = `over-${crypto.randomUUID()}@example.com`;
    const slot = nextSlot();
    const create = await fetchWith(app, "POST", "http://api.test/api/v1/bookings", {
      apiKey: api.apiKey,
      body: { booking: { resource_id: resource.id, ...slot, title: slot.booked_from, person_attributes: { name: "Over", email } } },
    });
    expect(create.status).toBe(429);
    expect(costOf(create.headers).roundTrips).toBeGreaterThan(0);
    expect(await rows("SELECT id FROM people WHERE account_id = ? AND email = ?", accountId, email)).toEqual([]);
    expect(await bookingsAt(slot)).toEqual([]);

    const booked = await api.post("/bookings", { booking: { resource_id: resource.id, ...nextSlot() } });
    expect(booked.status).toBe(200);
    const cancel = await fetchWith(app, "PUT", `http://api.test/api/v1/bookings/${booked.body.booking.id}/cancel`, { apiKey: api.apiKey });
    expect(cancel.status).toBe(429);
    expect(costOf(cancel.headers).roundTrips).toBeGreaterThan(0);
    expect((await api.get(`/bookings/${booked.body.booking.id}`)).body.booking.state).toBe(booked.body.booking.state);
  });

  it("answers a read with the limiter's 429 and headers only: the route's own headers and its bookmark are dropped", async () => {
    await api.post("/bookings", { booking: { resource_id: resource.id, ...nextSlot() } });
    const res = await fetchWith(app, "GET", "http://api.test/api/v1/bookings", { apiKey: api.apiKey });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual(ADDRESS_REFUSAL);
    expect(costOf(res.headers).roundTrips).toBeGreaterThan(0);
    const names = [...res.headers.keys()].sort();
    expect(names).toEqual(["content-type", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "server-timing", "x-request-id"]);
    expect(Object.fromEntries(["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "ratelimit-limit": String(LIMIT),
      "ratelimit-remaining": "0",
      "ratelimit-reset": "7",
      "retry-after": "7",
    });
  });
});

describe("a route that fails before the verdict", () => {
  /** A route of its own that reads and then throws `status`; the verdict (a refusal) comes only after it threw. */
  function refusedAfterTheRouteThrew(status: number) {
    let thrown!: () => void;
    const routeThrew = new Promise<void>((resolve) => (thrown = resolve));
    const probe = new Hono<AppEnv>().get("/", async (c) => {
      await c.var.db.query.services.findFirst();
      thrown();
      throw status === 404 ? new ApiError(404, { error: "not here" }) : ApiError.invalid("title", "is required");
    });
    const limiter: RateLimiter = {
      limit: async (_key, policy) => {
        await routeThrew;
        return { allowed: false, limit: policy.limit, remaining: 0, resetSeconds: 7 };
      },
      refund: async () => undefined,
    };
    return buildApp({ rateLimit: rateLimitWith(() => limiter), privateFeatures: [...privateFeatures, ["/__probe", probe]] });
  }

  for (const status of [404, 400]) {
    it(`answers the 429, not the ${status} it threw`, async () => {
      const res = await fetchWith(refusedAfterTheRouteThrew(status), "GET", "http://api.test/api/v1/__probe", { apiKey: api.apiKey });
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual(ADDRESS_REFUSAL);
      expect(res.headers.get("retry-after")).toBe("7");
    });
  }
});

describe("a write while the verdict is pending", () => {
  it("holds a D1 write until the verdict allows it, then writes", async () => {
    const held = heldLimiter();
    const watched = watchedEnv();
    const app = buildApp({ rateLimit: rateLimitWith(() => held.limiter) });
    const title = `held-${crypto.randomUUID()}`;
    const answer = fetchWith(app, "POST", "http://api.test/api/v1/services", { apiKey: api.apiKey, body: { service: { title } }, bindings: watched.env });
    await watched.writeReached;
    // A read of our own is a D1 round trip: the held insert would have run by its end.
    expect(await rows("SELECT id FROM services WHERE account_id = ? AND title = ?", accountId, title)).toEqual([]);
    expect(watched.events).toContain("write prepared");
    expect(watched.events).not.toContain("write ran");
    expect(held.asked).toEqual(["address", "key"]);
    held.release({ address: true, key: true });
    expect((await answer).status).toBe(200);
    expect(watched.events).toContain("write ran");
    expect(await rows("SELECT id FROM services WHERE account_id = ? AND title = ?", accountId, title)).toHaveLength(1);
  });

  it("holds the capacity guard's call until the verdict, and never makes it when the verdict refuses", async () => {
    for (const allowed of [true, false]) {
      const held = heldLimiter();
      const watched = watchedEnv();
      const app = buildApp({ rateLimit: rateLimitWith(() => held.limiter) });
      const slot = nextSlot();
      const answer = fetchWith(app, "POST", "http://api.test/api/v1/bookings", {
        apiKey: api.apiKey,
        body: { booking: { resource_id: resource.id, ...slot, title: slot.booked_from } },
        bindings: watched.env,
      });
      await watched.writeReached;
      expect(await bookingsAt(slot)).toEqual([]);
      expect(watched.events).toEqual(["guard asked"]);
      held.release({ address: true, key: allowed });
      const res = await answer;
      expect(res.status).toBe(allowed ? 200 : 429);
      expect(watched.events).toEqual(allowed ? ["guard asked", "guard called"] : ["guard asked"]);
      expect(await bookingsAt(slot)).toHaveLength(allowed ? 1 : 0);
    }
  });
});

describe("a queue send while the verdict is pending", () => {
  it("waits for the verdict on any queue binding, and is never made when the verdict refuses", async () => {
    for (const allowed of [true, false]) {
      const held = heldLimiter();
      // A queue the app does not know by name: bindings are held by shape.
      const sent: unknown[] = [];
      const queue = { send: async (body: unknown) => void sent.push(body), sendBatch: async (bodies: unknown[]) => void sent.push(...bodies) };
      let sending!: () => void;
      const routeSends = new Promise<void>((resolve) => (sending = resolve));
      const probe = new Hono<AppEnv>().post("/", async (c) => {
        sending();
        await (c.env as unknown as { LATER_QUEUE: typeof queue }).LATER_QUEUE.send({ hello: "world" });
        return c.json({ sent: true });
      });
      const app = buildApp({ rateLimit: rateLimitWith(() => held.limiter), privateFeatures: [...privateFeatures, ["/__send", probe]] });
      const answer = fetchWith(app, "POST", "http://api.test/api/v1/__send", { apiKey: api.apiKey, bindings: { ...env, LATER_QUEUE: queue } as typeof env });
      await routeSends;
      await rows("SELECT 1");
      expect(sent).toEqual([]);
      held.release({ address: allowed, key: true });
      expect((await answer).status).toBe(allowed ? 200 : 429);
      expect(sent).toEqual(allowed ? [{ hello: "world" }] : []);
    }
  });
});

describe("the address and the key", () => {
  it("are asked at once, and a request its address refuses is given back to its key", async () => {
    const held = heldLimiter();
    const app = buildApp({ rateLimit: rateLimitWith(() => held.limiter) });
    const answer = fetchWith(app, "GET", "http://api.test/api/v1/client", { apiKey: api.apiKey });
    // Both asked before either answered.
    while (held.asked.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(held.asked).toEqual(["address", "key"]);
    held.release({ address: false, key: true });
    const res = await answer;
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual(ADDRESS_REFUSAL);
    expect(held.refunded).toEqual(["key"]);
  });

  it("gives nothing back to the address when the key refuses: the address keeps the request, as before", async () => {
    const held = heldLimiter();
    const app = buildApp({ rateLimit: rateLimitWith(() => held.limiter) });
    const answer = fetchWith(app, "GET", "http://api.test/api/v1/client", { apiKey: api.apiKey });
    while (held.asked.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    held.release({ address: true, key: false });
    const res = await answer;
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: string }).error).toContain("for one API key");
    expect(held.refunded).toEqual([]);
  });
});

describe("RateLimiter durable object: refund", () => {
  it("takes back exactly the request counted at the time its hit answered", async () => {
    const stub = env.RATE_LIMITER.getByName(`refund-${crypto.randomUUID()}`);
    const policy = { limit: 2, windowMs: 60_000 };
    const first = await stub.hit(policy);
    await stub.hit(policy);
    expect((await stub.hit(policy)).allowed).toBe(false);
    expect(first.countedAt).toEqual(expect.any(Number));
    await stub.refund(first.countedAt!);
    expect(await stub.hit(policy)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await stub.hit(policy)).allowed).toBe(false);
  });
});
