// The round-trip budget of the main routes (docs/decisions/latency.md), read from the
// Server-Timing every answer carries. Round trips are deterministic, unlike times.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue } from "../support/bookings";
import { costOf } from "../support/server-timing";

let api: Client;
let site: ReturnType<typeof publicSite>;
let service: any;
let attendance: any;
let person: any;

beforeAll(async () => {
  const mine = await newAccount({ time_zone: "Europe/Oslo", locale: "en" });
  api = mine.api;
  site = publicSite(mine.account.subdomain);
  const make = catalogue(api);
  const room = await make.resource({ title: "Room" });
  const hall = await make.resource({ title: "Hall" });
  service = await make.service({ title: "Cut", interval: 60 });
  attendance = await make.service({ title: "Yoga", booking_type: "attendance" });
  await make.provider(room.id, service.id);
  await make.provider(hall.id, service.id);
  await make.provider(hall.id, attendance.id);
  await make.event({ resourceId: hall.id, serviceId: attendance.id, capacity: 5, starts: "2030-01-08 10:00", ends: "2030-01-08 11:00" });
  person = await make.person({ name: "Kari", email: "kari@example.com" });
  await make.booking({ resource_id: room.id, service_id: service.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00", person_id: person.id });
});

/** Asked twice: the first warms this isolate's caches, the second is what a warm isolate pays. */
async function warm(ask: () => Promise<{ status: number; headers: Headers; body: unknown }>) {
  await ask();
  const res = await ask();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return costOf(res.headers);
}

const BUDGET: [string, number, () => Promise<{ status: number; headers: Headers; body: unknown }>][] = [
  ["private slots, one week", 1, () => api.get(`/services/${service.id}/slots?from=2030-01-07&to=2030-01-13`)],
  ["private slots, 31 days", 1, () => api.get(`/services/${service.id}/slots?from=2030-01-01&to=2030-01-31`)],
  ["private slots of an attendance service", 1, () => api.get(`/services/${attendance.id}/slots?from=2030-01-07&to=2030-01-13`)],
  ["public slots", 1, () => site.get(`/services/${service.id}/slots?from=2030-01-07&to=2030-01-13`)],
  ["private next_available_date", 1, () => api.get(`/services/${service.id}/next_available_date?from=2030-01-07`)],
  ["public next_available_date", 1, () => site.get(`/services/${service.id}/next_available_date?from=2030-01-07`)],
  ["private available_dates", 1, () => api.get(`/services/${service.id}/available_dates?from=2030-01-01&to=2030-01-31`)],
  ["public available_dates", 1, () => site.get(`/services/${service.id}/available_dates?from=2030-01-01&to=2030-01-31`)],
  ["private services list", 1, () => api.get("/services")],
  ["public services list", 1, () => site.get("/services")],
  ["bookings list", 1, () => api.get("/bookings")],
  ["GET /client", 0, () => api.get("/client")],
];

describe("Server-Timing durations", () => {
  /** The `dur` of each named entry, as browser devtools read it. */
  const durations = (headers: Headers) =>
    Object.fromEntries(
      (headers.get("server-timing") ?? "").split(",").map((entry) => {
        const [name, ...params] = entry.trim().split(";");
        const dur = params.find((p) => p.startsWith("dur="));
        return [name, dur === undefined ? undefined : Number(dur.slice("dur=".length))];
      }),
    );

  it("gives the total, D1 and Durable Object waits in ms beside the counts", async () => {
    const res = await api.get("/bookings?page=1&start=2029-12-31T10:00:00Z");
    expect(res.status).toBe(200);
    const dur = durations(res.headers);
    for (const name of ["total", "d1", "do"]) {
      expect(Number.isFinite(dur[name]), `${name}: ${res.headers.get("server-timing")}`).toBe(true);
      expect(dur[name]).toBeGreaterThanOrEqual(0);
    }
    // Sums over calls: calls that overlap (the limiter beside the reads) each count, so no bound by `total`.
    expect(costOf(res.headers).roundTrips).toBeGreaterThan(0);
  });
});

describe("Server-Timing round trips of the main read routes (warm isolate)", () => {
  for (const [name, budget, ask] of BUDGET) {
    // The rate limiter: one call per client address, and on the private API one more per key.
    const limiterCalls = name.startsWith("public") ? 1 : 2;
    it(`${name}: at most ${budget} D1 round trip(s), ${limiterCalls} rate-limiter call(s)`, async () => {
      const cost = await warm(ask);
      expect(cost.roundTrips).toBeLessThanOrEqual(budget);
      expect(cost.doCalls).toBe(limiterCalls);
    });
  }

  // Before issue 33: the first request waited for the directory (one round trip), then for the route.
  it("answers a key's or a site's first request in this isolate beside the database (one wait), the next ones here", async () => {
    const fresh = await newAccount();
    const first = costOf((await fresh.api.get("/client")).headers);
    const second = costOf((await fresh.api.get("/client")).headers);
    expect(first).toMatchObject({ roundTrips: 0, waits: 1, doWaits: 1 });
    expect(second).toMatchObject({ roundTrips: 0, doCalls: 2 });
    const freshSite = publicSite(fresh.account.subdomain);
    const cold = costOf((await freshSite.get("/services")).headers);
    const warmed = costOf((await freshSite.get("/services")).headers);
    expect(cold).toMatchObject({ roundTrips: 0, waits: 1, doWaits: 1 });
    expect(warmed).toMatchObject({ roundTrips: 1, waits: 1, d1Waits: 1 });
  });

  it("slots on a cold isolate: one wait (beside the database); warm: none, or one batch after a write", async () => {
    const fresh = await newAccount({ time_zone: "Europe/Oslo" });
    const make = catalogue(fresh.api);
    const room = await make.resource({ title: "Room" });
    const cut = await make.service({ title: "Cut", interval: 60 });
    await make.provider(room.id, cut.id);
    // The booking site of a new account is what a cold isolate sees: neither the account nor the answer is cached.
    const cold = publicSite(fresh.account.subdomain);
    const ask = () => cold.get(`/services/${cut.id}/slots?from=2030-01-07&to=2030-01-13`);
    const first = costOf((await ask()).headers);
    const second = costOf((await ask()).headers);
    // Cold: answered by a NearDatabase object (its directory lookup and batch are its own short hops).
    expect(first).toMatchObject({ roundTrips: 0, waits: 1, doWaits: 1 });
    // Answered here now: at most the one batch (none once this isolate trusts the answer's version).
    expect(second.roundTrips).toBeLessThanOrEqual(1);
    expect(costOf((await ask()).headers).roundTrips).toBe(0);
    // A write through this isolate: the next answer reads the version and the rows in one batch.
    await make.booking({ resource_id: room.id, service_id: cut.id, booked_from: "2030-01-08 10:00", booked_to: "2030-01-08 11:00" });
    const third = costOf((await ask()).headers);
    expect(third.roundTrips).toBe(1);
    expect(third.rows).toBeGreaterThan(0);
  });

  it("counts rows read, and error answers carry the header too", async () => {
    const list = await api.get("/bookings");
    expect(costOf(list.headers).rows).toBeGreaterThan(0);
    const missing = await api.get("/services/999999/slots");
    expect(missing.status).toBe(404);
    expect(costOf(missing.headers).roundTrips).toBeGreaterThan(0);
  });
});

describe("Server-Timing round trips of booking writes (warm isolate)", () => {
  let room: any;
  let cut: any;
  let day = 1;
  const nextSlot = () => {
    day += 1;
    const date = `2031-03-${String(day).padStart(2, "0")}`;
    return { booked_from: `${date} 10:00`, booked_to: `${date} 11:00` };
  };

  beforeAll(async () => {
    const make = catalogue(api);
    room = await make.resource({ title: "Studio" });
    cut = await make.service({ title: "Trim", interval: 60 });
    await make.provider(room.id, cut.id);
  });

  // Before issue 9: 5 D1 round trips and the guard (service, resource, guard, re-read, related twice);
  // before issue 21's "Creates at distance": 2 (the re-read with related rows after the guard).
  it("POST /bookings by resource and service: references in one batch, then the guarded write that reads the booking with its related rows back", async () => {
    const res = await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...nextSlot() } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // One D1 round trip in the Worker; two rate-limiter calls and one capacity-guard call (which
    // writes and reads back in one D1 batch).
    expect(costOf(res.headers)).toMatchObject({ roundTrips: 1, doCalls: 3 });
  });

  it("POST /bookings refused for a full slot: one D1 round trip and the guard; again, no guard (refusal memo)", async () => {
    const slot = nextSlot();
    expect((await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...slot } })).status).toBe(200);
    const res = await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...slot } });
    expect(res.status).toBe(400);
    expect(costOf(res.headers)).toMatchObject({ roundTrips: 1, doCalls: 3 });
    // Asked again with nothing changed: refused from the isolate's memory, without the guard.
    const again = await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...slot } });
    expect(again.status).toBe(400);
    expect(costOf(again.headers)).toMatchObject({ roundTrips: 1, doCalls: 2 });
  });

  // Before: a new person 5 (references, match, uniqueness, person insert, re-read), a matched one
  // with attributes to fill 5 (references, match, uniqueness of the fill, fill, re-read), without 3.
  // Before issue 21's "Creates at distance": new 3 (references, person insert, re-read), matched 2.
  it("POST /bookings with a new person: the person's reads in the references batch, then its insert in the guard's batch", async () => {
    const res = await api.post("/bookings", { booking: { service_id: cut.id, ...nextSlot(), person_attributes: { name: "Ola", email: `ola${day}@example.com` } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.person).toMatchObject({ name: "Ola", email: `ola${day}@example.com` });
    expect(costOf(res.headers)).toMatchObject({ roundTrips: 1, doCalls: 3 });
  });

  // Before issue 33 a fill cost a round trip after the guard's (its batch with the re-read): 3 waits.
  it("POST /bookings with a matched person: its reads in the references batch, its fill in the guard's batch", async () => {
    const make = catalogue(api);
    const known = await make.person({ name: "Siri", email: "siri@example.com" });
    const bare = await api.post("/bookings", { booking: { service_id: cut.id, ...nextSlot(), person_attributes: { email: "siri@example.com" } } });
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    expect(bare.body.booking.person.id).toBe(known.id);
    expect(costOf(bare.headers)).toMatchObject({ roundTrips: 1, doCalls: 3 });
    const filling = await api.post("/bookings", {
      booking: { service_id: cut.id, ...nextSlot(), person_attributes: { email: "siri@example.com", national_id_no: "12345678901" } },
    });
    expect(filling.status, JSON.stringify(filling.body)).toBe(200);
    expect(filling.body.booking.person).toMatchObject({ id: known.id, national_id_no: "12345678901" });
    expect(costOf(filling.headers)).toMatchObject({ roundTrips: 1, doCalls: 3, waits: 2 });
    expect((await api.get(`/people/${known.id}`)).body.person.national_id_no).toBe("12345678901");
    const byId = await api.post("/bookings", { booking: { service_id: cut.id, ...nextSlot(), person_id: known.id } });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    expect(costOf(byId.headers)).toMatchObject({ roundTrips: 1, doCalls: 3 });
  });

  // Before: 6 for a new visitor, 6 for a known one with attributes to fill, 4 without.
  it("POST /bookings on the booking site: the visitor's reads and the exception hours in the references batch, the fill in the guard's", async () => {
    const slot = () => {
      const { booked_from, booked_to } = nextSlot();
      return { booked_from: booked_from.replace("2031-03", "2030-03"), booked_to: booked_to.replace("2031-03", "2030-03") };
    };
    // References with the visitor's reads and the candidates' exception hours of the date; the
    // visitor's insert and the read back are in the guard's batch (before "Creates at distance": 3).
    const fresh = await site.post("/bookings", { booking: { service_id: cut.id, ...slot(), person_attributes: { name: "Vis", email: `vis${day}@example.com` } } });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(costOf(fresh.headers)).toMatchObject({ roundTrips: 1, doCalls: 2 });
    // A known visitor: no insert, and the phone they add is filled in the guard's batch, right after the booking's insert.
    const known = await site.post("/bookings", {
      booking: { service_id: cut.id, ...slot(), person_attributes: { name: "Vis", email: `vis${day - 1}@example.com`, phone_number: "+4791234567" } },
    });
    expect(known.status, JSON.stringify(known.body)).toBe(200);
    expect(costOf(known.headers)).toMatchObject({ roundTrips: 1, doCalls: 2, waits: 2 });
    const [first, second] = await Promise.all([fresh, known].map((r) => api.get(`/bookings/${r.body.booking.id}`)));
    expect(second.body.booking.person).toMatchObject({ id: first.body.booking.person.id, phone_number: "+4791234567" });
  });

  it("PUT /bookings/{id}/cancel: the read, then the compare-and-swap with the related rows after it in one batch", async () => {
    const created = await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...nextSlot() } });
    const res = await api.put(`/bookings/${created.body.booking.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.booking.state).toBe("cancelled");
    expect(costOf(res.headers)).toMatchObject({ roundTrips: 2, doCalls: 2 });
  });

  // Before issue 33: 6 for a title, 6 and the guard for a move (update-waits.test.ts has every kind).
  it("PUT /bookings/{id}: the booking with its references in one batch, then one D1 batch, or the guard's for a move", async () => {
    const created = await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...nextSlot() } });
    const titled = await api.put(`/bookings/${created.body.booking.id}`, { booking: { title: "Renamed" } });
    expect(titled.status, JSON.stringify(titled.body)).toBe(200);
    expect(costOf(titled.headers)).toMatchObject({ roundTrips: 2, doCalls: 2, waits: 2 });
    const moved = await api.put(`/bookings/${created.body.booking.id}`, { booking: nextSlot() });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(costOf(moved.headers)).toMatchObject({ roundTrips: 1, doCalls: 3, waits: 2 });
  });

  it("PUT /bookings/{id}/status: one round trip", async () => {
    const created = await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...nextSlot() } });
    const res = await api.put(`/bookings/${created.body.booking.id}/status`, { booking: { status: "arrived" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(costOf(res.headers).roundTrips).toBe(1);
  });

  it("GET /bookings/{id}: one round trip with its related rows", async () => {
    const created = await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, ...nextSlot() } });
    const res = await api.get(`/bookings/${created.body.booking.id}`);
    expect(res.status).toBe(200);
    expect(res.body.booking.resource.id ?? res.body.booking.resource_id).toBe(room.id);
    expect(costOf(res.headers).roundTrips).toBe(1);
  });
});
