import { beforeAll, describe, expect, it } from "vitest";
import { exports } from "cloudflare:workers";
import { newAccount, send, type Client } from "../support/api";

let api: Client;

beforeAll(async () => {
  api = (await newAccount()).api;
});

const withKey = (headers: Record<string, string> = {}) => ({ authorization: `Bearer ${api.apiKey}`, ...headers });

describe("identification", () => {
  it("answers 400 on user_agent when the header is missing", async () => {
    const res = await exports.default.fetch(new Request("http://api.test/api/v1/services", { headers: withKey() }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ user_agent: ["is required: name your application or website"] });
  });
});

describe("authentication", () => {
  it("accepts the key as a Bearer token", async () => {
    expect((await send("GET", "/api/v1/services", { headers: withKey() })).status).toBe(200);
  });

  it("accepts the deprecated Basic form with the key as user name and an empty password", async () => {
    const res = await send("GET", "/api/v1/services", { headers: { authorization: `Basic ${btoa(`${api.apiKey}:`)}` } });
    expect(res.status).toBe(200);
  });

  it("answers 401 with an explanation without a key, with a wrong key, and with garbage", async () => {
    for (const authorization of [undefined, "Bearer bk_wrong", "Basic !!!", "Token abc"]) {
      const res = await send("GET", "/api/v1/services", { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
});

describe("formats", () => {
  it("answers 406 for XML by Accept header and by .xml suffix", async () => {
    const byHeader = await send("GET", "/api/v1/services", { headers: withKey({ accept: "application/xml" }) });
    expect(byHeader.status).toBe(406);
    expect(byHeader.body).toEqual({ error: expect.stringMatching(/XML/) });
    expect((await send("GET", "/api/v1/services.xml", { headers: withKey() })).status).toBe(406);
  });

  it("serves JSON to a browser-style Accept header", async () => {
    const res = await send("GET", "/api/v1/services", { headers: withKey({ accept: "text/html,application/xml;q=0.9,*/*;q=0.8" }) });
    expect(res.status).toBe(200);
  });

  it("answers 400 on base for malformed JSON and for a JSON body that is not an object", async () => {
    for (const body of ["{not json", "[1,2]", "42"]) {
      const res = await send("POST", "/api/v1/services", { headers: withKey({ "content-type": "application/json" }), body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ base: [expect.any(String)] });
    }
  });

  it("answers 415 for a body type it does not read", async () => {
    const res = await send("POST", "/api/v1/services", {
      headers: withKey({ "content-type": "application/xml" }),
      body: "<service><title>x</title></service>",
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it("reads multipart form data with bracket names", async () => {
    const form = new FormData();
    form.append("service[title]", "Multipart");
    form.append("service[interval]", "20");
    const res = await exports.default.fetch(new Request("http://api.test/api/v1/services", { method: "POST", headers: withKey({ "user-agent": "t" }), body: form }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).service).toMatchObject({ title: "Multipart", interval: 20 });
  });

  it("refuses a body over 1 MiB with 413 and creates nothing", async () => {
    const before = (await api.get("/services")).body.length;
    const res = await api.post("/services", { service: { title: "Big", description: "x".repeat(1024 * 1024 + 10) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await api.get("/services")).body.length).toBe(before);
  });

  it("answers 404 with the error shape on an unknown path", async () => {
    const res = await send("GET", "/api/v1/nothing-here", { headers: withKey() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});
