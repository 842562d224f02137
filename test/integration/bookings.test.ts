// POST, GET and PUT of single bookings on the private API.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";
import { catalogue, env, must, rawBooking } from "../support/bookings";

let api: Client;
let other: Client;
let make: ReturnType<typeof catalogue>;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  make = catalogue(api);
  other = (await newAccount()).api;
});

const OSLO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;
const FULL = { booked_from: ["is not available: the resource is fully booked at this time"] };
const slot = (resourceId: number, from = "2030-01-07 10:00", to = "2030-01-07 11:00") => ({ resource_id: resourceId, booked_from: from, booked_to: to });
const countOn = async (resourceId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ?").bind(resourceId).first<{ n: number }>())!.n;

describe("POST /api/v1/bookings", () => {
  it("creates a confirmed booking and answers every field in the account zone", async () => {
    const resource = await make.resource({ capacity: 2 });
    const service = await make.service();
    const person = await make.person({ email: "kari@example.com" });
    const res = await api.post("/bookings", {
      booking: {
        ...slot(resource.id),
        service_id: service.id,
        person_id: person.id,
        title: "Trim",
        notes: "Short",
        count: 2,
        paid_at: "2030-01-01 09:30",
        external_id: "ext-1",
        gateway_order_number: "ord-1",
        custom_data: { vip: true },
        status: "new",
        state: "cancelled",
        active: false,
        verification_code: "12345",
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      booking: {
        id: expect.any(Number),
        service_id: service.id,
        event_id: null,
        resource_id: resource.id,
        person_id: person.id,
        booked_from: "2030-01-07T10:00:00+01:00",
        booked_to: "2030-01-07T11:00:00+01:00",
        expires_at: null,
        title: "Trim",
        notes: "Short",
        reminder_at: null,
        reminded_at: null,
        paid_at: "2030-01-01T09:30:00+01:00",
        external_id: "ext-1",
        gateway_order_number: "ord-1",
        custom_data: { vip: true },
        state: "confirmed",
        active: true,
        count: 2,
        collection_id: null,
        status: "new",
        verification_code: null,
        created_by: null,
        updated_by: null,
        created_at: expect.stringMatching(OSLO),
        updated_at: expect.stringMatching(OSLO),
        person: expect.objectContaining({ id: person.id, name: "Kari", email: "kari@example.com" }),
        resource: { id: resource.id, title: "Room" },
        service: { id: service.id, title: "Haircut" },
      },
    });
  });

  it("takes form data with bracket names and the extra parameters outside booking", async () => {
    const resource = await make.resource();
    const res = await api.form(
      "POST",
      "/bookings",
      `booking[resource_id]=${resource.id}&booking[booked_from]=2030-01-08 10:00&booking[booked_to]=2030-01-08 11:00&booking[count]=1&confirm=true&add_reminder_sms=1`,
    );
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ state: "confirmed", booked_from: "2030-01-08T10:00:00+01:00", reminder_at: "2030-01-07T12:00:00+01:00" });
  });

  it("answers 400 on each missing attribute", async () => {
    const res = await api.post("/bookings", { booking: { title: "Nothing" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ booked_from: ["can't be blank"], booked_to: ["can't be blank"], resource_id: ["can't be blank"] });
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/bookings", { resource_id: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ booking: [expect.stringContaining('{"booking"')] });
  });

  it("answers 400 on unreadable values and a booking that ends before it starts", async () => {
    const resource = await make.resource();
    const bad = await api.post("/bookings", { booking: { resource_id: "x", booked_from: "tomorrow", booked_to: "2030-02-30 10:00", count: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      resource_id: ["is not an integer"],
      booked_from: ["is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601"],
      booked_to: ["is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601"],
      count: ["must be greater than or equal to 1"],
    });
    const backwards = await api.post("/bookings", { booking: slot(resource.id, "2030-01-07 11:00", "2030-01-07 10:00") });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toEqual({ booked_to: ["must be after booked_from"] });
    expect(await countOn(resource.id)).toBe(0);
  });

  it("answers 400 when the count exceeds the service's booking_capacity", async () => {
    const resource = await make.resource({ capacity: 10 });
    const service = await make.service({ booking_capacity: 2 });
    const res = await api.post("/bookings", { booking: { ...slot(resource.id), service_id: service.id, count: 3 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ count: ["More than maximum count per booking"] });
  });

  it("answers 400 for another tenant's resource, service and person, and creates nothing", async () => {
    const foreignResource = (await must(other.post("/resources", { resource: { title: "Theirs" } }))).resource;
    const foreignService = (await must(other.post("/services", { service: { title: "Theirs" } }))).service;
    const foreignPerson = (await must(other.post("/people", { person: { name: "Theirs" } }))).person;
    const res = await api.post("/bookings", { booking: { ...slot(foreignResource.id), service_id: foreignService.id } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ service_id: ["does not exist"], resource_id: ["does not exist"] });
    const mine = await make.resource();
    const person = await api.post("/bookings", { booking: { ...slot(mine.id), person_id: foreignPerson.id } });
    expect(person.status).toBe(400);
    expect(person.body).toEqual({ person_id: ["does not exist"] });
    expect(await countOn(foreignResource.id)).toBe(0);
    expect(await countOn(mine.id)).toBe(0);
  });

  it("refuses a booking on a full resource with 400 on booked_from, and force-saves with ignore_capacity", async () => {
    const resource = await make.resource();
    await make.booking(slot(resource.id));
    const full = await api.post("/bookings", { booking: slot(resource.id, "2030-01-07 10:30", "2030-01-07 11:30") });
    expect(full.status).toBe(400);
    expect(full.body).toEqual(FULL);
    expect(await countOn(resource.id)).toBe(1);
    const touching = await api.post("/bookings", { booking: slot(resource.id, "2030-01-07 11:00", "2030-01-07 12:00") });
    expect(touching.status).toBe(200);
    const forced = await api.post("/bookings", { booking: slot(resource.id), ignore_capacity: true });
    expect(forced.status).toBe(200);
    expect(forced.body.booking).toMatchObject({ state: "confirmed", active: true });
    expect(await countOn(resource.id)).toBe(3);
  });

  it("assigns the service's first active provider resource with free capacity, in provider order", async () => {
    const first = await make.resource({ title: "First" });
    const second = await make.resource({ title: "Second" });
    const inactive = await make.resource({ title: "Gone" });
    const service = await make.service();
    await make.provider(inactive.id, service.id);
    await api.delete(`/resources/${inactive.id}`);
    await make.provider(first.id, service.id);
    await make.provider(second.id, service.id);
    const times = { service_id: service.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" };
    expect((await make.booking(times)).resource).toEqual({ id: first.id, title: "First" });
    expect((await make.booking(times)).resource).toEqual({ id: second.id, title: "Second" });
    const full = await api.post("/bookings", { booking: times });
    expect(full.status).toBe(400);
    expect(full.body).toEqual(FULL);
  });

  it("answers 400 on resource_id when no active resource provides the service", async () => {
    const service = await make.service();
    const res = await api.post("/bookings", { booking: { service_id: service.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ resource_id: ["can't be assigned: no active resource provides this service"] });
  });

  it("creates a person from person_attributes, and matches an existing one by phone filling only empty attributes", async () => {
    const resource = await make.resource({ capacity: 5 });
    const created = await make.booking({ ...slot(resource.id), person_attributes: { name: "Ola", phone_number: "+4791234567" } });
    expect(created.person).toMatchObject({ name: "Ola", phone_number_formatted: "+4791234567", email: null });
    const matched = await make.booking({
      ...slot(resource.id),
      person_attributes: { name: "Somebody Else", phone_number: "912 34 567", email: "ola@example.com" },
    });
    expect(matched.person_id).toBe(created.person_id);
    expect(matched.person).toMatchObject({ name: "Ola", email: "ola@example.com" });
  });

  it("answers person errors as person plus person_attributes, with no base, and creates nothing", async () => {
    const resource = await make.resource();
    const invalid = await api.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { email: "not-an-email" } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ person: ["is invalid"], person_attributes: { email: ["is not a valid email address"] } });
    const empty = await api.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { city: "Oslo" } } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ person: ["is invalid", "Name, email, national id number or phone number must be given"], person_attributes: {} });
    expect(await countOn(resource.id)).toBe(0);
  });

  it("removes the person it created when the slot turns out to be full", async () => {
    const resource = await make.resource();
    await make.booking(slot(resource.id));
    const res = await api.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { email: "late@example.com" } } });
    expect(res.status).toBe(400);
    expect((await api.get("/people?email=late@example.com")).body).toEqual([]);
  });

  it("starts as awaiting_confirmation with confirm=false when the account confirms manually", async () => {
    const { api: manual } = await newAccount({ confirm_manually: true });
    const resource = (await must(manual.post("/resources", { resource: { title: "R" } }))).resource;
    const res = await manual.post("/bookings", { booking: slot(resource.id), confirm: false });
    expect(res.body.booking).toMatchObject({ state: "awaiting_confirmation", active: true, verification_code: null, expires_at: null });
    const confirmed = await manual.post("/bookings", { booking: slot(resource.id, "2030-01-07 12:00", "2030-01-07 13:00") });
    expect(confirmed.body.booking.state).toBe("confirmed");
  });

  it("needs verification with confirm=false on an SMS account: five-digit code, expires 20 minutes after creation", async () => {
    const { api: sms } = await newAccount({ verification_method: 1 });
    const resource = (await must(sms.post("/resources", { resource: { title: "R" } }))).resource;
    const before = Date.now();
    const res = await sms.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { name: "Ola", phone_number: "+4791234567" } }, confirm: false });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ state: "awaiting_verification", active: true, verification_code: expect.stringMatching(/^\d{5}$/) });
    const expires = Date.parse(res.body.booking.expires_at);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 20 * 60_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 20 * 60_000);
  });

  it("requires a valid phone number for SMS verification, also for an existing person", async () => {
    const { api: sms } = await newAccount({ verification_method: 1 });
    const resource = (await must(sms.post("/resources", { resource: { title: "R" } }))).resource;
    const person = (await must(sms.post("/people", { person: { name: "No phone" } }))).person;
    const missing = await sms.post("/bookings", { booking: { ...slot(resource.id), person_id: person.id }, confirm: false });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ person: ["needs a phone number for SMS verification"], person_attributes: { phone_number: ["can't be blank"] } });
    const invalid = await sms.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { phone_number: "+4700000000" } }, confirm: false });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ person: ["needs a phone number for SMS verification"], person_attributes: { phone_number: ["is not a valid phone number"] } });
    const confirmed = await sms.post("/bookings", { booking: { ...slot(resource.id), person_id: person.id } });
    expect(confirmed.body.booking.state).toBe("confirmed");
  });

  it("requires an email for email verification", async () => {
    const { api: mail } = await newAccount({ verification_method: 2 });
    const resource = (await must(mail.post("/resources", { resource: { title: "R" } }))).resource;
    const res = await mail.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { name: "Ola" } }, confirm: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ person: ["needs an email address for email verification"], person_attributes: { email: ["can't be blank"] } });
  });

  it("records the message parameters on the booking without sending anything", async () => {
    const resource = await make.resource();
    const booking = await make.booking(slot(resource.id), { confirmation_send_email: false, notification_send_sms: true, add_messages: true });
    expect((await rawBooking(booking.id))!.message_flags).toBe(JSON.stringify({ add_messages: true, confirmation_send_email: false, notification_send_sms: true }));
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE booking_id = ?").bind(booking.id).first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it("books an event: times, resource and service come from the event, and its capacity counts", async () => {
    const resource = await make.resource({ title: "Hall" });
    const service = await make.service({ title: "Yoga", booking_type: "attendance" });
    const eventId = await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 3, starts: "2030-01-09 18:00", ends: "2030-01-09 19:30" });
    const booking = await make.booking({ event_id: eventId, count: 2, booked_from: "2030-01-01 00:00", booked_to: "2030-01-01 01:00" });
    expect(booking).toMatchObject({
      event_id: eventId,
      resource_id: resource.id,
      service_id: service.id,
      booked_from: "2030-01-09T18:00:00+01:00",
      booked_to: "2030-01-09T19:30:00+01:00",
      event: { id: eventId, title: "Yoga class" },
      resource: { id: resource.id, title: "Hall" },
    });
    // The event's bookings do not use the resource's capacity of 1.
    expect((await api.post("/bookings", { booking: slot(resource.id, "2030-01-09 18:00", "2030-01-09 19:00") })).status).toBe(200);
    const full = await api.post("/bookings", { booking: { event_id: eventId, count: 2 } });
    expect(full.status).toBe(400);
    expect(full.body).toEqual({ event_id: ["is fully booked"] });
    expect((await api.post("/bookings", { booking: { event_id: eventId } })).status).toBe(200);
  });

  it("answers 400 on event_id for an unknown or deleted event", async () => {
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const gone = await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 3, starts: "2030-01-09 18:00", ends: "2030-01-09 19:00", active: false });
    expect((await api.post("/bookings", { booking: { event_id: gone } })).body).toEqual({ event_id: ["is not open for booking"] });
    expect((await api.post("/bookings", { booking: { event_id: 999999 } })).body).toEqual({ event_id: ["does not exist"] });
  });

  it("reads wall times across DST in the account zone: Oslo's skipped hour and New York's repeated one", async () => {
    const resource = await make.resource();
    const spring = await make.booking(slot(resource.id, "2026-03-29 03:00", "2026-03-29 04:00"));
    expect(spring).toMatchObject({ booked_from: "2026-03-29T03:00:00+02:00", booked_to: "2026-03-29T04:00:00+02:00" });
    const { api: ny } = await newAccount({ time_zone: "America/New_York", country_code: "US" });
    const room = (await must(ny.post("/resources", { resource: { title: "R" } }))).resource;
    // 01:30 happens twice on 2026-11-01; without an offset the first (daylight, -04:00) is meant.
    const first = (await must(ny.post("/bookings", { booking: slot(room.id, "2026-11-01 01:30", "2026-11-01T01:30:00-05:00") }))).booking;
    expect(first).toMatchObject({ booked_from: "2026-11-01T01:30:00-04:00", booked_to: "2026-11-01T01:30:00-05:00" });
    const second = (await must(ny.post("/bookings", { booking: slot(room.id, "2026-11-01T01:30:00-05:00", "2026-11-01 02:30") }))).booking;
    expect(second.booked_from).toBe("2026-11-01T01:30:00-05:00");
    expect((await ny.get(`/bookings/${first.id}`)).body.booking.booked_from).toBe("2026-11-01T01:30:00-04:00");
  });
});

describe("GET /api/v1/bookings/{id}", () => {
  it("answers a booking in any state, and the related objects in full with extended=true", async () => {
    const resource = await make.resource({ title: "Chair" });
    const service = await make.service({ price: 300 });
    const booking = await make.booking({ ...slot(resource.id), service_id: service.id });
    await must(api.delete(`/bookings/${booking.id}`));
    const res = await api.get(`/bookings/${booking.id}`);
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ id: booking.id, state: "deleted", active: false, resource: { id: resource.id, title: "Chair" } });
    const extended = (await api.get(`/bookings/${booking.id}?extended=true`)).body.booking;
    expect(extended.resource).toMatchObject({ id: resource.id, title: "Chair", capacity: 1, opening_hours_mon: ["08:00", "18:00"] });
    expect(extended.service).toMatchObject({ id: service.id, price: "300.0", interval: 60 });
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's id", async () => {
    const resource = await make.resource();
    const booking = await make.booking(slot(resource.id));
    expect((await api.get("/bookings/999999")).status).toBe(404);
    expect((await api.get("/bookings/abc")).status).toBe(404);
    const foreign = await other.get(`/bookings/${booking.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("GET /api/v1/bookings/find_by/external_id/{external_id}", () => {
  it("finds the booking by the client's id, and 404s for an unknown one or another tenant's", async () => {
    const resource = await make.resource();
    const booking = await make.booking({ ...slot(resource.id), external_id: "crm/42 a" });
    const res = await api.get(`/bookings/find_by/external_id/${encodeURIComponent("crm/42 a")}`);
    expect(res.status).toBe(200);
    expect(res.body.booking.id).toBe(booking.id);
    expect((await api.get("/bookings/find_by/external_id/nope")).status).toBe(404);
    expect((await other.get(`/bookings/find_by/external_id/${encodeURIComponent("crm/42 a")}`)).status).toBe(404);
  });
});

describe("PUT /api/v1/bookings/{id}", () => {
  it("updates only the attributes sent", async () => {
    const resource = await make.resource();
    const booking = await make.booking({ ...slot(resource.id), title: "Old", notes: "Keep", custom_data: { a: "1" } });
    const res = await api.put(`/bookings/${booking.id}`, { booking: { title: "New", custom_data: { b: "2" }, status: "arrived", state: "cancelled" } });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({
      title: "New",
      notes: "Keep",
      custom_data: { b: "2" },
      status: "arrived",
      state: "confirmed",
      booked_from: booking.booked_from,
    });
  });

  it("moves a booking to a free time and another resource, and refuses a full one leaving it unchanged", async () => {
    const a = await make.resource({ title: "A" });
    const b = await make.resource({ title: "B" });
    const booking = await make.booking(slot(a.id));
    const blocker = await make.booking(slot(b.id, "2030-01-07 14:00", "2030-01-07 15:00"));
    // Moving within its own slot does not collide with itself.
    const shifted = await api.put(`/bookings/${booking.id}`, { booking: { booked_from: "2030-01-07 10:30", booked_to: "2030-01-07 11:30" } });
    expect(shifted.status).toBe(200);
    const moved = await api.put(`/bookings/${booking.id}`, { booking: { resource_id: b.id, booked_from: "2030-01-07 12:00", booked_to: "2030-01-07 13:00" } });
    expect(moved.body.booking).toMatchObject({ resource: { id: b.id, title: "B" }, booked_from: "2030-01-07T12:00:00+01:00" });
    const full = await api.put(`/bookings/${booking.id}`, { booking: { booked_from: "2030-01-07 14:30", booked_to: "2030-01-07 15:30" } });
    expect(full.status).toBe(400);
    expect(full.body).toEqual(FULL);
    expect((await api.get(`/bookings/${booking.id}`)).body.booking.booked_from).toBe("2030-01-07T12:00:00+01:00");
    const forced = await api.put(`/bookings/${booking.id}`, { booking: { booked_from: "2030-01-07 14:30", booked_to: "2030-01-07 15:30" }, ignore_capacity: true });
    expect(forced.status).toBe(200);
    expect(blocker.id).not.toBe(booking.id);
  });

  it("refuses a larger count than fits, and more than the service allows", async () => {
    const resource = await make.resource({ capacity: 3 });
    const service = await make.service({ booking_capacity: 5 });
    const booking = await make.booking({ ...slot(resource.id), service_id: service.id, count: 2 });
    expect((await api.put(`/bookings/${booking.id}`, { booking: { count: 3 } })).body.booking.count).toBe(3);
    expect((await api.put(`/bookings/${booking.id}`, { booking: { count: 4 } })).body).toEqual(FULL);
    expect((await api.put(`/bookings/${booking.id}`, { booking: { count: 6 } })).body).toEqual({ count: ["More than maximum count per booking"] });
  });

  it("lets an inactive booking be edited without a capacity check: it holds no capacity", async () => {
    const resource = await make.resource();
    const cancelled = await make.booking(slot(resource.id, "2030-01-10 09:00", "2030-01-10 10:00"));
    await must(api.put(`/bookings/${cancelled.id}/cancel`));
    await make.booking(slot(resource.id, "2030-01-10 12:00", "2030-01-10 13:00"));
    const res = await api.put(`/bookings/${cancelled.id}`, { booking: { booked_from: "2030-01-10 12:00", booked_to: "2030-01-10 13:00" } });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ state: "cancelled", booked_from: "2030-01-10T12:00:00+01:00" });
  });

  it("answers 400 on each event-owned attribute of an event booking, but accepts the values it already has", async () => {
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const eventId = await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 5, starts: "2030-01-11 18:00", ends: "2030-01-11 19:00" });
    const booking = await make.booking({ event_id: eventId });
    const res = await api.put(`/bookings/${booking.id}`, {
      booking: { booked_from: "2030-01-11 17:00", booked_to: "2030-01-11 20:00", resource_id: resource.id + 1000, service_id: service.id + 1000 },
    });
    expect(res.status).toBe(400);
    const message = ["can't be changed on an event booking: change the event"];
    expect(res.body).toEqual({ booked_from: message, booked_to: message, resource_id: message, service_id: message });
    const same = await api.put(`/bookings/${booking.id}`, { booking: { booked_from: booking.booked_from, resource_id: resource.id, title: "Front row" } });
    expect(same.status).toBe(200);
    expect(same.body.booking.title).toBe("Front row");
  });

  it("answers 400 on invalid values and changes nothing", async () => {
    const resource = await make.resource();
    const booking = await make.booking({ ...slot(resource.id), title: "Same" });
    const res = await api.put(`/bookings/${booking.id}`, { booking: { title: "Changed", booked_to: "2030-01-07 09:00", resource_id: null } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ booked_to: ["must be after booked_from"], resource_id: ["can't be blank"] });
    expect((await api.get(`/bookings/${booking.id}`)).body.booking.title).toBe("Same");
  });

  it("links another person, clears it with null, and sets the SMS reminder", async () => {
    const resource = await make.resource();
    const booking = await make.booking(slot(resource.id, "2030-03-02 10:00", "2030-03-02 11:00"));
    const person = await make.person({ name: "Per" });
    const linked = await api.put(`/bookings/${booking.id}`, { booking: { person_id: person.id }, add_reminder_sms: true });
    expect(linked.body.booking).toMatchObject({ person_id: person.id, person: { name: "Per" }, reminder_at: "2030-03-01T12:00:00+01:00" });
    const cleared = await api.put(`/bookings/${booking.id}`, { booking: { person_id: null } });
    expect(cleared.body.booking).toMatchObject({ person_id: null, person: null });
  });

  it("answers 404 for an unknown id and another tenant's id, changing nothing", async () => {
    const resource = await make.resource();
    const booking = await make.booking({ ...slot(resource.id), title: "Mine" });
    expect((await api.put("/bookings/999999", { booking: { title: "x" } })).status).toBe(404);
    expect((await other.put(`/bookings/${booking.id}`, { booking: { title: "Hijacked" } })).status).toBe(404);
    expect((await api.get(`/bookings/${booking.id}`)).body.booking.title).toBe("Mine");
  });
});
