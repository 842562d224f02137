// A table of malformed inputs across the catalogue: each answers 4xx with the spec's body
// shape, never 5xx, and leaves the stored data exactly as it was.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, send, type Client } from "../support/api";

let api: Client;
let ids: { resource: number; service: number; person: number; category: number };
/** Every case must leave the data as it was before the first case. */
let initial: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  api = (await newAccount()).api;
  ids = {
    resource: (await api.post("/resources", { resource: { title: "Room", opening_hours_mon: ["09:00", "17:00"] } })).body.resource.id,
    service: (await api.post("/services", { service: { title: "Cut" } })).body.service.id,
    person: (await api.post("/people", { person: { name: "Ann", email: "ann@example.com" } })).body.person.id,
    category: (await api.post("/categories", { category: { title: "Hair" } })).body.category.id,
  };
  initial = await snapshot();
});

type Case = [name: string, method: string, path: () => string, body: unknown, contentType?: string];
const HUGE = "x".repeat(300);

const cases: Case[] = [
  ["malformed JSON", "POST", () => "/services", '{"service": {"title": ', "application/json"],
  ["JSON array body", "POST", () => "/services", "[]", "application/json"],
  ["JSON string body", "POST", () => "/resources", '"resource"', "application/json"],
  ["XML body", "POST", () => "/services", "<service/>", "application/xml"],
  ["text body", "POST", () => "/people", "name=Bob", "text/plain"],
  ["unwrapped attributes", "POST", () => "/services", { title: "Bare" }],
  ["wrapper is a string", "POST", () => "/services", { service: "Cut" }],
  ["wrapper is an array", "POST", () => "/resources", { resource: [1, 2] }],
  ["title is an object", "POST", () => "/services", { service: { title: { a: 1 } } }],
  ["title is blank", "POST", () => "/services", { service: { title: "   " } }],
  ["title is too long", "POST", () => "/services", { service: { title: HUGE } }],
  ["interval is text", "POST", () => "/services", { service: { title: "x", interval: "hourly" } }],
  ["interval is fractional", "POST", () => "/services", { service: { title: "x", interval: 1.5 } }],
  ["interval is negative", "POST", () => "/services", { service: { title: "x", interval: -60 } }],
  ["interval is huge", "POST", () => "/services", { service: { title: "x", interval: 1e12 } }],
  ["boolean is a word", "POST", () => "/services", { service: { title: "x", has_day_booking: "maybe" } }],
  ["price is text", "POST", () => "/services", { service: { title: "x", price: "free" } }],
  ["unknown booking type", "POST", () => "/services", { service: { title: "x", booking_type: "party" } }],
  ["custom_data is a list", "POST", () => "/services", { service: { title: "x", custom_data: ["a"] } }],
  ["custom_data value is nested", "POST", () => "/services", { service: { title: "x", custom_data: { a: { b: 1 } } } }],
  ["opening hours unpaired", "POST", () => "/resources", { resource: { title: "r", opening_hours_mon: ["09:00"] } }],
  ["opening hours not times", "POST", () => "/resources", { resource: { title: "r", opening_hours_tue: ["nine", "five"] } }],
  ["opening hours closing before opening", "POST", () => "/resources", { resource: { title: "r", opening_hours_wed: ["17:00", "09:00"] } }],
  ["opening hours overlapping pairs", "POST", () => "/resources", { resource: { title: "r", opening_hours_thu: ["09:00", "13:00", "12:00", "17:00"] } }],
  ["opening hours 25:00", "POST", () => "/resources", { resource: { title: "r", opening_hours_fri: ["09:00", "25:00"] } }],
  ["capacity zero", "POST", () => "/resources", { resource: { title: "r", capacity: 0 } }],
  ["capacity as text", "PUT", () => `/resources/${ids.resource}`, { resource: { capacity: "lots" } }],
  ["exception date not a date", "PUT", () => `/resources/${ids.resource}/exception_dates/2030-02-30`, { resource_exception_date: { opening_hours: null } }],
  ["exception entries not a list", "POST", () => `/resources/${ids.resource}/exception_dates`, { resource_exception_dates: "2030-01-01" }],
  ["opening_hours range reversed", "GET", () => `/resources/${ids.resource}/opening_hours?from=2030-01-10&to=2030-01-01`, undefined],
  ["opening_hours bad date", "GET", () => `/resources/${ids.resource}/opening_hours?from=yesterday`, undefined],
  ["person without identifier", "POST", () => "/people", { person: { city: "Oslo" } }],
  ["person email invalid", "POST", () => "/people", { person: { email: "not-an-email" } }],
  ["person phone invalid", "POST", () => "/people", { person: { phone_number: "call me maybe" } }],
  ["person date_of_birth impossible", "POST", () => "/people", { person: { name: "x", date_of_birth: "1990-13-45" } }],
  ["person country code unknown", "POST", () => "/people", { person: { name: "x", country_code: "QQ" } }],
  ["person email taken", "POST", () => "/people", { person: { email: "ann@example.com" } }],
  ["people since not a datetime", "GET", () => "/people?since=last-week", undefined],
  ["people page zero", "GET", () => "/people?page=0", undefined],
  ["category parent is itself", "PUT", () => `/categories/${ids.category}`, () => ({ category: { parent_id: ids.category } })],
  ["category service list unknown id", "POST", () => "/categories", { category: { title: "c", service_id_list: [987654] } }],
  ["provider without ids", "POST", () => "/providers", { provider: {} }],
  ["account time zone unknown", "PUT", () => "/client", { client: { time_zone: "Europe/Atlantis" } }],
  ["account locale unsupported", "PUT", () => "/client", { client: { locale: "de" } }],
  ["account period unreadable", "PUT", () => "/client", { client: { first_bookable_period: "soonish" } }],
  ["account time zone is an offset", "PUT", () => "/client", { client: { time_zone: "+01:00" } }],
  ["holidays range reversed", "GET", () => "/client/holidays?from=2030-02-01&to=2030-01-01", undefined],
  ["user without email", "POST", () => "/client/users", { user: { name: "Staff" }, role: "staff" }],
  ["user role unknown", "POST", () => "/client/users", { user: { name: "S", email: "s@example.com" }, role: "owner" }],
  ["form with broken brackets", "POST", () => "/services", "service[title=Cut&service]interval[=5", "application/x-www-form-urlencoded"],
];

async function snapshot() {
  const paths = ["/resources", "/services", "/people/all", "/categories", "/providers", "/client", "/client/users", `/resources/${ids.resource}/exception_dates`];
  return Promise.all(paths.map(async (p) => ({ p, body: (await api.get(p)).body })));
}

describe("malformed input", () => {
  it.each(cases)("%s: 4xx in the spec's shape, nothing changed", async (_name, method, path, given, contentType) => {
    const payload = typeof given === "function" ? given() : given;
    const headers: Record<string, string> = { authorization: `Bearer ${api.apiKey}` };
    if (payload !== undefined) headers["content-type"] = contentType ?? "application/json";
    const raw = payload === undefined ? null : typeof payload === "string" ? payload : JSON.stringify(payload);
    const res = await send(method, `/api/v1${path()}`, { headers, body: raw });

    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    if (res.status === 400) {
      expect(Object.keys(res.body).length).toBeGreaterThan(0);
      for (const messages of Object.values(res.body)) {
        expect(Array.isArray(messages) || typeof messages === "object").toBe(true);
      }
    } else {
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect(await snapshot()).toEqual(initial);
  });
});

/** `open` `levels` times, then `inner`, then `close` as often: built as text, which JSON.stringify cannot reach. */
const nested = (levels: number, open: string, inner: string, close: string) => `${open.repeat(levels)}${inner}${close.repeat(levels)}`;
const formHeaders = () => ({ authorization: `Bearer ${api.apiKey}`, "content-type": "application/x-www-form-urlencoded" });
const jsonHeaders = () => ({ authorization: `Bearer ${api.apiKey}`, "content-type": "application/json" });

describe("input nested to any depth", () => {
  it("answers 400 on base for a wrapper of arrays 100,000 deep", async () => {
    const res = await send("POST", "/api/v1/resources", { headers: jsonHeaders(), body: `{"resource": ${nested(100_000, "[", "", "]")}}` });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ base: ["the input nests deeper than 32 levels"] });
    expect(await snapshot()).toEqual(initial);
  });

  it("answers 400 on the outer attribute for objects 100,000 deep", async () => {
    const res = await send("POST", "/api/v1/resources", { headers: jsonHeaders(), body: `{"resource": ${nested(100_000, '{"a":', "1", "}")}}` });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ a: ["nests deeper than 32 levels"] });
    const bare = await send("POST", "/api/v1/resources", { headers: jsonHeaders(), body: nested(100_000, '{"a":', "1", "}") });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ a: ["nests deeper than 32 levels"] });
    expect(await snapshot()).toEqual(initial);
  });

  it("names the attribute that holds arrays or objects 100,000 deep", async () => {
    for (const deep of [nested(100_000, "[", "1", "]"), nested(100_000, '{"x":', "[]", "}")]) {
      const res = await send("POST", "/api/v1/services", { headers: jsonHeaders(), body: `{"service": {"title": "Cut", "description": ${deep}}}` });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ description: ["nests deeper than 32 levels"] });
    }
    expect(await snapshot()).toEqual(initial);
  });

  it("accepts a body nested as deep as a valid input goes", async () => {
    const res = await send("PUT", `/api/v1/resources/${ids.resource}/exception_dates`, {
      headers: jsonHeaders(),
      body: JSON.stringify({ resource_exception_dates: [{ exception_date: "2030-05-17", opening_hours: ["10:00", "12:00"] }] }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await send("DELETE", `/api/v1/resources/${ids.resource}/exception_dates/2030-05-17`, { headers: jsonHeaders() });
    expect(await snapshot()).toEqual(initial);
  });

  it("answers a form body with 10,000 levels of brackets with a 400 in the spec's shape", async () => {
    const res = await send("POST", "/api/v1/resources", { headers: formHeaders(), body: `resource${"[a]".repeat(10_000)}=x` });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ title: ["can't be blank"] });
    expect(await snapshot()).toEqual(initial);
  });

  it("answers a query with 10,000 levels of brackets without a 5xx: an unknown parameter is ignored", async () => {
    const res = await send("GET", `/api/v1/resources?x${"[b]".repeat(10_000)}=1`, { headers: { authorization: `Bearer ${api.apiKey}` } });
    expect(res.status).toBe(200);
    const known = await send("GET", `/api/v1/bookings?start${"[b]".repeat(10_000)}=1`, { headers: { authorization: `Bearer ${api.apiKey}` } });
    expect(known.status).toBe(400);
    expect(Object.keys(known.body)).toEqual(["start"]);
  });
});
