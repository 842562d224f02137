import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { newAccount, type Client } from "../support/api";

let api: Client;
let other: Client;

beforeAll(async () => {
  api = (await newAccount()).api;
  other = (await newAccount()).api;
});

const titles = async (client: Client) => (await client.get("/services")).body.map((e: any) => e.service.title);

describe("Idempotency-Key on POST and PUT", () => {
  it("replays the stored answer and creates one row", async () => {
    const headers = { "idempotency-key": "create-once" };
    const first = await api.post("/services", { service: { title: "Once" } }, headers);
    const replay = await api.post("/services", { service: { title: "Once" } }, headers);
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await titles(api)).filter((t: string) => t === "Once")).toHaveLength(1);
  });

  it("replays a retry that spells the path another way (trailing or doubled slash, .json)", async () => {
    const headers = { "idempotency-key": "same-route" };
    const first = await api.post("/services", { service: { title: "Spelled once" } }, headers);
    for (const path of ["/services/", "//services", "/services.json"]) {
      const replay = await api.post(path, { service: { title: "Spelled once" } }, headers);
      expect(replay.status, path).toBe(200);
      expect(replay.headers.get("idempotent-replayed"), path).toBe("true");
      expect(replay.body).toEqual(first.body);
    }
    expect((await titles(api)).filter((t: string) => t === "Spelled once")).toHaveLength(1);
  });

  it("answers 422 when the key is reused for a different request", async () => {
    const headers = { "idempotency-key": "reused" };
    await api.post("/services", { service: { title: "First" } }, headers);
    const res = await api.post("/services", { service: { title: "Second" } }, headers);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(await titles(api)).not.toContain("Second");
  });

  it("answers 409 while the first request with the key is still running", async () => {
    const account = (await api.get("/client")).body.client;
    const body = JSON.stringify({ service: { title: "Slow" } });
    // The claim of a first request that is still in flight.
    const { sha256Hex } = await import("../../src/http/secrets");
    await env.DB.prepare("INSERT INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)")
      .bind(account.id, "in-flight", await sha256Hex(`POST /api/v1/services\n${body}`), Date.now())
      .run();
    const res = await api.post("/services", JSON.parse(body), { "idempotency-key": "in-flight" });
    expect(res.status).toBe(409);
    expect(await titles(api)).not.toContain("Slow");
  });

  it("creates one row when duplicates with one key arrive at the same time", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => api.post("/services", { service: { title: "Concurrent" } }, { "idempotency-key": "burst" })));
    expect(results.every((r) => [200, 409].includes(r.status))).toBe(true);
    expect((await titles(api)).filter((t: string) => t === "Concurrent")).toHaveLength(1);
  });

  it("scopes keys to the account", async () => {
    const headers = { "idempotency-key": "shared-key" };
    expect((await api.post("/services", { service: { title: "Mine" } }, headers)).status).toBe(200);
    const theirs = await other.post("/services", { service: { title: "Theirs" } }, headers);
    expect(theirs.status).toBe(200);
    expect(theirs.body.service.title).toBe("Theirs");
  });

  it("replays a validation error as it was answered", async () => {
    const headers = { "idempotency-key": "bad-input" };
    const first = await api.post("/services", { service: { title: "" } }, headers);
    const replay = await api.post("/services", { service: { title: "" } }, headers);
    expect(first.status).toBe(400);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(first.body);
  });

  it("answers 400 on idempotency_key for an over-long key", async () => {
    const res = await api.post("/services", { service: { title: "x" } }, { "idempotency-key": "k".repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ idempotency_key: [expect.any(String)] });
  });
});
