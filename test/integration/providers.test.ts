import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";

let api: Client;
let accountId: number;
let other: Client;
let otherAccountId: number;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  const theirs = await newAccount();
  other = theirs.api;
  otherAccountId = theirs.account.id;
});

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;

// There is no /resources feature on this branch yet, so resources are seeded straight into D1.
const seedResource = async (account = accountId) => {
  const row = await env.DB.prepare("insert into resources (account_id, title, created_at, updated_at) values (?, 'Room', 0, 0) returning id")
    .bind(account)
    .first<{ id: number }>();
  return row!.id;
};

const createService = async (client = api) => {
  const res = await client.post("/services", { service: { title: "Haircut" } });
  expect(res.status).toBe(200);
  return res.body.service.id as number;
};

const link = async () => {
  const resource_id = await seedResource();
  const service_id = await createService();
  const res = await api.post("/providers", { provider: { resource_id, service_id } });
  expect(res.status).toBe(200);
  return res.body.provider;
};

const countLinks = async (serviceId: number) =>
  (await env.DB.prepare("select count(*) as n from providers where service_id = ?").bind(serviceId).first<{ n: number }>())!.n;

describe("POST /api/v1/providers", () => {
  it("links a resource to a service and answers the provider", async () => {
    const resource_id = await seedResource();
    const service_id = await createService();
    const res = await api.post("/providers", { provider: { resource_id, service_id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      provider: {
        id: expect.any(Number),
        resource_id,
        service_id,
        active: true,
        created_at: expect.stringMatching(ISO_WITH_OFFSET),
        updated_at: expect.stringMatching(ISO_WITH_OFFSET),
      },
    });
  });

  it("takes form data with bracket names", async () => {
    const resource_id = await seedResource();
    const service_id = await createService();
    const res = await api.form("POST", "/providers", `provider[resource_id]=${resource_id}&provider[service_id]=${service_id}`);
    expect(res.status).toBe(200);
    expect(res.body.provider).toMatchObject({ resource_id, service_id, active: true });
  });

  it("answers the existing link when the pair is linked already", async () => {
    const provider = await link();
    const res = await api.post("/providers", { provider: { resource_id: provider.resource_id, service_id: provider.service_id } });
    expect(res.status).toBe(200);
    expect(res.body.provider).toEqual(provider);
    expect(await countLinks(provider.service_id)).toBe(1);
  });

  it("re-activates an inactive link instead of creating a second one", async () => {
    const provider = await link();
    await env.DB.prepare("update providers set active = 0, updated_at = 0 where id = ?").bind(provider.id).run();
    const res = await api.post("/providers", { provider: { resource_id: provider.resource_id, service_id: provider.service_id } });
    expect(res.status).toBe(200);
    expect(res.body.provider).toMatchObject({ id: provider.id, active: true });
    expect(res.body.provider.updated_at.startsWith("1970")).toBe(false);
    expect(await countLinks(provider.service_id)).toBe(1);
  });

  it("answers 400 can't be blank for each missing id", async () => {
    const res = await api.post("/providers", { provider: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ resource_id: ["can't be blank"], service_id: ["can't be blank"] });
  });

  it("answers 400 for ids that are not positive integers", async () => {
    const res = await api.post("/providers", { provider: { resource_id: "abc", service_id: 0 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ resource_id: ["is not an integer"], service_id: ["must be greater than or equal to 1"] });
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/providers", { resource_id: 1, service_id: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ provider: [expect.stringContaining('{"provider"')] });
  });

  it("answers 400 does not exist for unknown ids and creates nothing", async () => {
    const service_id = await createService();
    const res = await api.post("/providers", { provider: { resource_id: 999999, service_id } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ resource_id: ["does not exist"] });
    expect(await countLinks(service_id)).toBe(0);
  });

  it("treats another tenant's resource and service as unknown", async () => {
    const foreignResource = await seedResource(otherAccountId);
    const foreignService = await createService(other);
    const res = await api.post("/providers", { provider: { resource_id: foreignResource, service_id: foreignService } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ resource_id: ["does not exist"], service_id: ["does not exist"] });
    expect(await countLinks(foreignService)).toBe(0);
  });
});

describe("GET /api/v1/providers", () => {
  it("lists the account's active links wrapped as provider, oldest first", async () => {
    const first = await link();
    const second = await link();
    const inactive = await link();
    await env.DB.prepare("update providers set active = 0 where id = ?").bind(inactive.id).run();
    const theirs = await other.get("/providers");
    const res = await api.get("/providers");
    expect(res.status).toBe(200);
    const ids = res.body.map((e: any) => e.provider.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(ids).not.toContain(inactive.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(res.body.find((e: any) => e.provider.id === first.id)).toEqual({ provider: first });
    expect(theirs.body.map((e: any) => e.provider.id)).not.toContain(first.id);
  });

  it("filters by service_id and resource_id, one id or several", async () => {
    const a = await link();
    const b = await link();
    expect((await api.get(`/providers?service_id=${a.service_id}`)).body).toEqual([{ provider: a }]);
    expect((await api.get(`/providers?resource_id=${b.resource_id}`)).body).toEqual([{ provider: b }]);
    const both = await api.get(`/providers?service_id[]=${a.service_id}&service_id[]=${b.service_id}`);
    expect(both.body).toEqual([{ provider: a }, { provider: b }]);
    expect((await api.get(`/providers?service_id=${a.service_id}&resource_id=${b.resource_id}`)).body).toEqual([]);
  });

  it("answers 400 for a filter that is not an id", async () => {
    const res = await api.get("/providers?service_id=abc");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ service_id: [expect.any(String)] });
  });
});

describe("GET /api/v1/providers/{id}", () => {
  it("answers one provider", async () => {
    const provider = await link();
    const res = await api.get(`/providers/${provider.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ provider });
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's id", async () => {
    const provider = await link();
    expect((await api.get("/providers/999999")).status).toBe(404);
    expect((await api.get("/providers/abc")).status).toBe(404);
    const foreign = await other.get(`/providers/${provider.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("DELETE /api/v1/providers/{id}", () => {
  it("removes the link and answers the removed provider, inactive", async () => {
    const provider = await link();
    const res = await api.delete(`/providers/${provider.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ provider: { ...provider, active: false } });
    expect((await api.get(`/providers/${provider.id}`)).status).toBe(404);
    expect(await countLinks(provider.service_id)).toBe(0);
  });

  it("answers 404 for an unknown id", async () => {
    const res = await api.delete("/providers/999999");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it("cannot remove another tenant's provider", async () => {
    const provider = await link();
    expect((await other.delete(`/providers/${provider.id}`)).status).toBe(404);
    expect((await api.get(`/providers/${provider.id}`)).body).toEqual({ provider });
  });
});
