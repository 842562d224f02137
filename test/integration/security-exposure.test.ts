// What the booking site (no key) lets anyone read: active services without message templates,
// slots without people, its own booking answer without private fields (and, with that booking's
// token, that booking again), and nothing else. Every
// route mounted on the site is checked here; a new one without a check fails the suite.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, send, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { settledMessagesOf, uniquePhone } from "../support/messages";
import { mcpClient } from "../support/mcp";
import { mountedRoutes } from "../support/security";

const HIDDEN = "HIDDENMARK";
const DAY = "2030-01-07";

let api: Client;
let site: ReturnType<typeof publicSite>;
let ids: Record<string, number>;
let person: any;

beforeAll(async () => {
  const created = await newAccount({ verification_method: 1 });
  api = created.api;
  site = publicSite(created.account.subdomain);
  const make = catalogue(api);
  const resource = await make.resource({ title: "Room" });
  const service = await make.service({ title: "Cut", sms_verification: `${HIDDEN} {{ code }}`, mail_confirmation: `${HIDDEN} mail`, sms_reminder: `${HIDDEN} remind` });
  const retired = await make.service({ title: `${HIDDEN} retired` });
  await must(api.delete(`/services/${retired.id}`));
  const attendance = await make.service({ title: "Class", booking_type: "attendance" });
  await make.provider(resource.id, service.id);
  await make.provider(resource.id, retired.id);
  person = await make.person({
    name: "Ann",
    email: "ann@example.com",
    phone_number: uniquePhone(),
    notes: `${HIDDEN} notes`,
    national_id_no: `${HIDDEN}-id`,
    external_id: `${HIDDEN}-ext`,
    custom_data: { secret: HIDDEN },
  });
  const privateBooking = await make.booking({
    resource_id: resource.id,
    service_id: service.id,
    person_id: person.id,
    booked_from: `${DAY} 09:00`,
    booked_to: `${DAY} 10:00`,
    notes: `${HIDDEN} booking`,
    title: `${HIDDEN} title`,
  });
  const published = await make.event({
    resourceId: resource.id,
    serviceId: attendance.id,
    capacity: 3,
    starts: `${DAY} 12:00`,
    ends: `${DAY} 13:00`,
    title: "Open class",
  });
  const unpublished = await make.event({
    resourceId: resource.id,
    serviceId: attendance.id,
    capacity: 3,
    starts: `${DAY} 15:00`,
    ends: `${DAY} 16:00`,
    title: `${HIDDEN} private class`,
    published: false,
  });
  await must(api.post("/web_hooks", { web_hook: { target_url: "https://hooks.example.com/x", event: "*", active: false } }));
  ids = { privateBooking: privateBooking.id, resource: resource.id, service: service.id, retired: retired.id, attendance: attendance.id, published, unpublished };
});

const SERVICE_KEYS = [
  "id",
  "title",
  "description",
  "active",
  "booking_capacity",
  "day_booking_specify_time",
  "has_day_booking",
  "interval",
  "max_slots",
  "price",
  "same_day",
  "template",
  "interval_rounding",
  "booking_type",
  "booking_type_id",
  "custom_data",
  "booking_form",
  "created_at",
  "updated_at",
].sort();
const SLOT_KEYS = ["timestamp", "timestamp_end", "formatted_timestamp", "formatted_timestamp_end", "free", "available_resources", "maximum_capacity"].sort();
const HOLD_KEYS = ["id", "service_id", "resource_id", "event_id", "booked_from", "booked_to", "count", "expires_at", "ended", "booking_id", "created_at"].sort();
const PUBLIC_BOOKING_KEYS = [
  "id",
  "service_id",
  "event_id",
  "resource_id",
  "person_id",
  "booked_from",
  "booked_to",
  "expires_at",
  "title",
  "state",
  "active",
  "count",
  "created_at",
  "updated_at",
  "resource",
  "service",
].sort();
const VISITOR_PERSON_KEYS = [
  "id",
  "name",
  "email",
  "phone_number",
  "phonenumber",
  "phone_number_formatted",
  "date_of_birth",
  "street",
  "city",
  "postal_code",
  "state",
  "country_code",
  "parent_id",
  "active",
  "created_at",
  "updated_at",
].sort();

/** Each route the site mounts, and the test below that checks its answers. */
const CHECKED_SITE_ROUTES = [
  "GET /services",
  "GET /services/:id",
  "GET /services/:id/slots",
  "GET /services/:id/next_available_date",
  "GET /services/:id/available_dates",
  "POST /bookings",
  "POST /people/perishable_token/send",
  "POST /people/perishable_token/verify",
  "GET /bookings/:id",
  "PUT /bookings/:id/verify_code",
  "PUT /bookings/:id/cancel",
  "PUT /bookings/:id/move",
  "POST /bookings/:id/checkout",
  "GET /bookings/:id/export",
  "POST /slots/holds",
  "GET /slots/holds/:id",
  "DELETE /slots/holds/:id",
  "POST /waitlist",
  "GET /waitlist/:id",
  "DELETE /waitlist/:id",
  "POST /waitlist/:id/accept",
  "GET /",
  "GET /booking-page.js",
  "GET /booking-page.css",
  "GET /widget.js",
  "GET /health",
  "GET /favicon.ico",
  "GET /calendar/:file",
  "GET /calendar/bookings/:file",
  "POST /mcp",
].sort();

describe("the booking site's route table", () => {
  it("mounts exactly the routes whose answers are checked here", () => {
    const mounted = mountedRoutes("/")
      .filter((r) => !/^\/(api|admin)\//.test(r.path))
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(mounted).toEqual(CHECKED_SITE_ROUTES);
  });

  it("answers /health with its status only, no account data", async () => {
    expect(await site.get("/health")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("answers 404 for every private listing or object asked for without a key", async () => {
    for (const path of [
      "/bookings/1",
      "/people",
      "/people/1",
      "/events",
      "/events/1",
      "/resources",
      "/providers",
      "/categories",
      "/client",
      "/client/users",
      "/web_hooks",
      "/messages",
      "/services/appointments",
      "/bookings/all",
      "/people/1/bookings",
    ]) {
      const res = await site.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it("answers GET /bookings with 405: the site only takes bookings (POST), it never lists them", async () => {
    const res = await site.get("/bookings");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});

describe("calendar files on the site (docs/decisions/calendar-feeds.md)", () => {
  it("opens a feed by its secret token only: no token, a guessed one or a foreign file name is the JSON 404", async () => {
    for (const path of ["/calendar/", "/calendar/x.ics", `/calendar/cal_${"A".repeat(43)}.ics`, `/calendar/cal_${"A".repeat(43)}`, "/calendar/bookings/"]) {
      const res = await site.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    const url = new URL((await must(api.post("/calendar_feeds", {}))).calendar_feed.url);
    const feed = await site.get(url.pathname);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("referrer-policy")).toBe("no-referrer");
    expect(feed.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("opens a booking's file only with its signature: none, a wrong one or another booking's is the JSON 404", async () => {
    for (const query of ["", "?signature=", "?signature=abc", `?signature=${"A".repeat(43)}`]) {
      const res = await site.get(`/calendar/bookings/${ids.privateBooking}.ics${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 404 });
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
});

describe("GET /services and /services/{id} on the site", () => {
  it("lists active services only, without message templates or account ids", async () => {
    const res = await site.get("/services");
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.service.id)).toEqual([ids.service, ids.attendance]);
    for (const { service } of res.body) expect(Object.keys(service).sort()).toEqual(SERVICE_KEYS);
    expect(JSON.stringify(res.body)).not.toContain(HIDDEN);
  });

  it("shows an active service without templates and answers 404 for a retired one", async () => {
    const one = await site.get(`/services/${ids.service}`);
    expect(Object.keys(one.body.service).sort()).toEqual(SERVICE_KEYS);
    expect(JSON.stringify(one.body)).not.toContain(HIDDEN);
    expect((await site.get(`/services/${ids.retired}`)).status).toBe(404);
  });
});

describe("slots, next_available_date and available_dates on the site", () => {
  it("answers slots that carry times and counts only, never the booking or person that fills one", async () => {
    const res = await site.get(`/services/${ids.service}/slots?from=${DAY}&to=${DAY}`);
    expect(res.status).toBe(200);
    const taken = res.body.find((e: any) => e.slot.timestamp === `${DAY}T09:00:00+01:00`).slot;
    expect(taken).toMatchObject({ free: 0, available_resources: [] });
    for (const { slot } of res.body) expect(Object.keys(slot).sort()).toEqual(SLOT_KEYS);
    expect(JSON.stringify(res.body)).not.toContain(HIDDEN);
  });

  it("lists published events only as attendance slots", async () => {
    const res = await site.get(`/services/${ids.attendance}/slots?from=${DAY}&to=${DAY}`);
    expect(res.body.map((e: any) => e.slot.timestamp)).toEqual([`${DAY}T12:00:00+01:00`]);
    expect(JSON.stringify(res.body)).not.toContain(HIDDEN);
  });

  it("answers 404 for a retired service's slots and dates", async () => {
    for (const path of ["slots", "next_available_date", "available_dates"]) {
      const res = await site.get(`/services/${ids.retired}/${path}?from=${DAY}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });

  it("answers dates only from next_available_date and available_dates", async () => {
    const next = await site.get(`/services/${ids.service}/next_available_date?from=${DAY}`);
    expect(next.body).toEqual([{ available_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }]);
    const dates = await site.get(`/services/${ids.service}/available_dates?from=${DAY}`);
    for (const e of dates.body) expect(e).toEqual({ available_date: { date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) } });
  });
});

describe("POST /bookings on the site", () => {
  it("answers a visitor matched to a stored person with only its id: not the person, the code or any private field", async () => {
    const res = await site.post("/bookings", {
      booking: {
        service_id: ids.service,
        booked_from: `${DAY} 11:00`,
        booked_to: `${DAY} 12:00`,
        person_attributes: { email: "ann@example.com", phone_number: person.phone_number },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.booking).sort()).toEqual(PUBLIC_BOOKING_KEYS);
    expect(res.body.booking).toMatchObject({ state: "awaiting_verification", resource: { id: ids.resource, title: "Room" }, service: { id: ids.service, title: "Cut" } });
    const stored = await rawBooking(res.body.booking.id);
    expect(stored!.person_id).toBe(person.id);
    expect(res.body.booking.person_id).toBe(person.id);
    expect(stored!.verification_code).toMatch(/^\d{5}$/);
    const text = JSON.stringify(res.body);
    for (const secret of [HIDDEN, stored!.verification_code, "ann@example.com", person.phone_number]) expect(text).not.toContain(secret);
  });

  it("answers an event booking with the event in brief and nothing of its other attendees", async () => {
    const res = await site.post("/bookings", { booking: { event_id: ids.published, person_attributes: { name: "Visitor", phone_number: uniquePhone() } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.booking).sort()).toEqual([...PUBLIC_BOOKING_KEYS, "event"].sort());
    expect(res.body.booking.event).toEqual({ id: ids.published, title: "Open class" });
  });

  it("refuses a booking on an unpublished event as it would an unknown one", async () => {
    const res = await site.post("/bookings", { booking: { event_id: ids.unpublished, person_attributes: { name: "Visitor", phone_number: uniquePhone() } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain(HIDDEN);
  });
});

describe("the visitor's own booking on the site (GET, verify_code, move, cancel with X-Booking-Token)", () => {
  it("answers POST with the booking and its token only, and the token opens the same public fields, never the code", async () => {
    const phone = uniquePhone();
    const created = await site.post("/bookings", {
      booking: {
        service_id: ids.service,
        booked_from: `${DAY} 14:00`,
        booked_to: `${DAY} 15:00`,
        person_attributes: { name: "Visitor", email: "visitor@example.com", phone_number: phone },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(["booking", "booking_token"]);
    const { id } = created.body.booking;
    const headers = { "x-booking-token": created.body.booking_token };
    const code = (await rawBooking(id))!.verification_code;
    const shown = await site.get(`/bookings/${id}`, headers);
    expect(Object.keys(shown.body.booking).sort()).toEqual(PUBLIC_BOOKING_KEYS);
    const wrong = await site.put(`/bookings/${id}/verify_code`, { verification_code: code === "00000" ? "11111" : "00000" }, headers);
    expect(wrong.body).toEqual({ verification_code: ["is invalid"] });
    const verified = await site.put(`/bookings/${id}/verify_code`, { verification_code: code }, headers);
    expect(Object.keys(verified.body.booking).sort()).toEqual(PUBLIC_BOOKING_KEYS);
    const moved = await site.put(`/bookings/${id}/move`, { booking: { booked_from: `${DAY} 15:00`, booked_to: `${DAY} 16:00` } }, headers);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(Object.keys(moved.body.booking).sort()).toEqual(PUBLIC_BOOKING_KEYS);
    const cancelled = await site.put(`/bookings/${id}/cancel`, {}, headers);
    expect(cancelled.body.booking.state).toBe("cancelled");
    for (const res of [shown, verified, moved, cancelled]) {
      const text = JSON.stringify(res.body);
      for (const secret of [HIDDEN, code, "visitor@example.com", phone, created.body.booking_token]) expect(text).not.toContain(secret);
    }
  });

  it("exports with the token that booking's rows only: no code, hash, stored person, other booking or template text", async () => {
    const phone = uniquePhone();
    const created = await site.post("/bookings", {
      booking: {
        service_id: ids.service,
        booked_from: `${DAY} 16:00`,
        booked_to: `${DAY} 17:00`,
        person_attributes: { name: "Ann", email: "ann@example.com", phone_number: phone },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { id } = created.body.booking;
    const row = (await rawBooking(id))!;
    await settledMessagesOf(api, `?booking_id=${id}`);
    const res = await site.get(`/bookings/${id}/export`, { "x-booking-token": created.body.booking_token });
    expect(res.status).toBe(200);
    const data = res.body.personal_data;
    expect(data.bookings.map((b: any) => b.id)).toEqual([id]);
    expect(data.messages.length).toBeGreaterThan(0);
    expect(data.messages.filter((m: any) => m.kind === "verification").map((m: any) => [m.subject, m.body])).toEqual([[null, null]]);
    expect(data).not.toHaveProperty("person");
    const text = JSON.stringify(res.body);
    for (const secret of [HIDDEN, row.verification_code, row.public_token_hash, created.body.booking_token]) expect(text).not.toContain(secret);
    expect(text).not.toContain('"national_id_no"');
  });

  it("answers 404 for a booking made with the private key, which has no token, whatever token is sent", async () => {
    const privateBooking = (await api.get(`/bookings/${ids.privateBooking}`)).body.booking;
    expect(privateBooking.title).toBe(`${HIDDEN} title`);
    for (const token of ["", "null", "x".repeat(43)]) {
      for (const res of [
        await site.get(`/bookings/${privateBooking.id}`, { "x-booking-token": token }),
        await site.put(`/bookings/${privateBooking.id}/cancel`, {}, { "x-booking-token": token }),
        await site.put(`/bookings/${privateBooking.id}/move`, { booking: { booked_from: `${DAY} 16:00`, booked_to: `${DAY} 17:00` } }, { "x-booking-token": token }),
        await site.request("POST", `/bookings/${privateBooking.id}/checkout`, { "x-booking-token": token }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: expect.any(String) });
      }
    }
    expect((await api.get(`/bookings/${privateBooking.id}`)).body.booking.state).toBe("confirmed");
  });
});

describe("the booking page and its assets on the site", () => {
  it("renders active services, dates and slots only: no retired service, template, booking or person", async () => {
    for (const query of [
      "",
      `?service=${ids.service}&month=2030-01`,
      `?service=${ids.service}&day=${DAY}`,
      `?service=${ids.attendance}&day=${DAY}`,
      `?service=${ids.retired}`,
      `?booking=${ids.privateBooking}`,
      `?booking=${ids.privateBooking}&token=x`,
    ]) {
      const res = await site.get(`/${query}`);
      expect({ query, type: res.headers.get("content-type") }).toEqual({ query, type: expect.stringContaining("text/html") });
      for (const secret of [HIDDEN, "Ann", "ann@example.com", person.phone_number])
        expect({ query, leaked: (res.body as string).includes(secret) }).toEqual({ query, leaked: false });
    }
  });

  it("serves its script and stylesheet, the widget's script and the icon as fixed content, the same for any query", async () => {
    for (const path of ["/booking-page.js", "/booking-page.css", "/widget.js", "/favicon.ico"]) {
      const plain = await site.get(path);
      expect({ path, status: plain.status }).toEqual({ path, status: 200 });
      expect((await site.get(`${path}?x=${HIDDEN}`)).body).toBe(plain.body);
      expect(plain.body).not.toContain(HIDDEN);
    }
  });
});

describe("slot holds on the site (X-Hold-Secret)", () => {
  it("answers a hold with its times, seats and expiry and the secret once; the secret alone opens it again", async () => {
    await must(api.put("/client", { client: { slot_holds_enabled: true } }));
    const hold = (payload: unknown) =>
      send("POST", `${site.origin}/slots/holds`, {
        headers: { "content-type": "application/json", "cf-connecting-ip": "192.0.2.77" },
        body: JSON.stringify(payload),
      });
    const res = await hold({ slot_hold: { service_id: ids.service, booked_from: `${DAY} 10:00`, booked_to: `${DAY} 11:00` } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["hold_secret", "slot_hold"]);
    expect(Object.keys(res.body.slot_hold).sort()).toEqual(HOLD_KEYS);
    const id = res.body.slot_hold.id;
    // Another visitor's hold of the same site: its secret does not open this one.
    const other = await hold({ slot_hold: { service_id: ids.service, booked_from: `${DAY} 14:00`, booked_to: `${DAY} 15:00` } });
    for (const secret of [undefined, "", other.body.hold_secret]) {
      for (const method of ["GET", "DELETE"]) {
        const tried = await site.request(method, `/slots/holds/${id}`, secret === undefined ? {} : { "x-hold-secret": secret });
        expect({ method, secret, status: tried.status }).toEqual({ method, secret, status: 404 });
        expect(tried.body).toEqual({ error: expect.any(String) });
      }
    }
    const opened = await site.request("GET", `/slots/holds/${id}`, { "x-hold-secret": res.body.hold_secret });
    expect(opened.body).toEqual({ slot_hold: res.body.slot_hold });
    // Holding is a visitor's convenience, not a way to read bookings: a full time says only that it is full.
    const full = await hold({ slot_hold: { service_id: ids.service, booked_from: `${DAY} 09:00`, booked_to: `${DAY} 10:00` } });
    expect(full.status).toBe(400);
    expect(JSON.stringify(full.body)).not.toContain(HIDDEN);
  });
});

describe("the waitlist on the site (X-Waitlist-Token)", () => {
  it("answers a place with the visitor's own attributes and the token once; only the token opens it, and accept needs an offer", async () => {
    await must(api.put("/client", { client: { waitlist_enabled: true } }));
    const join = (name: string) =>
      send("POST", `${site.origin}/waitlist`, {
        headers: { "content-type": "application/json", "cf-connecting-ip": "192.0.2.78" },
        body: JSON.stringify({
          waitlist_entry: {
            service_id: ids.service,
            booked_from: `${DAY} 09:00`,
            booked_to: `${DAY} 10:00`,
            person_attributes: { name, email: `${name.toLowerCase()}@example.com` },
          },
        }),
      });
    const res = await join("Wenche");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["waitlist_entry", "waitlist_token"]);
    expect(res.body.waitlist_entry.person_attributes).toEqual({ name: "Wenche", email: "wenche@example.com" });
    expect(JSON.stringify(res.body)).not.toContain(HIDDEN);
    const id = res.body.waitlist_entry.id;
    const other = await join("Vidar");
    for (const token of [undefined, "", other.body.waitlist_token]) {
      for (const [method, path] of [
        ["GET", `/waitlist/${id}`],
        ["DELETE", `/waitlist/${id}`],
        ["POST", `/waitlist/${id}/accept`],
      ]) {
        const tried = await site.request(method, path, token === undefined ? {} : { "x-waitlist-token": token });
        expect({ method, path, status: tried.status }).toEqual({ method, path, status: 404 });
      }
    }
    const opened = await site.request("GET", `/waitlist/${id}`, { "x-waitlist-token": res.body.waitlist_token });
    expect(opened.body).toEqual({ waitlist_entry: res.body.waitlist_entry });
    const early = await site.request("POST", `/waitlist/${id}/accept`, { "x-waitlist-token": res.body.waitlist_token });
    expect([early.status, early.body]).toEqual([400, { waitlist_entry: ["is waiting, not offered"] }]);
  });
});

describe("perishable tokens on the site", () => {
  it("answers the number and expiry on send, never the code", async () => {
    const res = await site.post("/people/perishable_token/send", { person: { phone_number: person.phone_number } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ perishable_token: { phone_number: person.phone_number_formatted, expires_at: expect.any(String) } });
  });

  it("answers a wrong code with 400 and no person, and the right code with the visitor's own contact data only", async () => {
    const [latest] = await settledMessagesOf(api, "?kind=token");
    const code = /(\d{5})/.exec(latest.body)![1];
    const wrong = await site.post("/people/perishable_token/verify", {
      perishable_token: code === "00000" ? "11111" : "00000",
      person: { phone_number: person.phone_number },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ perishable_token: ["is invalid"] });
    const right = await site.post("/people/perishable_token/verify", { perishable_token: code, person: { phone_number: person.phone_number } });
    expect(right.status).toBe(200);
    expect(Object.keys(right.body.person).sort()).toEqual(VISITOR_PERSON_KEYS);
    expect(JSON.stringify(right.body)).not.toContain(HIDDEN);
  });

  it("answers an empty person for a proven number nobody in the account has", async () => {
    const phone = uniquePhone();
    await must(site.post("/people/perishable_token/send", { person: { phone_number: phone } }));
    const [latest] = await settledMessagesOf(api, "?kind=token");
    const code = /(\d{5})/.exec(latest.body)![1];
    const res = await site.post("/people/perishable_token/verify", { perishable_token: code, person: { phone_number: phone } });
    expect(res.body).toEqual({ person: {} });
  });
});

describe("the MCP tools on the site (POST /mcp)", () => {
  it("offer a visitor's tools only, and answer what the site's REST routes answer: no template, person, code or private booking", async () => {
    const mcp = await mcpClient(`${site.origin}/mcp`);
    // This account holds times (the slot holds block above enables them), so its site offers holds too.
    expect(mcp.tools.map((t) => t.name).sort()).toEqual([
      "book",
      "cancel_booking",
      "find_available_dates",
      "find_times",
      "hold_time",
      "list_services",
      "move_booking",
      "release_hold",
      "show_booking",
      "verify_booking",
    ]);
    const { services } = await mcp.call("list_services");
    expect(services.map((s: any) => s.id).sort()).toEqual([ids.service, ids.attendance].sort());
    for (const service of services) expect(Object.keys(service).sort()).toEqual(SERVICE_KEYS);
    const { slots } = await mcp.call("find_times", { service_id: ids.service, from: DAY });
    expect(slots.length).toBeGreaterThan(0);
    for (const slot of slots) expect(Object.keys(slot).sort()).toEqual(SLOT_KEYS);
    expect((await mcp.refusal("find_times", { service_id: ids.retired, from: DAY })).error.status).toBe(404);

    const free = slots.at(-1);
    const booked = await mcp.call("book", {
      booking: {
        service_id: ids.service,
        booked_from: free.timestamp,
        booked_to: free.timestamp_end,
        person_attributes: { name: "Vis", phone_number: person.phone_number },
      },
    });
    expect(Object.keys(booked.booking).sort()).toEqual(PUBLIC_BOOKING_KEYS);
    const { verification_code } = (await rawBooking(booked.booking.id))!;
    const everything = JSON.stringify([services, slots, booked]);
    expect(everything).not.toContain(HIDDEN);
    expect(everything).not.toContain(verification_code);
    expect(everything).not.toContain(person.email);

    // The key's booking has no token: none opens it, the visitor's own token included.
    for (const tool of ["show_booking", "cancel_booking", "move_booking"]) {
      const refused = await mcp.refusal(tool, {
        booking_id: ids.privateBooking,
        booking_token: booked.booking_token,
        booking: { booked_from: `${DAY} 16:00`, booked_to: `${DAY} 17:00` },
      });
      expect(refused.error).toEqual({ status: 404, error: { error: "The booking was not found." } });
    }
    expect((await rawBooking(ids.privateBooking))!.state).toBe("confirmed");
  });
});

describe("another account's ids on this account's site", () => {
  it("answers 404 for another account's service, its slots and dates", async () => {
    const other = await newAccount();
    const theirs = await catalogue(other.api).service({ title: `${HIDDEN} theirs` });
    for (const path of ["", "/slots", "/next_available_date", "/available_dates"]) {
      const res = await site.get(`/services/${theirs.id}${path}?from=${DAY}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    const booking = await send("POST", `http://${other.account.subdomain}.localhost/bookings`, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        booking: { service_id: ids.service, booked_from: `${DAY} 13:00`, booked_to: `${DAY} 14:00`, person_attributes: { name: "X", phone_number: uniquePhone() } },
      }),
    });
    expect(booking.status).toBe(400);
    expect(booking.body).toHaveProperty("service_id");
  });
});
