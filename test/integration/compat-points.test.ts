// The spec points real clients of the original service rely on (issue 8, docs/decisions/compat.md):
// one describe per point, each through the Worker as a client would call it.
import { createScheduledController } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ADMIN_TOKEN, env, newAccount, publicSite, send, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { uniquePhone } from "../support/messages";

const MINUTE = 60_000;
const DAY = "2030-01-07"; // a Monday, for private API bookings and slots
const closedRestOfWeek = {
  opening_hours_tue: null,
  opening_hours_wed: null,
  opening_hours_thu: null,
  opening_hours_fri: null,
  opening_hours_sat: null,
  opening_hours_sun: null,
};

/** The Monday `weeks` weeks from now, so a public booking is neither past nor beyond the horizon. */
function mondayInWeeks(weeks: number): string {
  const d = new Date(Date.now() + weeks * 7 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.toISOString().slice(0, 10);
}

let api: Client;
let apiKey: string;
let subdomain: string;
let make: ReturnType<typeof catalogue>;
let room: any;
let cut: any;

beforeAll(async () => {
  const mine = await newAccount({ future_bookable_period: "10 years" });
  api = mine.api;
  apiKey = mine.api.apiKey;
  subdomain = mine.account.subdomain;
  make = catalogue(api);
  room = await make.resource({ title: "Room", opening_hours_mon: ["09:00", "17:00"], ...closedRestOfWeek });
  cut = await make.service({ title: "Cut", interval: 60 });
  await make.provider(room.id, cut.id);
});

const auth = () => ({ authorization: `Bearer ${apiKey}`, "content-type": "application/json" });

describe("1. trailing and doubled slashes reach the clean route, query kept", () => {
  it("serves slots with a trailing slash and keeps from/to", async () => {
    const clean = await api.get(`/services/${cut.id}/slots?from=${DAY}&to=${DAY}`);
    const slashed = await api.get(`/services/${cut.id}/slots/?from=${DAY}&to=${DAY}`);
    expect(slashed.status).toBe(200);
    expect(slashed.body).toEqual(clean.body);
    expect(slashed.body[0].slot.timestamp).toBe(`${DAY}T09:00:00+01:00`);
  });

  it("creates a person at /people/ and lists /resources/ and /bookings/?service_id=", async () => {
    const person = await api.post("/people/", { person: { name: "Slash" } });
    expect(person.status).toBe(200);
    expect(person.body.person).toMatchObject({ name: "Slash" });
    const resources = await api.get("/resources/");
    expect(resources.status).toBe(200);
    expect(resources.body.map((e: any) => e.resource.id)).toContain(room.id);

    const other = await make.service({ title: "Other" });
    await make.provider(room.id, other.id);
    const mine = await make.booking({ service_id: cut.id, booked_from: `${DAY} 09:00`, booked_to: `${DAY} 10:00` });
    await make.booking({ service_id: other.id, booked_from: `${DAY} 10:00`, booked_to: `${DAY} 11:00` });
    const listed = await api.get(`/bookings/?service_id=${cut.id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: any) => e.booking.id)).toEqual([mine.id]);
  });

  it("updates and deletes through /api/v1//bookings/{id}", async () => {
    const booking = await make.booking({ resource_id: room.id, booked_from: `${DAY} 12:00`, booked_to: `${DAY} 13:00` });
    const put = await send("PUT", `/api/v1//bookings/${booking.id}`, { headers: auth(), body: JSON.stringify({ booking: { title: "Doubled" } }) });
    expect(put.status).toBe(200);
    expect(put.body.booking).toMatchObject({ id: booking.id, title: "Doubled" });
    const del = await send("DELETE", `/api/v1//bookings/${booking.id}/`, { headers: auth() });
    expect(del.status).toBe(200);
    expect(del.body.booking).toMatchObject({ id: booking.id, state: "deleted", active: false });
  });

  it("normalises the booking site and the operator API too, with .json after the slash rule", async () => {
    const site = await send("GET", `http://${subdomain}.localhost//services/${cut.id}/slots/?from=${DAY}&to=${DAY}`);
    expect(site.status).toBe(200);
    expect(site.body[0].slot.timestamp).toBe(`${DAY}T09:00:00+01:00`);
    const json = await api.get("/services.json/");
    expect(json.status).toBe(200);
    expect(json.body.map((e: any) => e.service.id)).toContain(cut.id);
    const accounts = await send("GET", "/admin/v1/accounts/", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(accounts.status).toBe(200);
    expect(Array.isArray(accounts.body)).toBe(true);
  });

  it("still answers 404 for paths that name nothing, slashes or not", async () => {
    expect((await api.get("/nothing/")).status).toBe(404);
    // The site's root is its booking page (issue 10); a path under it that names nothing is not.
    expect((await send("GET", `http://${subdomain}.localhost/nothing/`)).status).toBe(404);
    expect((await send("GET", `http://${subdomain}.localhost//nothing`)).status).toBe(404);
  });
});

describe("2. next_available_date answers a list", () => {
  it("answers [{available_date}] on the private API and the site, and [] when nothing is free", async () => {
    const site = publicSite(subdomain);
    const next = await api.get(`/services/${cut.id}/next_available_date?from=2030-01-01`);
    expect(next.status).toBe(200);
    expect(next.body).toEqual([{ available_date: DAY }]);
    expect((await site.get(`/services/${cut.id}/next_available_date?from=2030-01-01`)).body).toEqual([{ available_date: DAY }]);
    const idle = await make.service({ title: "Nobody provides this" });
    expect((await api.get(`/services/${idle.id}/next_available_date?from=2030-01-01`)).body).toEqual([]);
    expect((await site.get(`/services/${idle.id}/next_available_date?from=2030-01-01`)).body).toEqual([]);
  });
});

describe("3. opening hours are read leniently and written strictly", () => {
  it('stores and answers "9:00" as "09:00", weekday hours, legacy pairs, forms and exception dates', async () => {
    const res = await api.post("/resources", {
      resource: { title: "Lenient", opening_hours_mon: ["9:00", "12:00", "13:00", "17:30"], open_1: "8:15", close_1: "16:00" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.resource).toMatchObject({ opening_hours_mon: ["09:00", "12:00", "13:00", "17:30"], opening_hours_tue: ["08:15", "16:00"], open_0: "09:00" });
    const stored = await env.DB.prepare("SELECT opening_hours_mon FROM resources WHERE id = ?").bind(res.body.resource.id).first<{ opening_hours_mon: string }>();
    expect(JSON.parse(stored!.opening_hours_mon)).toEqual(["09:00", "12:00", "13:00", "17:30"]);

    const form = await api.form("POST", "/resources", "resource[title]=Form&resource[opening_hours_wed][]=7:00&resource[opening_hours_wed][]=9:30");
    expect(form.status).toBe(200);
    expect(form.body.resource.opening_hours_wed).toEqual(["07:00", "09:30"]);

    const exception = await api.put(`/resources/${res.body.resource.id}/exception_dates/2030-01-08`, { resource_exception_date: { opening_hours: ["9:00", "11:00"] } });
    expect(exception.status).toBe(200);
    expect(exception.body.resource_exception_date.opening_hours).toEqual(["09:00", "11:00"]);
  });

  it("still refuses 25:00, 9 and 09:60 on the attribute", async () => {
    for (const bad of ["25:00", "9", "09:60", "9:5", "123:00"]) {
      const res = await api.post("/resources", { resource: { title: "Strict", opening_hours_mon: [bad, "17:00"] } });
      expect({ bad, status: res.status, body: res.body }).toEqual({ bad, status: 400, body: { opening_hours_mon: ["must be times written hh:mm"] } });
    }
    const legacy = await api.post("/resources", { resource: { title: "Strict", open_0: "9", close_0: "17:00" } });
    expect(legacy.status).toBe(400);
    expect(legacy.body).toEqual({ open_0: ["must be a time written hh:mm"] });
  });
});

describe("4. expires_at is an input of bookings awaiting verification", () => {
  let sms: Client;
  let chair: any;
  let book: (booking: Record<string, unknown>, extra?: Record<string, unknown>) => Promise<{ status: number; body: any }>;

  beforeAll(async () => {
    ({ api: sms } = await newAccount({ verification_method: 1 }));
    chair = await catalogue(sms).resource({ title: "Chair", capacity: 1 });
    book = (booking, extra = {}) =>
      sms.post("/bookings", {
        booking: {
          resource_id: chair.id,
          booked_from: `${DAY} 10:00`,
          booked_to: `${DAY} 11:00`,
          person_attributes: { name: "Kari", phone_number: uniquePhone() },
          ...booking,
        },
        ...extra,
      });
  });

  const runCron = (at: number) => worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: "* * * * *" }), env);

  it("keeps a longer hold given on create: the sweep leaves it past 20 minutes and expires it at the given time", async () => {
    const expiresAt = Date.now() + 2 * 60 * MINUTE;
    const res = await book({ booked_from: `${DAY} 08:00`, booked_to: `${DAY} 08:30`, expires_at: new Date(expiresAt).toISOString() }, { confirm: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.state).toBe("awaiting_verification");
    expect(Date.parse(res.body.booking.expires_at)).toBe(Math.floor(expiresAt / 1000) * 1000);
    await runCron(Date.now() + 30 * MINUTE);
    expect((await rawBooking(res.body.booking.id))!.state).toBe("awaiting_verification");
    await runCron(expiresAt + MINUTE);
    expect((await rawBooking(res.body.booking.id))!.state).toBe("verification_expired");
  });

  it("reads a shortened hold as expired once it passes, before any sweep, and frees the slot", async () => {
    const res = await book({ booked_from: `${DAY} 12:00`, booked_to: `${DAY} 13:00`, expires_at: new Date(Date.now() + 1500).toISOString() }, { confirm: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await sms.get(`/bookings/${res.body.booking.id}`)).body.booking).toMatchObject({ state: "verification_expired", active: false });
    const again = await book({ booked_from: `${DAY} 12:00`, booked_to: `${DAY} 13:00` });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it("changes the hold on update while awaiting verification, and the sweep uses the new time", async () => {
    const created = (await book({ booked_from: `${DAY} 14:00`, booked_to: `${DAY} 15:00` }, { confirm: false })).body.booking;
    const later = Date.now() + 3 * 60 * MINUTE;
    const res = await sms.put(`/bookings/${created.id}`, { booking: { expires_at: new Date(later).toISOString() } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Date.parse(res.body.booking.expires_at)).toBe(Math.floor(later / 1000) * 1000);
    await runCron(Date.parse(created.expires_at) + MINUTE);
    expect((await rawBooking(created.id))!.state).toBe("awaiting_verification");
    await runCron(later + MINUTE);
    expect((await rawBooking(created.id))!.state).toBe("verification_expired");
  });

  it("refuses a past time, a hold on a booking that needs no verification, and clearing a hold; an echoed value is no change", async () => {
    const past = await book({ booked_from: `${DAY} 16:00`, booked_to: `${DAY} 16:30`, expires_at: "2020-01-01 10:00" }, { confirm: false });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ expires_at: ["must be in the future"] });
    const confirmed = await book({ booked_from: `${DAY} 16:00`, booked_to: `${DAY} 16:30`, expires_at: new Date(Date.now() + MINUTE * 60).toISOString() });
    expect(confirmed.status).toBe(400);
    expect(confirmed.body).toEqual({ expires_at: ["can only be set on a booking awaiting verification"] });

    const held = (await book({ booked_from: `${DAY} 16:00`, booked_to: `${DAY} 16:30` }, { confirm: false })).body.booking;
    const cleared = await sms.put(`/bookings/${held.id}`, { booking: { expires_at: null } });
    expect(cleared.status).toBe(400);
    expect(cleared.body).toEqual({ expires_at: ["can't be blank: a booking awaiting verification expires"] });

    const plain = (await book({ booked_from: `${DAY} 17:00`, booked_to: `${DAY} 17:30` })).body.booking;
    const echoed = await sms.put(`/bookings/${plain.id}`, { booking: { ...plain, title: "Echo" } });
    expect(echoed.status, JSON.stringify(echoed.body)).toBe(200);
    expect(echoed.body.booking).toMatchObject({ title: "Echo", expires_at: null });
    const set = await sms.put(`/bookings/${plain.id}`, { booking: { expires_at: new Date(Date.now() + MINUTE * 60).toISOString() } });
    expect(set.status).toBe(400);
    expect(set.body).toEqual({ expires_at: ["can only be set on a booking awaiting verification"] });
    expect((await rawBooking(plain.id))!.expires_at).toBeNull();
  });

  it("ignores expires_at from a visitor on the booking site", async () => {
    const { api: siteApi, account } = await newAccount({ verification_method: 1 });
    const siteMake = catalogue(siteApi);
    const desk = await siteMake.resource({ title: "Desk" });
    const visit = await siteMake.service({ title: "Visit" });
    await siteMake.provider(desk.id, visit.id);
    const day = mondayInWeeks(2);
    const res = await publicSite(account.subdomain).post("/bookings", {
      booking: {
        service_id: visit.id,
        booked_from: `${day} 10:00`,
        booked_to: `${day} 11:00`,
        expires_at: `${day} 09:00`,
        person_attributes: { name: "V", phone_number: uniquePhone() },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await rawBooking(res.body.booking.id);
    expect(stored!.expires_at - stored!.created_at).toBe(20 * MINUTE);
  });
});

describe("5. events on any active service", () => {
  it("creates an event on an appointment service; its bookings count against the event, not the service's slots", async () => {
    const stage = await make.resource({ title: "Stage", capacity: 1, opening_hours_mon: ["09:00", "17:00"], ...closedRestOfWeek });
    const consult = await make.service({ title: "Consultation", interval: 60 });
    await make.provider(stage.id, consult.id);
    const res = await api.post("/events", {
      event: { resource_id: stage.id, service_id: consult.id, capacity: 2, starts_at: `${DAY} 10:00`, ends_at: `${DAY} 11:00`, title: "Open day" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.event).toMatchObject({ service_id: consult.id, capacity: 2, availability: 2 });
    const event = res.body.event;
    for (let i = 0; i < 2; i += 1) await must(api.post("/bookings", { booking: { event_id: event.id } }));
    const third = await api.post("/bookings", { booking: { event_id: event.id } });
    expect(third.status).toBe(400);
    expect(third.body).toEqual({ event_id: ["is fully booked"] });
    // The resource's capacity of 1 is untouched by the two event seats: the appointment slot stays free.
    const slots = await api.get(`/services/${consult.id}/slots?from=${DAY}&to=${DAY}`);
    const ten = slots.body.find((e: any) => e.slot.timestamp === `${DAY}T10:00:00+01:00`);
    expect(ten.slot).toMatchObject({ free: 1, available_resources: [stage.id] });
  });
});

describe("6. public_booking=true on the private API applies the time rules, not a person", () => {
  it("books without a person inside opening hours, and still refuses outside them or in the past", async () => {
    const inside = await api.post("/bookings", { booking: { service_id: cut.id, booked_from: `${DAY} 15:00`, booked_to: `${DAY} 16:00`, public_booking: "true" } });
    expect(inside.status, JSON.stringify(inside.body)).toBe(200);
    expect(inside.body.booking).toMatchObject({ person_id: null, person: null, state: "confirmed" });
    const outside = await api.post("/bookings", { booking: { service_id: cut.id, booked_from: `${DAY} 18:00`, booked_to: `${DAY} 19:00`, public_booking: true } });
    expect(outside.body).toEqual({ booked_from: ["is outside the resource's opening hours"] });
    const past = await api.post("/bookings", { booking: { service_id: cut.id, booked_from: "2020-01-06 10:00", booked_to: "2020-01-06 11:00", public_booking: true } });
    expect(past.status).toBe(400);
    expect(Object.keys(past.body)).toEqual(["booked_from"]);
  });
});

describe("7. the booking site's POST /bookings answers the visitor's person_id", () => {
  it("answers the person created, and the same one when the visitor is matched again", async () => {
    const site = publicSite(subdomain);
    const day = mondayInWeeks(3);
    const email = `visitor${Date.now()}@example.com`;
    const first = await site.post("/bookings", {
      booking: { service_id: cut.id, booked_from: `${day} 09:00`, booked_to: `${day} 10:00`, person_attributes: { name: "Visitor", email } },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const stored = (await api.get(`/bookings/${first.body.booking.id}`)).body.booking;
    expect(first.body.booking.person_id).toBe(stored.person_id);
    expect(first.body.booking).not.toHaveProperty("person");
    const second = await site.post("/bookings", {
      booking: { service_id: cut.id, booked_from: `${day} 10:00`, booked_to: `${day} 11:00`, person_attributes: { email } },
    });
    expect(second.body.booking.person_id).toBe(stored.person_id);
  });
});

describe("8. text that is not UTF-8 is a 400 on its attribute, never stored", () => {
  const titles = async () => (await api.get("/resources")).body.map((e: any) => e.resource.title);
  const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));

  it("refuses bytes that are not UTF-8 in a JSON body", async () => {
    const body = bytes('{"resource": {"title": "Bad', [0xff, 0xfe], '", "capacity": 2}}');
    const res = await send("POST", "/api/v1/resources", { headers: auth(), body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ title: ["is not valid UTF-8 text"] });
    expect((await titles()).some((t: string) => t.startsWith("Bad"))).toBe(false);
  });

  it("refuses a lone surrogate escape in JSON, and percent escapes or raw bytes that are not UTF-8 in a form", async () => {
    const surrogate = await send("POST", "/api/v1/resources", { headers: auth(), body: '{"resource": {"title": "Lone \\udc00"}}' });
    expect(surrogate.body).toEqual({ title: ["is not valid UTF-8 text"] });
    const form = { authorization: `Bearer ${apiKey}`, "content-type": "application/x-www-form-urlencoded" };
    const escaped = await send("POST", "/api/v1/resources", { headers: form, body: "resource[title]=Caf%E9&resource[capacity]=2" });
    expect(escaped.status).toBe(400);
    expect(escaped.body).toEqual({ title: ["is not valid UTF-8 text"] });
    const raw = await send("POST", "/api/v1/people", { headers: form, body: bytes("person[name]=Caf", [0xe9]) });
    expect(raw.body).toEqual({ name: ["is not valid UTF-8 text"] });
    const key = await send("POST", "/api/v1/resources", { headers: auth(), body: '{"resource": {"title": "Ok", "\\ud800": 1}}' });
    expect(key.body).toEqual({ base: ["is not valid UTF-8 text"] });
    expect((await titles()).some((t: string) => t.startsWith("Lone") || t.startsWith("Caf"))).toBe(false);
  });

  it("refuses a query parameter that is not UTF-8, and keeps valid text, U+FFFD included", async () => {
    const search = await api.get("/people?search=%FF");
    expect(search.status).toBe(400);
    expect(search.body).toEqual({ search: ["is not valid UTF-8 text"] });
    const fine = await api.post("/resources", { resource: { title: "Café 🙂 \ufffd" } });
    expect(fine.status).toBe(200);
    expect(fine.body.resource.title).toBe("Café 🙂 \ufffd");
    const formFine = await api.form("POST", "/resources", "resource[title]=Caf%C3%A9+%F0%9F%99%82");
    expect(formFine.body.resource.title).toBe("Café 🙂");
  });
});

describe("9. DELETE /providers/{id} answers the removed provider inactive", () => {
  it("answers active: false, and the link is gone", async () => {
    const service = await make.service({ title: "Linked" });
    const provider = await make.provider(room.id, service.id);
    const res = await api.delete(`/providers/${provider.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ provider: { ...provider, active: false } });
    expect((await api.get(`/providers/${provider.id}`)).status).toBe(404);
  });
});
