// The /web_hooks subscription API, its deliveries listing and redeliver.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDb } from "../../src/db/client";
import { accounts } from "../../src/db/schema";
import { createWebHook } from "../../src/features/webhooks/service";
import { newAccount, type Client } from "../support/api";
import { eventually } from "../support/queues";
import { attemptMessage, drive, env, eventMessage, receiver } from "../support/webhooks";
import { durableCapacityGuard } from "../../src/durable-objects/guard-client";

let api: Client;
let other: Client;
let accountId: number;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  other = (await newAccount()).api;
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

const createHook = async (attributes: Record<string, unknown> = {}, client = api) => {
  const res = await client.post("/web_hooks", { web_hook: { target_url: receiver().url, event: "*", ...attributes } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.web_hook;
};

/** A delivery on the hook, delivered once (its receiver answers 200 unless told otherwise). */
const delivered = async (hookId: number) => {
  await drive([eventMessage(accountId, "booking.created")]);
  return (await api.get(`/web_hooks/${hookId}/deliveries`)).body[0].webhook_delivery;
};

describe("POST /api/v1/web_hooks", () => {
  it("creates an active subscription and answers it wrapped as web_hook", async () => {
    // Active from here on, so it must be a receiver that answers: later bookings are delivered to it.
    const target = receiver().url;
    const res = await api.post("/web_hooks", { web_hook: { target_url: target, event: "booking.*" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      web_hook: {
        id: expect.any(Number),
        target_url: target,
        event: "booking.*",
        active: true,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
  });

  it("takes form data with bracket names, and active=false to create it paused", async () => {
    const res = await api.form("POST", "/web_hooks", "web_hook[target_url]=http%3A%2F%2F127.0.0.1%3A9000%2Fhook&web_hook[event]=person.created&web_hook[active]=false");
    expect(res.status).toBe(200);
    expect(res.body.web_hook).toMatchObject({ target_url: "http://127.0.0.1:9000/hook", event: "person.created", active: false });
  });

  it("accepts every event name, each object's wildcard and *", async () => {
    for (const event of ["*", "booking.*", "event.*", "person.*", "message.*", "booking.deleted", "message.processed"]) {
      expect((await createHook({ event })).event).toBe(event);
    }
  });

  it("answers 400 on both attributes when they are missing", async () => {
    const res = await api.post("/web_hooks", { web_hook: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ target_url: ["can't be blank"], event: ["can't be blank"] });
  });

  it("answers 400 on event for an unknown name or wildcard", async () => {
    for (const event of ["booking.exploded", "invoice.*", "booking", "**", "booking.*.*"]) {
      const res = await api.post("/web_hooks", { web_hook: { target_url: "https://hooks.receiver.test/x", event } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ event: [expect.stringContaining("is not a known event")] });
    }
  });

  it("answers 400 on target_url when it is not an http(s) URL", async () => {
    const cases: [string, string][] = [
      ["not a url", "is not a valid URL"],
      ["ftp://files.example.com/hook", "must be an http or https URL"],
      ["javascript:alert(1)", "must be an http or https URL"],
      [`https://example.com/${"x".repeat(2000)}`, "is too long (maximum is 2000 characters)"],
    ];
    for (const [target_url, message] of cases) {
      const res = await api.post("/web_hooks", { web_hook: { target_url, event: "*" } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ target_url: [message] });
    }
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/web_hooks", { target_url: "https://example.com/", event: "*" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ web_hook: [expect.stringContaining('{"web_hook"')] });
  });

  it("ignores read-only attributes", async () => {
    const hook = await createHook({ id: 999_999, created_at: "2001-01-01 00:00", account_id: 1 });
    expect(hook.id).not.toBe(999_999);
    expect(hook.created_at.startsWith("2001")).toBe(false);
  });

  it("in production refuses targets inside private networks or at the service, and stores nothing", async () => {
    const db = openDb(env.DB);
    const account = (await db.query.accounts.findFirst({ where: eq(accounts.id, accountId) }))!;
    const production = {
      db,
      env: { ...env, ENVIRONMENT: "production", ROOT_DOMAIN: "bookings.example" },
      account,
      now: Date.now(),
      surface: "private_api" as const,
      capacityGuard: durableCapacityGuard(env, "DB"),
    };
    const before = (await api.get("/web_hooks")).body.length;
    for (const [target_url, message] of [
      ["http://hooks.example.com/", "must be an https URL"],
      ["https://0x7f000001/", "must name a host, not an IP address"],
      ["https://[::ffff:10.0.0.1]/", "must name a host, not an IP address"],
      ["https://printer.local/", "must not point at a private, loopback or link-local address"],
      ["https://demo.bookings.example/hook", "must not point at this service"],
    ]) {
      await expect(createWebHook(production, { target_url, event: "*" })).rejects.toMatchObject({ status: 400, body: { target_url: [message] } });
    }
    expect((await api.get("/web_hooks")).body.length).toBe(before);
    const allowed = await createWebHook(production, { target_url: "https://hooks.receiver.test/in", event: "*", active: false });
    expect(allowed.target_url).toBe("https://hooks.receiver.test/in");
  });
});

describe("GET /api/v1/web_hooks", () => {
  it("lists the account's subscriptions, active or not, as web_hook elements", async () => {
    const active = await createHook();
    const paused = await createHook({ active: false });
    const foreign = await createHook({}, other);
    const res = await api.get("/web_hooks");
    expect(res.status).toBe(200);
    const ids = res.body.map((e: any) => e.web_hook.id);
    expect(ids).toEqual(expect.arrayContaining([active.id, paused.id]));
    expect(ids).not.toContain(foreign.id);
    expect(Object.keys(res.body[0])).toEqual(["web_hook"]);
  });
});

describe("GET /api/v1/web_hooks/{id}", () => {
  it("answers one subscription", async () => {
    const hook = await createHook({ event: "event.*" });
    const res = await api.get(`/web_hooks/${hook.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ web_hook: hook });
  });

  it("answers 404 for an unknown id and for another tenant's id", async () => {
    const foreign = await createHook({}, other);
    for (const path of ["/web_hooks/999999", `/web_hooks/${foreign.id}`, "/web_hooks/abc"]) {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
});

describe("PUT /api/v1/web_hooks/{id}", () => {
  it("changes only what is sent: pausing keeps the target and event", async () => {
    const hook = await createHook({ event: "person.*" });
    const res = await api.put(`/web_hooks/${hook.id}`, { web_hook: { active: false } });
    expect(res.status).toBe(200);
    expect(res.body.web_hook).toMatchObject({ id: hook.id, target_url: hook.target_url, event: "person.*", active: false });
    const moved = await api.put(`/web_hooks/${hook.id}`, { web_hook: { target_url: "https://hooks.receiver.test/new", event: "booking.cancelled" } });
    expect(moved.body.web_hook).toMatchObject({ target_url: "https://hooks.receiver.test/new", event: "booking.cancelled", active: false });
  });

  it("answers 400 keyed by attribute and changes nothing", async () => {
    const hook = await createHook();
    const res = await api.put(`/web_hooks/${hook.id}`, { web_hook: { event: "nope", target_url: "gopher://x", active: "maybe" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ event: [expect.stringContaining("is not a known event")], active: ["must be true or false"] });
    const blank = await api.put(`/web_hooks/${hook.id}`, { web_hook: { target_url: "gopher://x" } });
    expect(blank.body).toEqual({ target_url: ["must be an http or https URL"] });
    expect((await api.get(`/web_hooks/${hook.id}`)).body).toEqual({ web_hook: hook });
  });

  it("answers 404 for an unknown id and for another tenant's id, which stays unchanged", async () => {
    const foreign = await createHook({}, other);
    expect((await api.put("/web_hooks/999999", { web_hook: { active: false } })).status).toBe(404);
    const res = await api.put(`/web_hooks/${foreign.id}`, { web_hook: { active: false } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await other.get(`/web_hooks/${foreign.id}`)).body.web_hook.active).toBe(true);
  });
});

describe("DELETE /api/v1/web_hooks/{id}", () => {
  it("deletes the subscription with its deliveries and answers the removed object", async () => {
    const hook = await createHook();
    await delivered(hook.id);
    const res = await api.delete(`/web_hooks/${hook.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ web_hook: hook });
    expect((await api.get(`/web_hooks/${hook.id}`)).status).toBe(404);
    expect((await api.get(`/web_hooks/${hook.id}/deliveries`)).status).toBe(404);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE web_hook_id = ?").bind(hook.id).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("answers 404 for an unknown id and for another tenant's id, which stays", async () => {
    const foreign = await createHook({}, other);
    expect((await api.delete("/web_hooks/999999")).status).toBe(404);
    expect((await api.delete(`/web_hooks/${foreign.id}`)).status).toBe(404);
    expect((await other.get(`/web_hooks/${foreign.id}`)).status).toBe(200);
  });
});

describe("GET /api/v1/web_hooks/{id}/deliveries", () => {
  it("lists deliveries newest first with their attempts, and never the secret", async () => {
    const target = receiver("fail=1&status=503");
    const hook = await createHook({ target_url: target.url, event: "booking.*" });
    const first = eventMessage(accountId, "booking.created");
    const second = eventMessage(accountId, "booking.cancelled");
    await drive([first]);
    await drive([second]);
    const res = await api.get(`/web_hooks/${hook.id}/deliveries`);
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.webhook_delivery.idempotency_id)).toEqual([second.idempotency_id, first.idempotency_id]);
    expect(res.body[1]).toEqual({
      webhook_delivery: {
        id: expect.any(Number),
        web_hook_id: hook.id,
        event: "booking.created",
        idempotency_id: first.idempotency_id,
        state: "pending",
        attempt_count: 1,
        attempts: [{ attempt: 1, status_code: 503, duration_ms: expect.any(Number), error: "HTTP 503", created_at: expect.stringMatching(ISO) }],
        payload: expect.objectContaining({ event: "booking.created", idempotency_id: first.idempotency_id }),
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    expect(res.body[0].webhook_delivery).toMatchObject({ state: "delivered", attempt_count: 1, attempts: [{ status_code: 200, error: null }] });
    expect(JSON.stringify(res.body)).not.toContain("whsec_");
    expect(res.headers.get("total-count")).toBe("2");
    expect(res.headers.get("current-page")).toBe("1");
  });

  it("pages 50 at a time", async () => {
    const hook = await createHook({ event: "person.deleted" });
    await drive(Array.from({ length: 10 }, () => eventMessage(accountId, "person.deleted")));
    const res = await api.get(`/web_hooks/${hook.id}/deliveries?page=2`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("total-count")).toBe("10");
    expect((await api.get(`/web_hooks/${hook.id}/deliveries?page=0`)).body).toEqual({ page: ["must be greater than or equal to 1"] });
  });

  it("answers 404 for an unknown hook and for another tenant's hook", async () => {
    const foreign = await createHook({}, other);
    expect((await api.get("/web_hooks/999999/deliveries")).status).toBe(404);
    const res = await api.get(`/web_hooks/${foreign.id}/deliveries`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});

describe("POST /api/v1/web_hooks/{id}/deliveries/{delivery_id}/redeliver", () => {
  it("queues a fresh attempt now and answers the delivery as pending", async () => {
    const target = receiver();
    const hook = await createHook({ target_url: target.url });
    const delivery = await delivered(hook.id);
    const res = await api.post(`/web_hooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status).toBe(200);
    expect(res.body.webhook_delivery).toMatchObject({ id: delivery.id, state: "pending", attempt_count: 1 });
    // The real queue makes the attempt in the background.
    const after = await eventually(
      async () => (await api.get(`/web_hooks/${hook.id}/deliveries`)).body[0].webhook_delivery,
      (d) => d.state === "delivered" && d.attempt_count === 2,
    );
    expect(after.attempts.map((a: any) => [a.attempt, a.status_code])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    const requests = await target.requests();
    expect(requests).toHaveLength(2);
    expect(requests[1].body).toBe(requests[0].body);
    expect(requests[1].headers["webhook-id"]).toBe(delivery.idempotency_id);
  });

  it("gives a failed delivery a fresh series of six attempts", async () => {
    const hook = await createHook({ target_url: receiver("fail=always").url });
    await drive([eventMessage(accountId, "booking.created")]);
    const delivery = (await api.get(`/web_hooks/${hook.id}/deliveries`)).body[0].webhook_delivery;
    for (let attempt = 2; attempt <= 6; attempt++) await drive([attemptMessage(accountId, delivery.id, attempt)]);
    expect((await api.get(`/web_hooks/${hook.id}/deliveries`)).body[0].webhook_delivery).toMatchObject({ state: "failed", attempt_count: 6 });

    expect((await api.post(`/web_hooks/${hook.id}/deliveries/${delivery.id}/redeliver`)).body.webhook_delivery.state).toBe("pending");
    // Attempt 7 is the first of the new series, so its failure leaves the delivery pending for a retry.
    const after = await eventually(
      async () => (await api.get(`/web_hooks/${hook.id}/deliveries`)).body[0].webhook_delivery,
      (d) => d.attempt_count === 7,
    );
    expect(after).toMatchObject({ state: "pending", attempt_count: 7 });
  });

  it("answers 400 on active when the web hook is paused", async () => {
    const hook = await createHook();
    const delivery = await delivered(hook.id);
    await api.put(`/web_hooks/${hook.id}`, { web_hook: { active: false } });
    const res = await api.post(`/web_hooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ active: [expect.stringContaining("activate the web hook")] });
  });

  it("answers 404 for an unknown delivery, another hook's delivery and another tenant's hook", async () => {
    const hook = await createHook();
    const delivery = await delivered(hook.id);
    const sibling = await createHook({ event: "person.*" });
    const foreign = await createHook({}, other);
    for (const path of [
      `/web_hooks/${hook.id}/deliveries/999999/redeliver`,
      `/web_hooks/${sibling.id}/deliveries/${delivery.id}/redeliver`,
      `/web_hooks/${foreign.id}/deliveries/${delivery.id}/redeliver`,
    ]) {
      const res = await api.post(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect((await other.post(`/web_hooks/${foreign.id}/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
    expect((await api.get(`/web_hooks/${hook.id}/deliveries`)).body[0].webhook_delivery).toMatchObject({ state: "delivered", attempt_count: 1 });
  });
});
