// What an operator and an integrator use to find a request: X-Request-Id on every answer, the
// same id in a JSON log line, GET /health, and a root-host 404 that says where things are.
import { afterEach, describe, expect, it, vi } from "vitest";
import { newAccount, send } from "../support/api";

afterEach(() => vi.restoreAllMocks());

describe("X-Request-Id", () => {
  it("is on every answer: success, 404, and an early 400", async () => {
    const { api } = await newAccount();
    const answers = [await api.get("/client"), await api.get("/no-such-thing"), await send("GET", "http://localhost/services", { headers: { "user-agent": "" } })];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 400]);
    for (const { headers } of answers) expect(headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    expect(new Set(answers.map((a) => a.headers.get("x-request-id"))).size).toBe(3);
  });

  it("echoes a sane id the caller sent, and replaces one that is not", async () => {
    const { api } = await newAccount();
    expect((await api.get("/client", { "x-request-id": "trace-42_abc" })).headers.get("x-request-id")).toBe("trace-42_abc");
    const odd = await api.get("/client", { "x-request-id": "<script> and spaces" });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const long = await api.get("/client", { "x-request-id": "a".repeat(256) });
    expect(long.headers.get("x-request-id")).not.toBe("a".repeat(256));
  });

  it("is in the request's JSON log line, with method, path and status but no query string", async () => {
    const { api } = await newAccount();
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    const res = await api.get("/people?search=secret-name", { "x-request-id": "find-me-1" });
    const entry = lines.map((l) => JSON.parse(l)).find((e) => e.request_id === "find-me-1");
    expect(res.headers.get("x-request-id")).toBe("find-me-1");
    expect(entry).toMatchObject({ request_id: "find-me-1", method: "GET", path: "/api/v1/people", status: 200 });
    expect(entry.duration_ms).toEqual(expect.any(Number));
    expect(JSON.stringify(entry)).not.toContain("secret-name");
  });
});

describe("GET /health", () => {
  it("answers 200 after asking the database, on the root host, without a key", async () => {
    const res = await send("GET", "http://127.0.0.1:8787/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });
});

describe("the root host", () => {
  it("answers a 404 that names the private API's prefix and the booking-site host form", async () => {
    const res = await send("GET", "http://localhost:8787/");
    expect(res.status).toBe(404);
    expect(res.body.error).toContain("/api/v1");
    expect(res.body.error).toContain("<subdomain>.localhost");
    expect(res.body.error).toContain("http://demo.localhost:8787/services");
  });
});
