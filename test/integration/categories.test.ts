import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";

let api: Client;
let accountId: number;
let other: Client;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  other = (await newAccount()).api;
});

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;

const createService = async (client = api, title = "Haircut") => {
  const res = await client.post("/services", { service: { title } });
  expect(res.status).toBe(200);
  return res.body.service;
};

const createCategory = async (attributes: Record<string, unknown> = {}, client = api) => {
  const res = await client.post("/categories", { category: { title: "Hair", ...attributes } });
  expect(res.status).toBe(200);
  return res.body.category;
};

const linkCount = async (categoryId: number) =>
  (await env.DB.prepare("select count(*) as n from category_services where category_id = ?").bind(categoryId).first<{ n: number }>())!.n;

describe("POST /api/v1/categories", () => {
  it("creates a root category with its services and answers every field", async () => {
    const [a, b] = [await createService(), await createService()];
    const res = await api.post("/categories", {
      category: { title: "Hair", custom_data: { featured: "true" }, service_id_list: [b.id, a.id, b.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      category: {
        id: expect.any(Number),
        title: "Hair",
        parent_id: null,
        custom_data: { featured: true },
        service_id_list: [a.id, b.id],
        created_at: expect.stringMatching(ISO_WITH_OFFSET),
        updated_at: expect.stringMatching(ISO_WITH_OFFSET),
      },
    });
  });

  it("takes form data with bracket names and repeated service_id_list[]", async () => {
    const [a, b] = [await createService(), await createService()];
    const parent = await createCategory();
    const res = await api.form(
      "POST",
      "/categories",
      `category[title]=Colour&category[parent_id]=${parent.id}&category[service_id_list][]=${a.id}&category[service_id_list][]=${b.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.category).toMatchObject({ title: "Colour", parent_id: parent.id, service_id_list: [a.id, b.id] });
  });

  it("creates a category without services", async () => {
    const category = await createCategory({ title: "Empty" });
    expect(category).toMatchObject({ title: "Empty", parent_id: null, custom_data: null, service_id_list: [] });
  });

  it("answers 400 keyed by attribute for invalid values", async () => {
    const res = await api.post("/categories", { category: { parent_id: "root", service_id_list: ["x"], custom_data: [1] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      title: ["can't be blank"],
      parent_id: [expect.any(String)],
      service_id_list: [expect.any(String)],
      custom_data: [expect.any(String)],
    });
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/categories", { title: "Bare" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ category: [expect.stringContaining('{"category"')] });
  });

  it("answers 400 for an unknown parent and unknown services, and creates nothing", async () => {
    const service = await createService();
    const res = await api.post("/categories", { category: { title: "Orphan", parent_id: 999999, service_id_list: [service.id, 999998] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ parent_id: ["does not exist"], service_id_list: ["has ids that do not exist: 999998"] });
    const titles = (await api.get("/categories")).body.map((e: any) => e.category.title);
    expect(titles).not.toContain("Orphan");
  });

  it("treats another tenant's parent and services as unknown", async () => {
    const foreignParent = await createCategory({}, other);
    const foreignService = await createService(other);
    const res = await api.post("/categories", { category: { title: "Sneaky", parent_id: foreignParent.id, service_id_list: [foreignService.id] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ parent_id: ["does not exist"], service_id_list: [`has ids that do not exist: ${foreignService.id}`] });
  });

  it("links more services than D1 allows bound parameters", async () => {
    const { results } = await env.DB.prepare(`with recursive n(i) as (select 1 union all select i + 1 from n where i < 120)
        insert into services (account_id, title, created_at, updated_at) select ?, 'Bulk', 0, 0 from n returning id`)
      .bind(accountId)
      .all<{ id: number }>();
    const ids = results.map((row) => row.id);
    const category = await createCategory({ service_id_list: ids });
    expect(category.service_id_list).toEqual(ids);
    expect(await linkCount(category.id)).toBe(120);
  });

  it("ignores read-only and unknown attributes", async () => {
    const category = await createCategory({ id: 999999, account_id: 1, created_at: "2001-01-01 00:00", colour: "red" });
    expect(category.id).not.toBe(999999);
    expect(category.created_at.startsWith("2001")).toBe(false);
    expect(category).not.toHaveProperty("colour");
    expect(category).not.toHaveProperty("account_id");
  });
});

describe("GET /api/v1/categories", () => {
  it("lists the account's categories with their service ids, oldest first", async () => {
    const service = await createService();
    const root = await createCategory({ title: "Root", service_id_list: [service.id] });
    const child = await createCategory({ title: "Child", parent_id: root.id });
    const theirs = await createCategory({ title: "Theirs" }, other);
    const res = await api.get("/categories");
    expect(res.status).toBe(200);
    const ids = res.body.map((e: any) => e.category.id);
    expect(ids.indexOf(root.id)).toBeLessThan(ids.indexOf(child.id));
    expect(ids).not.toContain(theirs.id);
    expect(res.body.find((e: any) => e.category.id === root.id)).toEqual({ category: root });
    expect(res.body.find((e: any) => e.category.id === child.id)).toEqual({ category: { ...child, service_id_list: [] } });
  });
});

describe("GET /api/v1/categories/{id}", () => {
  it("answers one category", async () => {
    const category = await createCategory({ custom_data: { color: "red" } });
    const res = await api.get(`/categories/${category.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ category });
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's id", async () => {
    const category = await createCategory();
    expect((await api.get("/categories/999999")).status).toBe(404);
    expect((await api.get("/categories/abc")).status).toBe(404);
    const foreign = await other.get(`/categories/${category.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("PUT /api/v1/categories/{id}", () => {
  it("updates only the attributes sent and keeps the services when service_id_list is absent", async () => {
    const service = await createService();
    const category = await createCategory({ custom_data: { a: "1" }, service_id_list: [service.id] });
    const res = await api.put(`/categories/${category.id}`, { category: { title: "Renamed" } });
    expect(res.status).toBe(200);
    expect(res.body.category).toMatchObject({ title: "Renamed", custom_data: { a: "1" }, service_id_list: [service.id] });
  });

  it("replaces the whole service set when service_id_list is sent", async () => {
    const [a, b, c] = [await createService(), await createService(), await createService()];
    const category = await createCategory({ service_id_list: [a.id, b.id] });
    const res = await api.put(`/categories/${category.id}`, { category: { service_id_list: [c.id, b.id] } });
    expect(res.status).toBe(200);
    expect(res.body.category.service_id_list).toEqual([b.id, c.id]);
    expect((await api.get(`/categories/${category.id}`)).body.category.service_id_list).toEqual([b.id, c.id]);
  });

  it("clears the services with an empty list, in JSON or as an empty form value", async () => {
    const service = await createService();
    const first = await createCategory({ service_id_list: [service.id] });
    expect((await api.put(`/categories/${first.id}`, { category: { service_id_list: [] } })).body.category.service_id_list).toEqual([]);
    const second = await createCategory({ service_id_list: [service.id] });
    const res = await api.form("PUT", `/categories/${second.id}`, "category[service_id_list]=");
    expect(res.status).toBe(200);
    expect(res.body.category.service_id_list).toEqual([]);
  });

  it("moves a category under another and back to the root with parent_id null", async () => {
    const parent = await createCategory({ title: "Parent" });
    const category = await createCategory({ title: "Moving" });
    expect((await api.put(`/categories/${category.id}`, { category: { parent_id: parent.id } })).body.category.parent_id).toBe(parent.id);
    expect((await api.put(`/categories/${category.id}`, { category: { parent_id: null } })).body.category.parent_id).toBeNull();
  });

  it("answers 400 when the category would be its own parent", async () => {
    const category = await createCategory();
    const res = await api.put(`/categories/${category.id}`, { category: { parent_id: category.id } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ parent_id: ["can't be the category itself"] });
  });

  it("answers 400 when the new parent is one of its descendants, and changes nothing", async () => {
    const top = await createCategory({ title: "Top" });
    const middle = await createCategory({ title: "Middle", parent_id: top.id });
    const bottom = await createCategory({ title: "Bottom", parent_id: middle.id });
    const res = await api.put(`/categories/${top.id}`, { category: { title: "Changed", parent_id: bottom.id } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ parent_id: ["can't be one of the category's descendants"] });
    expect((await api.get(`/categories/${top.id}`)).body).toEqual({ category: top });
  });

  it("answers 400 for a blank title, an unknown parent or unknown services, and changes nothing", async () => {
    const service = await createService();
    const category = await createCategory({ service_id_list: [service.id] });
    const blank = await api.put(`/categories/${category.id}`, { category: { title: " " } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ title: ["can't be blank"] });
    const unknown = await api.put(`/categories/${category.id}`, { category: { parent_id: 999999, service_id_list: [999999] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ parent_id: ["does not exist"], service_id_list: ["has ids that do not exist: 999999"] });
    expect((await api.get(`/categories/${category.id}`)).body).toEqual({ category });
  });

  it("answers 404 for an unknown id", async () => {
    const res = await api.put("/categories/999999", { category: { title: "Nobody" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it("cannot touch another tenant's category", async () => {
    const service = await createService();
    const category = await createCategory({ service_id_list: [service.id] });
    expect((await other.put(`/categories/${category.id}`, { category: { title: "Hijacked", service_id_list: [] } })).status).toBe(404);
    expect((await api.get(`/categories/${category.id}`)).body).toEqual({ category });
  });
});

describe("DELETE /api/v1/categories/{id}", () => {
  it("removes the category and its service links, and answers the removed object", async () => {
    const service = await createService();
    const category = await createCategory({ service_id_list: [service.id] });
    const res = await api.delete(`/categories/${category.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ category });
    expect((await api.get(`/categories/${category.id}`)).status).toBe(404);
    expect(await linkCount(category.id)).toBe(0);
    expect((await api.get(`/services/${service.id}`)).body.service.active).toBe(true);
  });

  it("moves the children up to the removed category's parent", async () => {
    const top = await createCategory({ title: "Top" });
    const middle = await createCategory({ title: "Middle", parent_id: top.id });
    const child = await createCategory({ title: "Child", parent_id: middle.id });
    const rootChild = await createCategory({ title: "Root child", parent_id: top.id });
    await api.delete(`/categories/${middle.id}`);
    expect((await api.get(`/categories/${child.id}`)).body.category.parent_id).toBe(top.id);
    await api.delete(`/categories/${top.id}`);
    expect((await api.get(`/categories/${child.id}`)).body.category.parent_id).toBeNull();
    expect((await api.get(`/categories/${rootChild.id}`)).body.category.parent_id).toBeNull();
  });

  it("answers 404 for an unknown id", async () => {
    const res = await api.delete("/categories/999999");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it("cannot remove another tenant's category", async () => {
    const category = await createCategory();
    const child = await createCategory({ parent_id: category.id });
    expect((await other.delete(`/categories/${category.id}`)).status).toBe(404);
    expect((await api.get(`/categories/${category.id}`)).body).toEqual({ category });
    expect((await api.get(`/categories/${child.id}`)).body).toEqual({ category: child });
  });
});

describe("GET /api/v1/categories/{id}/services", () => {
  it("lists the category's active services, wrapped as service, in id order", async () => {
    const [a, b, gone, unlinked] = [await createService(api, "A"), await createService(api, "B"), await createService(api, "Gone"), await createService()];
    const category = await createCategory({ service_id_list: [b.id, gone.id, a.id] });
    await api.delete(`/services/${gone.id}`);
    const res = await api.get(`/categories/${category.id}/services`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ service: a }, { service: b }]);
    expect(res.body.map((e: any) => e.service.id)).not.toContain(unlinked.id);
  });

  it("answers an empty list for a category without services", async () => {
    const category = await createCategory();
    const res = await api.get(`/categories/${category.id}/services`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("answers 404 for an unknown id and another tenant's id", async () => {
    const category = await createCategory();
    expect((await api.get("/categories/999999/services")).status).toBe(404);
    const foreign = await other.get(`/categories/${category.id}/services`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});
