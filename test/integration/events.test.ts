import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";
import { must } from "../support/bookings";

let api: Client;
let other: Client;
let resource: { id: number };
let service: { id: number };
let otherResource: { id: number };

beforeAll(async () => {
  api = (await newAccount()).api;
  other = (await newAccount()).api;
  resource = (await must(api.post("/resources", { resource: { title: "Hall" } }))).resource;
  service = (await must(api.post("/services", { service: { title: "Yoga", booking_type: "attendance" } }))).service;
  otherResource = (await must(other.post("/resources", { resource: { title: "Elsewhere" } }))).resource;
});

const createEvent = async (attributes: Record<string, unknown> = {}, client: Client = api) =>
  (
    await must(
      client.post("/events", {
        event: { resource_id: resource.id, service_id: service.id, capacity: 10, starts_at: "2030-01-09 18:00", ends_at: "2030-01-09 19:30", ...attributes },
      }),
    )
  ).event;

const book = async (eventId: number, extra: Record<string, unknown> = {}, client: Client = api) =>
  (await must(client.post("/bookings", { booking: { event_id: eventId, ...extra } }))).booking;

const readEvent = async (id: number) => (await must(api.get(`/events/${id}`))).event;

describe("POST /api/v1/events", () => {
  it("creates an event with defaults, times in the account zone and full availability", async () => {
    const event = await createEvent({ title: "Morning flow", custom_data: { level: "2", open: "true" } });
    expect(event).toEqual({
      id: expect.any(Number),
      resource_id: resource.id,
      service_id: service.id,
      published: true,
      capacity: 10,
      title: "Morning flow",
      description: null,
      collection_id: null,
      active: true,
      starts_at: "2030-01-09T18:00:00+01:00",
      ends_at: "2030-01-09T19:30:00+01:00",
      availability: 10,
      custom_data: { level: "2", open: true },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
      updated_at: expect.any(String),
    });
  });

  it("takes form data with bracket names", async () => {
    const res = await api.form(
      "POST",
      "/events",
      `event[resource_id]=${resource.id}&event[service_id]=${service.id}&event[capacity]=4&event[published]=false` +
        "&event[starts_at]=2030-02-01 10:00&event[ends_at]=2030-02-01 11:00&event[title]=Form&event[custom_data][room]=B",
    );
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({
      capacity: 4,
      availability: 4,
      published: false,
      title: "Form",
      custom_data: { room: "B" },
      starts_at: "2030-02-01T10:00:00+01:00",
      ends_at: "2030-02-01T11:00:00+01:00",
    });
  });

  it("reads wall times across DST: 2026-03-29 is +02:00 in Oslo, the day before +01:00", async () => {
    const summer = await createEvent({ starts_at: "2026-03-29 10:00", ends_at: "2026-03-29 11:00" });
    const winter = await createEvent({ starts_at: "2026-03-28 10:00", ends_at: "2026-03-28 11:00" });
    expect(summer).toMatchObject({ starts_at: "2026-03-29T10:00:00+02:00", ends_at: "2026-03-29T11:00:00+02:00" });
    expect(winter).toMatchObject({ starts_at: "2026-03-28T10:00:00+01:00", ends_at: "2026-03-28T11:00:00+01:00" });
    expect((await readEvent(summer.id)).starts_at).toBe("2026-03-29T10:00:00+02:00");
  });

  it("answers 400 with can't be blank for every missing required attribute", async () => {
    const res = await api.post("/events", { event: { title: "Nothing else" } });
    expect(res.status).toBe(400);
    const blank = ["can't be blank"];
    expect(res.body).toEqual({ resource_id: blank, service_id: blank, capacity: blank, starts_at: blank, ends_at: blank });
  });

  it("answers 400 keyed by attribute for each invalid value", async () => {
    const res = await api.post("/events", {
      event: {
        resource_id: "abc",
        service_id: 0,
        capacity: 0,
        starts_at: "tomorrow",
        ends_at: "2030-13-01 10:00",
        published: "maybe",
        custom_data: { nested: { no: 1 } },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      resource_id: ["is not an integer"],
      service_id: ["must be greater than or equal to 1"],
      capacity: ["must be greater than or equal to 1"],
      starts_at: ["is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601"],
      ends_at: ["is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601"],
      published: ["must be true or false"],
      custom_data: ["value of nested must be text, a number or a boolean"],
    });
  });

  it("answers 400 on ends_at when it is not after starts_at", async () => {
    for (const ends_at of ["2030-01-09 18:00", "2030-01-09 17:00"]) {
      const res = await api.post("/events", { event: { resource_id: resource.id, service_id: service.id, capacity: 1, starts_at: "2030-01-09 18:00", ends_at } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ ends_at: ["must be after starts_at"] });
    }
  });

  it("answers 400 on resource_id and service_id that are unknown, another tenant's, inactive or not for attendance", async () => {
    const base = { capacity: 1, starts_at: "2030-01-09 18:00", ends_at: "2030-01-09 19:00" };
    const unknown = await api.post("/events", { event: { ...base, resource_id: otherResource.id, service_id: 999999 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ resource_id: ["does not exist"], service_id: ["does not exist"] });

    const appointment = (await must(api.post("/services", { service: { title: "Haircut" } }))).service;
    const closed = (await must(api.post("/resources", { resource: { title: "Closed" } }))).resource;
    await must(api.delete(`/resources/${closed.id}`));
    const wrong = await api.post("/events", { event: { ...base, resource_id: closed.id, service_id: appointment.id } });
    expect(wrong.status).toBe(400);
    // Any active service will do (docs/decisions/compat.md): only the resource is at fault here.
    expect(wrong.body).toEqual({ resource_id: ["is not active"] });

    const retired = (await must(api.post("/services", { service: { title: "Old", booking_type: "attendance" } }))).service;
    await must(api.delete(`/services/${retired.id}`));
    const inactive = await api.post("/events", { event: { ...base, resource_id: resource.id, service_id: retired.id } });
    expect(inactive.body).toEqual({ service_id: ["is not active"] });
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/events", { capacity: 3 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ event: [expect.stringContaining('{"event"')] });
  });

  it("ignores read-only and unknown attributes", async () => {
    const event = await createEvent({ id: 999999, active: false, collection_id: "c-1", availability: 0, account_id: 1, colour: "red" });
    expect(event).toMatchObject({ active: true, collection_id: null, availability: 10 });
    expect(event.id).not.toBe(999999);
    expect(event).not.toHaveProperty("colour");
    expect(event).not.toHaveProperty("account_id");
  });
});

describe("GET /api/v1/events/{id}", () => {
  it("answers a deleted event with active=false", async () => {
    const event = await createEvent();
    await must(api.delete(`/events/${event.id}`));
    const res = await api.get(`/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ id: event.id, active: false });
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's id", async () => {
    const event = await createEvent();
    expect((await api.get("/events/999999")).status).toBe(404);
    expect((await api.get("/events/abc")).status).toBe(404);
    const foreign = await other.get(`/events/${event.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("GET /api/v1/events", () => {
  /** A fresh tenant so the list holds exactly the events a test makes. */
  async function freshCatalogue() {
    const { api: client } = await newAccount();
    const room = (await must(client.post("/resources", { resource: { title: "Room" } }))).resource;
    const stage = (await must(client.post("/resources", { resource: { title: "Stage" } }))).resource;
    const yoga = (await must(client.post("/services", { service: { title: "Yoga", booking_type: "attendance" } }))).service;
    const dance = (await must(client.post("/services", { service: { title: "Dance", booking_type: "attendance" } }))).service;
    const make = async (starts: string, ends: string, attributes: Record<string, unknown> = {}) =>
      (await must(client.post("/events", { event: { resource_id: room.id, service_id: yoga.id, capacity: 3, starts_at: starts, ends_at: ends, ...attributes } }))).event;
    return { client, room, stage, yoga, dance, make };
  }
  const ids = (body: any[]) => body.map((e) => e.event.id);

  it("lists active events wrapped as event, oldest start first; order=starts_at_desc reverses", async () => {
    const { client, make } = await freshCatalogue();
    const late = await make("2030-03-03 10:00", "2030-03-03 11:00");
    const early = await make("2030-03-01 10:00", "2030-03-01 11:00");
    const sameStart = await make("2030-03-01 10:00", "2030-03-01 12:00");
    const gone = await make("2030-03-02 10:00", "2030-03-02 11:00");
    await must(client.delete(`/events/${gone.id}`));
    const res = await client.get("/events");
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({ event: expect.objectContaining({ id: early.id, availability: 3 }) });
    expect(ids(res.body)).toEqual([early.id, sameStart.id, late.id]);
    expect(ids((await client.get("/events?order=starts_at_desc")).body)).toEqual([late.id, sameStart.id, early.id]);
  });

  it("filters by service_id, resource_id (one or several), start, end and since", async () => {
    const { client, stage, dance, make } = await freshCatalogue();
    const a = await make("2030-04-01 10:00", "2030-04-01 11:00");
    const b = await make("2030-04-02 10:00", "2030-04-02 11:00", { service_id: dance.id });
    const c = await make("2030-04-03 10:00", "2030-04-03 11:00", { resource_id: stage.id });
    // updated_at never moves back within an account (docs/decisions/sync.md): the later changes are stamped ahead instead.
    await env.DB.prepare("UPDATE events SET updated_at = ? WHERE id IN (?, ?)").bind(Date.parse("2100-01-01T00:00:00Z"), b.id, c.id).run();
    expect(ids((await client.get(`/events?service_id=${dance.id}`)).body)).toEqual([b.id]);
    expect(ids((await client.get(`/events?resource_id=${stage.id}`)).body)).toEqual([c.id]);
    expect(ids((await client.get(`/events?resource_id[]=${stage.id}&resource_id[]=${a.resource_id}`)).body)).toEqual([a.id, b.id, c.id]);
    expect(ids((await client.get("/events?start=2030-04-02 10:00")).body)).toEqual([b.id, c.id]);
    expect(ids((await client.get("/events?end=2030-04-02T11:00:00%2B02:00")).body)).toEqual([a.id, b.id]);
    expect(ids((await client.get("/events?since=2099-12-31")).body)).toEqual([b.id, c.id]);
  });

  it("pages by 50 with Link and count headers", async () => {
    const { client, room, yoga } = await freshCatalogue();
    for (let i = 0; i < 51; i += 1) {
      const day = String(1 + (i % 28)).padStart(2, "0");
      await must(
        client.post("/events", { event: { resource_id: room.id, service_id: yoga.id, capacity: 1, starts_at: `2030-05-${day} 10:00`, ends_at: `2030-05-${day} 11:00` } }),
      );
    }
    const first = await client.get("/events");
    expect(first.body).toHaveLength(50);
    expect(first.headers.get("total-count")).toBe("51");
    expect(first.headers.get("total-pages")).toBe("2");
    expect(first.headers.get("current-page")).toBe("1");
    expect(first.headers.get("page-items")).toBe("50");
    expect(first.headers.get("link")).toContain('rel="next"');
    const second = await client.get("/events?page=2");
    expect(second.body).toHaveLength(1);
    expect(second.headers.get("page-items")).toBe("1");
    expect(second.headers.get("link")).toContain('rel="prev"');
  });

  it("answers 400 on each unreadable filter", async () => {
    const res = await api.get("/events?resource_id=abc&start=soon&order=sideways&page=0");
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["order", "page", "resource_id", "start"]);
  });

  it("never lists another tenant's events", async () => {
    const mine = await createEvent();
    const theirs = await createEvent(
      { resource_id: otherResource.id, service_id: (await must(other.post("/services", { service: { title: "Y", booking_type: "attendance" } }))).service.id },
      other,
    );
    const listed = ids((await api.get("/events")).body);
    expect(listed).toContain(mine.id);
    expect(listed).not.toContain(theirs.id);
  });
});

describe("availability", () => {
  it("goes down with active bookings and back up when one is cancelled", async () => {
    const event = await createEvent({ capacity: 5 });
    const first = await book(event.id, { count: 2 });
    await book(event.id);
    expect((await readEvent(event.id)).availability).toBe(2);
    await must(api.put(`/bookings/${first.id}/cancel`));
    expect((await readEvent(event.id)).availability).toBe(4);
    const listed = (await api.get("/events")).body.find((e: any) => e.event.id === event.id);
    expect(listed.event.availability).toBe(4);
  });

  it("does not count an unverified booking whose verification has expired", async () => {
    const { api: strict } = await newAccount({ verification_method: 2 });
    const room = (await must(strict.post("/resources", { resource: { title: "R" } }))).resource;
    const yoga = (await must(strict.post("/services", { service: { title: "Y", booking_type: "attendance" } }))).service;
    const event = (
      await must(
        strict.post("/events", { event: { resource_id: room.id, service_id: yoga.id, capacity: 3, starts_at: "2030-01-09 18:00", ends_at: "2030-01-09 19:00" } }),
      )
    ).event;
    const pending = (await must(strict.post("/bookings", { booking: { event_id: event.id, person_attributes: { email: "a@example.com" } }, confirm: false }))).booking;
    expect(pending.state).toBe("awaiting_verification");
    expect((await must(strict.get(`/events/${event.id}`))).event.availability).toBe(2);
    await env.DB.prepare("UPDATE bookings SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, pending.id)
      .run();
    expect((await must(strict.get(`/events/${event.id}`))).event.availability).toBe(3);
  });

  it("appears on the event of an extended booking", async () => {
    const event = await createEvent({ capacity: 4 });
    const booking = await book(event.id, { count: 3 });
    const extended = (await must(api.get(`/bookings/${booking.id}?extended=true`))).booking.event;
    expect(extended).toMatchObject({ id: event.id, capacity: 4, availability: 1, starts_at: "2030-01-09T18:00:00+01:00" });
    expect((await must(api.get(`/bookings/${booking.id}`))).booking.event).toEqual({ id: event.id, title: null });
  });
});

describe("PUT /api/v1/events/{id}", () => {
  it("updates only the attributes sent; custom_data is replaced whole", async () => {
    const event = await createEvent({ title: "Flow", description: "Slow", custom_data: { a: "1", b: "2" } });
    const res = await api.put(`/events/${event.id}`, { event: { title: "Fast flow", published: false, custom_data: { c: "3" } } });
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({
      title: "Fast flow",
      description: "Slow",
      published: false,
      custom_data: { c: "3" },
      capacity: 10,
      starts_at: "2030-01-09T18:00:00+01:00",
      ends_at: "2030-01-09T19:30:00+01:00",
    });
  });

  it("takes form data with bracket names", async () => {
    const event = await createEvent();
    const res = await api.form("PUT", `/events/${event.id}`, "event[capacity]=12&event[description]=Bring a mat");
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ capacity: 12, availability: 12, description: "Bring a mat" });
  });

  it("moves every booking of the event with it: times, resource and service", async () => {
    const event = await createEvent();
    const kept = await book(event.id, { title: "Kept" });
    const cancelled = await book(event.id);
    await must(api.put(`/bookings/${cancelled.id}/cancel`));
    await env.DB.prepare("UPDATE bookings SET updated_at = 5 WHERE event_id = ?").bind(event.id).run();
    const stage = (await must(api.post("/resources", { resource: { title: "Stage" } }))).resource;
    const pilates = (await must(api.post("/services", { service: { title: "Pilates", booking_type: "attendance" } }))).service;
    const res = await api.put(`/events/${event.id}`, {
      event: { starts_at: "2030-01-10 09:00", ends_at: "2030-01-10 10:00", resource_id: stage.id, service_id: pilates.id },
    });
    expect(res.status).toBe(200);
    for (const id of [kept.id, cancelled.id]) {
      const moved = (await must(api.get(`/bookings/${id}`))).booking;
      expect(moved).toMatchObject({
        booked_from: "2030-01-10T09:00:00+01:00",
        booked_to: "2030-01-10T10:00:00+01:00",
        resource_id: stage.id,
        service_id: pilates.id,
        resource: { id: stage.id, title: "Stage" },
      });
    }
    const stamps = await env.DB.prepare("SELECT updated_at FROM bookings WHERE event_id = ? UNION SELECT updated_at FROM events WHERE id = ?")
      .bind(event.id, event.id)
      .all<{ updated_at: number }>();
    // Bookings and event carry the one request clock of the move.
    expect(stamps.results.map((r) => r.updated_at)).toEqual([expect.any(Number)]);
    expect(stamps.results[0].updated_at).toBeGreaterThan(5);
    expect((await must(api.get(`/bookings/${kept.id}`))).booking.title).toBe("Kept");
  });

  it("leaves its bookings untouched when the event is not moved", async () => {
    const event = await createEvent();
    const booking = await book(event.id);
    const stamp = () => env.DB.prepare("SELECT updated_at FROM bookings WHERE id = ?").bind(booking.id).first<{ updated_at: number }>();
    const before = (await stamp())!.updated_at;
    await must(api.put(`/events/${event.id}`, { event: { title: "Renamed", starts_at: "2030-01-09 18:00" } }));
    expect((await stamp())!.updated_at).toBe(before);
  });

  it("answers 400 on capacity below the seats already booked, and allows lowering to exactly that", async () => {
    const event = await createEvent({ capacity: 5 });
    await book(event.id, { count: 3 });
    const res = await api.put(`/events/${event.id}`, { event: { capacity: 2, title: "Smaller" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ capacity: ["is less than the seats already booked (3)"] });
    expect(await readEvent(event.id)).toMatchObject({ capacity: 5, title: null, availability: 2 });
    const exact = await api.put(`/events/${event.id}`, { event: { capacity: 3 } });
    expect(exact.status).toBe(200);
    expect(exact.body.event).toMatchObject({ capacity: 3, availability: 0 });
    expect((await api.post("/bookings", { booking: { event_id: event.id } })).body).toEqual({ event_id: ["is fully booked"] });
  });

  it("never ends with more seats booked than capacity when lowering races with bookings", async () => {
    const event = await createEvent({ capacity: 6 });
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => api.post("/bookings", { booking: { event_id: event.id } })),
      api.put(`/events/${event.id}`, { event: { capacity: 3 } }),
    ]);
    const booked = results.slice(0, 6).filter((r) => r.status === 200).length;
    const lowered = results[6].status === 200;
    const final = await readEvent(event.id);
    expect(final.capacity).toBe(lowered ? 3 : 6);
    expect(booked).toBeLessThanOrEqual(final.capacity);
    expect(final.availability).toBe(final.capacity - booked);
  });

  it("answers 400 for invalid values and changes nothing", async () => {
    const event = await createEvent();
    const appointment = (await must(api.post("/services", { service: { title: "Cut" } }))).service;
    const res = await api.put(`/events/${event.id}`, {
      event: { ends_at: "2030-01-09 17:00", capacity: -1, service_id: appointment.id, resource_id: null, title: "No" },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["capacity", "resource_id"]);
    const semantic = await api.put(`/events/${event.id}`, { event: { ends_at: "2030-01-09 17:00", service_id: 999999, title: "No" } });
    expect(semantic.status).toBe(400);
    expect(semantic.body).toEqual({ ends_at: ["must be after starts_at"], service_id: ["does not exist"] });
    expect(await readEvent(event.id)).toMatchObject({ title: null, ends_at: "2030-01-09T19:30:00+01:00", service_id: service.id, capacity: 10 });
  });

  it("answers 404 for an unknown id, and for another tenant's event without changing it", async () => {
    const event = await createEvent();
    expect((await api.put("/events/999999", { event: { title: "X" } })).status).toBe(404);
    const foreign = await other.put(`/events/${event.id}`, { event: { title: "Hijacked", capacity: 1 } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect(await readEvent(event.id)).toMatchObject({ title: null, capacity: 10 });
  });
});

describe("DELETE /api/v1/events/{id}", () => {
  it("sets the event inactive, cancels its active bookings and stops taking new ones", async () => {
    const event = await createEvent();
    const booking = await book(event.id);
    const res = await api.delete(`/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ id: event.id, active: false, availability: 10 });
    expect((await must(api.get(`/bookings/${booking.id}`))).booking).toMatchObject({ state: "cancelled", active: false });
    expect((await api.post("/bookings", { booking: { event_id: event.id } })).body).toEqual({ event_id: ["is not open for booking"] });
    expect((await api.get("/events")).body.map((e: any) => e.event.id)).not.toContain(event.id);
  });

  it("changes nothing when repeated", async () => {
    const event = await createEvent();
    const first = (await must(api.delete(`/events/${event.id}`))).event;
    const again = await api.delete(`/events/${event.id}`);
    expect(again.status).toBe(200);
    expect(again.body.event).toEqual(first);
  });

  it("answers 404 for an unknown id, and for another tenant's event without changing it", async () => {
    const event = await createEvent();
    const booking = await book(event.id);
    expect((await api.delete("/events/999999")).status).toBe(404);
    expect((await other.delete(`/events/${event.id}`)).status).toBe(404);
    expect(await readEvent(event.id)).toMatchObject({ active: true, availability: 9 });
    expect((await must(api.get(`/bookings/${booking.id}`))).booking.state).toBe("confirmed");
  });
});
