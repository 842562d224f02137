// Request shapes the original service's public clients send (a Node SDK, a Go SDK, a booking
// widget), replayed by hand: none of their code is used. Each call asserts the status and the
// wrapped answer the client decodes (docs/decisions/compat.md).
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, send } from "../support/api";
import { catalogue } from "../support/bookings";

const DAY = "2030-01-07"; // a Monday
const UA = { "user-agent": "compat-client/1.0" };

let key: string;
let subdomain: string;
let resourceId: number;
let serviceId: number;

beforeAll(async () => {
  const mine = await newAccount({ future_bookable_period: "10 years" });
  key = mine.api.apiKey;
  subdomain = mine.account.subdomain;
  const make = catalogue(mine.api);
  resourceId = (await make.resource({ title: "Chair" })).id;
  serviceId = (await make.service({ title: "Cut", interval: 30 })).id;
  await make.provider(resourceId, serviceId);
});

/** Deprecated Basic auth: the key as user name, an empty password (spec: Authentication 4). */
const basic = () => ({ authorization: `Basic ${btoa(`${key}:`)}` });
const json = { "content-type": "application/json" };

/** A Go-style client: a base URL ending in `/` joined to paths starting with one, Basic auth. */
const goClient = (method: string, path: string, body?: unknown) =>
  send(method, `/api/v1/${path}`, { headers: { ...UA, ...basic(), ...json }, body: body === undefined ? null : JSON.stringify(body) });

/** A Node-style client: Bearer auth, collection paths written with a trailing slash. */
const nodeClient = (method: string, path: string, body?: unknown) =>
  send(method, `/api/v1${path}`, { headers: { ...UA, authorization: `Bearer ${key}`, ...json }, body: body === undefined ? null : JSON.stringify(body) });

/** A widget: the booking site by host, HTML form posts and GETs with trailing slashes. */
const widget = {
  get: (path: string) => send("GET", `http://${subdomain}.localhost${path}`, { headers: UA }),
  form: (path: string, form: string) =>
    send("POST", `http://${subdomain}.localhost${path}`, { headers: { ...UA, "content-type": "application/x-www-form-urlencoded" }, body: form }),
};

/** The Monday `weeks` weeks from now, so a widget's booking is neither past nor beyond the horizon. */
function mondayInWeeks(weeks: number): string {
  const d = new Date(Date.now() + weeks * 7 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.toISOString().slice(0, 10);
}

describe("a Go-style client (Basic auth, doubled slashes)", () => {
  it("reads the account and lists services with the key as Basic user name", async () => {
    const client = await goClient("GET", "/client");
    expect(client.status).toBe(200);
    expect(client.body.client).toMatchObject({ subdomain });
    const services = await goClient("GET", "/services");
    expect(services.status).toBe(200);
    expect(services.body).toEqual(expect.arrayContaining([{ service: expect.objectContaining({ id: serviceId, title: "Cut" }) }]));
  });

  it("creates a booking with service_id as a string, reads it as bookings/ID?, updates and deletes it", async () => {
    const created = await goClient("POST", "/bookings", {
      booking: { service_id: String(serviceId), booked_from: `${DAY} 09:00`, booked_to: `${DAY} 09:30`, person_attributes: { name: "Go", phonenumber: "917 00 001" } },
      confirm: "true",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.booking).toMatchObject({
      service_id: serviceId,
      resource_id: resourceId,
      state: "confirmed",
      person: { name: "Go", phone_number: "917 00 001" },
    });
    const id = created.body.booking.id;

    const read = await goClient("GET", `/bookings/${id}?`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ booking: expect.objectContaining({ id, booked_from: `${DAY}T09:00:00+01:00` }) });

    const moved = await goClient("PUT", `/bookings/${id}`, { booking: { booked_from: `${DAY} 10:00`, booked_to: `${DAY} 10:30` } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.booking).toMatchObject({ id, booked_from: `${DAY}T10:00:00+01:00`, booked_to: `${DAY}T10:30:00+01:00` });

    const deleted = await goClient("DELETE", `/bookings/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.booking).toMatchObject({ id, state: "deleted", active: false });
  });

  it("reads next_available_date as a list it can decode into a slice", async () => {
    const next = await goClient("GET", `/services/${serviceId}/next_available_date?from=${DAY}`);
    expect(next.status).toBe(200);
    expect(next.body).toEqual([{ available_date: DAY }]);
  });

  it("gets a 4xx other than 400 as {error: string} it can decode, with nothing else to parse", async () => {
    const missing = await goClient("GET", "/bookings/999999999");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.any(String) });
    const badKey = await send("GET", "/api/v1/client", { headers: { ...UA, authorization: `Basic ${btoa("bk_wrong:")}` } });
    expect(badKey.status).toBe(401);
    expect(badKey.body).toEqual({ error: expect.any(String) });
  });
});

describe("a Node-style client (Bearer, trailing slashes, strings for numbers and booleans)", () => {
  it("creates a person with phonenumber, the deprecated alias, at /people/", async () => {
    const res = await nodeClient("POST", "/people/", { person: { name: "Node", phonenumber: "917 00 002" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.person).toMatchObject({ name: "Node", phone_number: "917 00 002", phonenumber: "917 00 002" });
  });

  it('creates a resource with "9:00" hours at /resources/ and reads them back padded', async () => {
    const res = await nodeClient("POST", "/resources/", { resource: { title: "Early", capacity: "2", opening_hours_mon: ["9:00", "17:00"] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.resource).toMatchObject({ title: "Early", capacity: 2, opening_hours_mon: ["09:00", "17:00"] });
    const listed = await nodeClient("GET", "/resources/");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(expect.arrayContaining([{ resource: expect.objectContaining({ id: res.body.resource.id, opening_hours_mon: ["09:00", "17:00"] }) }]));
  });

  it("sets one exception date with the SDK's {resource: {exception_date}} body, by POST and by PUT", async () => {
    const posted = await nodeClient("POST", `/resources/${resourceId}/exception_dates/2030-02-04`, {
      resource: { exception_date: { opening_hours: ["10:00", "12:00"] } },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.resource_exception_date).toMatchObject({ exception_date: "2030-02-04", opening_hours: ["10:00", "12:00"] });
    const put = await nodeClient("PUT", `/resources/${resourceId}/exception_dates/2030-02-04/`, { resource: { exception_date: { opening_hours: ["13:00", "15:00"] } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const read = await nodeClient("GET", `/resources/${resourceId}/exception_dates/2030-02-04`);
    expect(read.body.resource_exception_date).toMatchObject({ exception_date: "2030-02-04", opening_hours: ["13:00", "15:00"] });
    const bad = await nodeClient("PUT", `/resources/${resourceId}/exception_dates/2030-02-04`, { resource: { exception_date: { opening_hours: ["25:00", "12:00"] } } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(["opening_hours"]);
  });

  it('books with "public_booking": "true" and no person, lists /bookings/?service_id=, then confirms with an empty JSON PUT', async () => {
    const created = await nodeClient("POST", "/bookings/", {
      booking: { service_id: `${serviceId}`, booked_from: `${DAY} 11:00`, booked_to: `${DAY} 11:30`, public_booking: "true" },
      confirm: "false",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.booking).toMatchObject({ service_id: serviceId, person_id: null, state: "confirmed" });
    const id = created.body.booking.id;

    const listed = await nodeClient("GET", `/bookings/?service_id=${serviceId}&start=${DAY}T10:59:00`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: any) => e.booking.id)).toContain(id);

    const status = await send("PUT", `/api/v1/bookings/${id}/status/`, {
      headers: { ...UA, authorization: `Bearer ${key}`, ...json },
      body: JSON.stringify({ status: "arrived" }),
    });
    expect(status.status).toBe(200);
    expect(status.body.booking).toMatchObject({ id, status: "arrived" });
    const cancel = await send("PUT", `/api/v1/bookings/${id}/cancel`, { headers: { ...UA, authorization: `Bearer ${key}`, ...json } });
    expect(cancel.status).toBe(200);
    expect(cancel.body.booking).toMatchObject({ id, state: "cancelled", active: false });
  });
});

describe("a booking widget on the site (form posts, trailing slashes)", () => {
  it("lists services and slots with trailing slashes and reads next_available_date as a list", async () => {
    const services = await widget.get("/services/");
    expect(services.status).toBe(200);
    expect(services.body).toEqual(expect.arrayContaining([{ service: expect.objectContaining({ id: serviceId }) }]));
    const day = mondayInWeeks(2);
    const slots = await widget.get(`/services/${serviceId}/slots/?from=${day}&to=${day}&selected_resources[]=${resourceId}`);
    expect(slots.status).toBe(200);
    expect(slots.body[0]).toEqual({
      slot: expect.objectContaining({ timestamp: expect.stringMatching(new RegExp(`^${day}T08:00:00\\+0[12]:00$`)), available_resources: [resourceId] }),
    });
    const next = await widget.get(`/services/${serviceId}/next_available_date/?from=${day}`);
    expect(next.body).toEqual([{ available_date: day }]);
  });

  it("books from an HTML form with booking[person_attributes][name] and learns the visitor's person_id", async () => {
    const day = mondayInWeeks(2);
    const form = [
      `booking[service_id]=${serviceId}`,
      `booking[booked_from]=${encodeURIComponent(`${day} 12:00`)}`,
      `booking[booked_to]=${encodeURIComponent(`${day} 12:30`)}`,
      "booking[person_attributes][name]=Form+Visitor",
      `booking[person_attributes][email]=form${Date.now()}%40example.com`,
    ].join("&");
    const res = await widget.form("/bookings/", form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      booking: expect.objectContaining({
        service_id: serviceId,
        resource_id: resourceId,
        person_id: expect.any(Number),
        state: "confirmed",
        booked_from: expect.stringMatching(new RegExp(`^${day}T12:00:00`)),
      }),
      booking_token: expect.any(String),
    });
  });
});
