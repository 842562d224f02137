import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, client, newAccount, operator, send } from "../support/api";

describe("POST /admin/v1/accounts", () => {
  it("creates an account and answers its key and webhook secret once", async () => {
    const res = await operator.post("/accounts", {
      account: { subdomain: "Salon-One", name: "Salon One", email: "a@salon.no", time_zone: "Europe/Oslo", country_code: "no" },
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({ subdomain: "salon-one", country_code: "NO", locale: "en", time_zone: "Europe/Oslo" });
    expect(res.body.api_key).toMatch(/^bk_/);
    expect(res.body.webhook_secret).toMatch(/^whsec_/);
    expect(res.body.account).not.toHaveProperty("webhook_secret");
    expect(res.body.account.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    const me = await client(res.body.api_key).get("/client");
    expect(me.status).toBe(200);
    expect(me.body.client.id).toBe(res.body.account.id);
  });

  it("answers 400 keyed by attribute for missing and invalid fields", async () => {
    const res = await operator.post("/accounts", { account: { subdomain: "x y", time_zone: "Mars/Base", country_code: "ZZ" } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["country_code", "email", "name", "subdomain", "time_zone"]);
  });

  it("refuses a subdomain already taken", async () => {
    const { account } = await newAccount();
    const res = await operator.post("/accounts", {
      account: { subdomain: account.subdomain, name: "n", email: "e@x.io", time_zone: "UTC", country_code: "SE" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ subdomain: ["has already been taken"] });
  });

  it("answers 401 without the operator token", async () => {
    const res = await send("POST", "/admin/v1/accounts", { headers: { authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});

describe("POST /admin/v1/accounts/{id}/api_key", () => {
  it("rotates the key: the old one stops working at once on this isolate", async () => {
    const { api, account } = await newAccount();
    const res = await operator.post(`/accounts/${account.id}/api_key`);
    expect(res.status).toBe(200);
    // At once on this isolate (its account cache is evicted); other isolates within the lifetime.
    expect(res.body.previous_key_stops_within_seconds).toBe(30);
    expect((await api.get("/client")).status).toBe(401);
    expect((await client(res.body.api_key).get("/client")).status).toBe(200);
  });
});

describe("PUT /admin/v1/accounts/{id}", () => {
  it("closes the API with api_enabled=false (401) and billing_status=unpaid (402)", async () => {
    const { api, account } = await newAccount();
    await operator.put(`/accounts/${account.id}`, { account: { billing_status: "unpaid" } });
    const unpaid = await api.get("/client");
    expect(unpaid.status).toBe(402);
    expect(unpaid.body).toEqual({ error: expect.any(String) });
    await operator.put(`/accounts/${account.id}`, { account: { billing_status: "ok", api_enabled: false } });
    const disabled = await api.get("/client");
    expect(disabled.status).toBe(401);
    expect(disabled.body.error).toMatch(/not enabled/);
  });

  it("answers 404 for an unknown account", async () => {
    expect((await operator.put("/accounts/999999", { account: { api_enabled: false } })).status).toBe(404);
  });
});

describe("GET /admin/v1/accounts", () => {
  it("lists accounts wrapped as account", async () => {
    const { account } = await newAccount();
    const res = await operator.get("/accounts");
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ account: expect.objectContaining({ id: account.id }) });
  });

  it("is closed when the token is wrong", async () => {
    expect((await send("GET", "/admin/v1/accounts", { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } })).status).toBe(401);
  });
});

describe("/admin/v1 with a wrong method or path", () => {
  it("answers 405 with Allow for a method the path does not take, 404 for an unknown path, 401 before either without the token", async () => {
    const wrongMethod = await send("DELETE", "/admin/v1/accounts", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST, HEAD");
    expect(wrongMethod.body).toEqual({ error: expect.stringContaining("DELETE is not allowed") });
    expect((await operator.get("/nothing-here")).status).toBe(404);
    expect((await send("DELETE", "/admin/v1/accounts", { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } })).status).toBe(401);
  });
});
