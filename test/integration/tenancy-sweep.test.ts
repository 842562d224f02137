// Walks every route of the catalogue with a second tenant's key and the first tenant's ids:
// nothing is read, nothing is written, every id answers 404 exactly as an unknown id would.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";
import { mountedRoutes } from "../support/security";

let owner: Client;
let intruder: Client;
let ids: Record<"resource" | "service" | "provider" | "category" | "person" | "otherPerson" | "userLink" | "webHook", number>;
const DATE = "2030-01-07";

async function must(res: Promise<{ status: number; body: any }>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

beforeAll(async () => {
  owner = (await newAccount()).api;
  intruder = (await newAccount()).api;
  const resource = (await must(owner.post("/resources", { resource: { title: "Secret room", opening_hours_mon: ["09:00", "17:00"] } }))).resource;
  const service = (await must(owner.post("/services", { service: { title: "Secret service" } }))).service;
  const provider = (await must(owner.post("/providers", { provider: { resource_id: resource.id, service_id: service.id } }))).provider;
  const category = (await must(owner.post("/categories", { category: { title: "Secret", service_id_list: [service.id] } }))).category;
  const person = (await must(owner.post("/people", { person: { name: "Secret Person", email: "secret@example.com" } }))).person;
  const otherPerson = (await must(owner.post("/people", { person: { name: "Other", email: "other@example.com" } }))).person;
  const userLink = (await must(owner.post("/client/users", { user: { name: "Staff", email: "staff@example.com" }, role: "staff" }))).client_user_link;
  const webHook = (await must(owner.post("/web_hooks", { web_hook: { target_url: "http://127.0.0.1:9/hook", event: "booking.*" } }))).web_hook;
  await must(owner.put(`/resources/${resource.id}/exception_dates/${DATE}`, { resource_exception_date: { opening_hours: null } }));
  ids = {
    resource: resource.id,
    service: service.id,
    provider: provider.id,
    category: category.id,
    person: person.id,
    otherPerson: otherPerson.id,
    userLink: userLink.id,
    webHook: webHook.id,
  };
});

/** The owner's object each route family names by `:id`. */
const KINDS: [prefix: string, kind: keyof typeof ids, wrapper: string][] = [
  ["/resources/:id", "resource", "resource"],
  ["/services/:id", "service", "service"],
  ["/providers/:id", "provider", "provider"],
  ["/categories/:id", "category", "category"],
  ["/people/:id", "person", "person"],
  ["/client/users/:id", "userLink", "user"],
  ["/web_hooks/:id", "webHook", "web_hook"],
];

/** What a route needs besides its path to reach the lookup of the id: a query, or a body that would be valid. */
function extras(method: string, pattern: string, wrapper: string): { query?: string; payload?: unknown } {
  if (pattern.endsWith("/exception_dates") && method !== "GET") return { payload: { resource_exception_dates: [{ exception_date: DATE, _destroy: true }] } };
  if (pattern.endsWith("/exception_dates/:date") && method !== "GET") return { payload: { resource_exception_date: { opening_hours: ["01:00", "02:00"] } } };
  if (pattern.endsWith("/opening_hours") || pattern.endsWith("/slots")) return { query: `?from=${DATE}&to=${DATE}` };
  if (pattern.endsWith("/next_available_date") || pattern.endsWith("/available_dates")) return { query: `?from=${DATE}` };
  if (pattern.endsWith("/merge")) return { query: `?merge_person_id=${ids.otherPerson}` };
  if (pattern.endsWith("/:id") && method === "PUT") {
    return {
      payload: { [wrapper]: wrapper === "web_hook" ? { target_url: "http://127.0.0.1:9/stolen" } : wrapper === "person" ? { name: "Hijacked" } : { title: "Hijacked" } },
    };
  }
  return {};
}

/** Every mounted private route that names an object of the owner, from the app's own route table. */
const idRoutes = (): [string, string, unknown?][] =>
  mountedRoutes("/api/v1").flatMap(({ method, path }) => {
    const pattern = path.slice("/api/v1".length);
    const family = KINDS.find(([prefix]) => pattern === prefix || pattern.startsWith(`${prefix}/`));
    if (!family) return [];
    const [, kind, wrapper] = family;
    const concrete = pattern.replace(":id", String(ids[kind])).replace(":date", DATE).replace(":delivery_id", "1");
    const { query = "", payload } = extras(method, pattern, wrapper);
    return [[method, `${concrete}${query}`, payload] as [string, string, unknown?]];
  });

/** The owner's view of everything, to prove the sweep changed nothing. */
async function ownerSnapshot() {
  return Promise.all([
    owner.get(`/resources/${ids.resource}`),
    owner.get(`/resources/${ids.resource}/exception_dates/${DATE}`),
    owner.get(`/services/${ids.service}`),
    owner.get(`/providers/${ids.provider}`),
    owner.get(`/categories/${ids.category}`),
    owner.get(`/people/${ids.person}`),
    owner.get(`/people/${ids.otherPerson}`),
    owner.get(`/client/users/${ids.userLink}`),
    owner.get(`/web_hooks/${ids.webHook}`),
    owner.get("/client"),
  ]).then((all) => all.map((r) => ({ status: r.status, body: r.body })));
}

describe("cross-tenant sweep", () => {
  it("answers 404 on every route naming another tenant's object and changes nothing", async () => {
    const before = await ownerSnapshot();
    const routes = idRoutes();
    // Not vacuous: every family of the owner's objects is reached through at least one route.
    expect(KINDS.filter(([prefix]) => !routes.some(([, path]) => path.startsWith(prefix.replace(":id", ""))))).toEqual([]);
    for (const [method, path, payload] of routes) {
      const res = method === "GET" ? await intruder.get(path) : await (intruder as any)[method.toLowerCase()](path, payload);
      expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status: 404 });
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect(await ownerSnapshot()).toEqual(before);
  });

  it("never lists another tenant's objects", async () => {
    const lists: [string, string, number][] = [
      ["/resources", "resource", ids.resource],
      ["/services", "service", ids.service],
      ["/services/appointments", "service", ids.service],
      ["/providers", "provider", ids.provider],
      ["/categories", "category", ids.category],
      ["/people", "person", ids.person],
      ["/people/all", "person", ids.person],
      [`/people?search=Secret`, "person", ids.person],
      ["/client/users", "client_user_link", ids.userLink],
      ["/web_hooks", "web_hook", ids.webHook],
    ];
    for (const [path, kind, id] of lists) {
      const res = await intruder.get(path);
      expect(res.status).toBe(200);
      expect({ path, ids: res.body.map((e: any) => e[kind].id) }).toEqual({ path, ids: expect.not.arrayContaining([id]) });
    }
  });

  it("cannot link another tenant's objects into its own", async () => {
    const mine = (await must(intruder.post("/services", { service: { title: "Mine" } }))).service;
    const provider = await intruder.post("/providers", { provider: { resource_id: ids.resource, service_id: mine.id } });
    expect(provider.status).toBe(400);
    expect(provider.body).toHaveProperty("resource_id");
    const category = await intruder.post("/categories", { category: { title: "Mine", service_id_list: [ids.service] } });
    expect(category.status).toBe(400);
    const child = await intruder.post("/categories", { category: { title: "Mine", parent_id: ids.category } });
    expect(child.status).toBe(400);
    const person = await intruder.post("/people", { person: { name: "Kid", parent_id: ids.person } });
    expect(person.status).toBe(400);
    const mineToo = (await must(intruder.post("/people", { person: { name: "Mine" } }))).person;
    expect([400, 404]).toContain((await intruder.post(`/people/${mineToo.id}/merge?merge_person_id=${ids.person}`)).status);
    expect((await owner.get(`/people/${ids.person}`)).body.person.active).toBe(true);
  });
});
