// Booking-list answers cached per isolate under the account's listing version (docs/decisions/
// latency.md, "Booking-list answers"): a repeated read costs one tiny D1 statement, and every kind
// of write that changes a listed booking, by any path, shows in the very next answer; so does time.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";
import { catalogue, env, must } from "../support/bookings";
import { cacheOutcomeOf, costOf } from "../support/server-timing";

let api: Client;
let accountId: number;
let make: ReturnType<typeof catalogue>;

beforeAll(async () => {
  // Email verification and manual confirmation, so bookings can await verification and confirmation.
  const mine = await newAccount({ time_zone: "Europe/Oslo", confirm_manually: true, verification_method: 2 });
  api = mine.api;
  accountId = mine.account.id;
  make = catalogue(api);
});

type Answer = { status: number; headers: Headers; body: any };

/** Asked twice: the second answer must be the cached one, costing only the version row. */
async function cached(path: string, client: Client = api): Promise<Answer> {
  const first = await client.get(path);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const again = await client.get(path);
  expect(again.status).toBe(200);
  // The version row (none yet for an account that never wrote: 0 rows).
  expect(costOf(again.headers).roundTrips).toBe(1);
  expect(costOf(again.headers).rows).toBeLessThanOrEqual(1);
  expect(again.body).toEqual(first.body);
  for (const header of ["link", "total-count", "total-pages", "page-items", "current-page"]) {
    expect(again.headers.get(header), header).toBe(first.headers.get(header));
  }
  return again;
}

/**
 * Read after a change: the rows were read again (more than the version row). After a write
 * request through this isolate the cached answer is known stale, so that is the page's batch
 * alone (1 round trip); after a write by another path the version is read first (2).
 */
async function fresh(path: string, headers: Record<string, string> = {}, roundTrips = 1): Promise<Answer> {
  const res = await api.get(path, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(costOf(res.headers).rows).toBeGreaterThan(1);
  expect(costOf(res.headers).roundTrips).toBe(roundTrips);
  return res;
}

/** A resource, a service, a person and one confirmed booking of theirs in May 2031. */
async function world() {
  const resource = await make.resource({ title: "Room", capacity: 10 });
  const service = await make.service({ title: "Cut" });
  const person = await make.person({ name: "Kari", email: `kari${resource.id}@example.com` });
  const booking = await make.booking({
    resource_id: resource.id,
    service_id: service.id,
    person_id: person.id,
    booked_from: "2031-05-05 10:00",
    booked_to: "2031-05-05 11:00",
  });
  return { resource, service, person, booking, path: `/bookings?resource_id=${resource.id}` };
}

const only = (res: Answer) => {
  expect(res.body).toHaveLength(1);
  return res.body[0].booking;
};

describe("GET /api/v1/bookings from the cached answer", () => {
  it("says in Server-Timing whether the cache served the answer: a miss, a hit, a miss after a write", async () => {
    const { booking, path } = await world();
    const outcomes = [cacheOutcomeOf((await api.get(path)).headers), cacheOutcomeOf((await api.get(path)).headers)];
    await must(api.put(`/bookings/${booking.id}`, { booking: { title: "Moved on" } }));
    outcomes.push(cacheOutcomeOf((await api.get(path)).headers));
    expect(outcomes).toEqual(["miss", "hit", "miss"]);
  });

  it("serves a repeated read for the version row alone, with the same body and page headers", async () => {
    const { path, booking } = await world();
    const res = await cached(path);
    expect(only(res).id).toBe(booking.id);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("shares one entry between spellings of the same query, and keeps the page links of each", async () => {
    const { resource, service } = await world();
    await cached(`/bookings?resource_id=${resource.id}&service_id=${service.id}`);
    const res = await api.get(`/bookings?service_id=${service.id}&resource_id=${resource.id}`);
    expect(costOf(res.headers)).toMatchObject({ roundTrips: 1, rows: 1 });
    expect(res.headers.get("link")).toContain(`?service_id=${service.id}&resource_id=${resource.id}&page=1`);
  });

  type World = Awaited<ReturnType<typeof world>>;
  const changes: [string, (w: World) => Promise<unknown>, (listed: any[], w: World) => void][] = [
    [
      "a new booking",
      (w) => make.booking({ resource_id: w.resource.id, booked_from: "2031-05-06 10:00", booked_to: "2031-05-06 11:00" }),
      (listed) => expect(listed).toHaveLength(2),
    ],
    [
      "an update of the booking",
      (w) => must(api.put(`/bookings/${w.booking.id}`, { booking: { title: "Moved", booked_from: "2031-05-05 12:00", booked_to: "2031-05-05 13:00" } })),
      ([b]) => expect([b.title, b.booked_from]).toEqual(["Moved", "2031-05-05T12:00:00+02:00"]),
    ],
    ["a cancel", (w) => must(api.put(`/bookings/${w.booking.id}/cancel`)), ([b]) => expect([b.state, b.active]).toEqual(["cancelled", false])],
    ["a status", (w) => must(api.put(`/bookings/${w.booking.id}/status`, { status: "arrived" })), ([b]) => expect(b.status).toBe("arrived")],
    ["a delete", (w) => must(api.delete(`/bookings/${w.booking.id}`)), (listed) => expect(listed).toEqual([])],
    [
      "a rename of the person",
      (w) => must(api.put(`/people/${w.person.id}`, { person: { name: "Kari Nordmann" } })),
      ([b]) => expect(b.person.name).toBe("Kari Nordmann"),
    ],
    ["a person deleted", (w) => must(api.delete(`/people/${w.person.id}`)), ([b]) => expect(b.person.active).toBe(false)],
    ["a rename of the resource", (w) => must(api.put(`/resources/${w.resource.id}`, { resource: { title: "Hall" } })), ([b]) => expect(b.resource.title).toBe("Hall")],
    ["a rename of the service", (w) => must(api.put(`/services/${w.service.id}`, { service: { title: "Colour" } })), ([b]) => expect(b.service.title).toBe("Colour")],
    // Not through a request of this isolate: another isolate, a queue consumer, cron, the operator
    // API or a console. The triggers bump the version in the same statement.
    [
      "a write to D1 outside any request",
      (w) => env.DB.prepare("UPDATE bookings SET notes = 'by cron' WHERE id = ?").bind(w.booking.id).run(),
      ([b]) => expect(b.notes).toBe("by cron"),
    ],
    [
      "a raw write to the person outside any request",
      (w) => env.DB.prepare("UPDATE people SET city = 'Bergen' WHERE id = ?").bind(w.person.id).run(),
      ([b]) => expect(b.person.city).toBe("Bergen"),
    ],
  ];
  for (const [name, change, expectAfter] of changes) {
    it(`shows ${name} in the next answer`, async () => {
      const w = await world();
      await cached(w.path);
      await change(w);
      const elsewhere = name.includes("outside any request");
      expectAfter(
        (await fresh(w.path, {}, elsewhere ? 2 : 1)).body.map((e: any) => e.booking),
        w,
      );
      // …and the new answer is cached in turn.
      await cached(w.path);
    });
  }

  it("follows an event's edits and its seats held in the extended listing", async () => {
    const resource = await make.resource({ capacity: 10 });
    const service = await make.service({ title: "Yoga", booking_type: "attendance" });
    const eventId = await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 5, starts: "2031-05-07 18:00", ends: "2031-05-07 19:00" });
    await make.booking({ event_id: eventId, count: 2 });
    const path = `/events/${eventId}/bookings?extended=true`;
    expect(only(await cached(path)).event).toMatchObject({ title: "Yoga class", availability: 3 });
    await must(api.put(`/events/${eventId}`, { event: { title: "Evening yoga" } }));
    expect(only(await fresh(path)).event).toMatchObject({ title: "Evening yoga", availability: 3 });
    await cached(path);
    await make.booking({ event_id: eventId, count: 1 });
    const after = (await fresh(path)).body.map((e: any) => e.booking.event.availability);
    expect(after).toEqual([2, 2]);
  });

  it("shows the account's new zone at once", async () => {
    const { path } = await world();
    expect(only(await cached(path)).booked_from).toBe("2031-05-05T10:00:00+02:00");
    await must(api.put("/client", { client: { time_zone: "Europe/London" } }));
    try {
      // The change forgot the account here, so the next request is answered beside the database
      // (a NearDatabase object: the directory and the batch, the zone in the key), on the account as it is now.
      const res = await api.get(path);
      expect(res.status).toBe(200);
      expect(costOf(res.headers)).toMatchObject({ roundTrips: 0, waits: 1, doWaits: 1 });
      expect(only(res).booked_from).toBe("2031-05-05T09:00:00+01:00");
    } finally {
      await must(api.put("/client", { client: { time_zone: "Europe/Oslo" } }));
    }
  });

  it("after a write elsewhere, reads the version first once per account: the other cached lists then go straight to their batch", async () => {
    const w = await world();
    const other = `/bookings?resource_id=${w.resource.id}&order=booked_from_desc`;
    await cached(w.path);
    await cached(other);
    await env.DB.prepare("UPDATE bookings SET notes = 'elsewhere' WHERE id = ?").bind(w.booking.id).run();
    expect(only(await fresh(w.path, {}, 2)).notes).toBe("elsewhere");
    expect(only(await fresh(other, {}, 1)).notes).toBe("elsewhere");
  });

  it("answers 404 for a person's listing once the person is gone, though the answer was cached", async () => {
    const { person } = await world();
    const path = `/people/${person.id}/bookings`;
    expect((await cached(path)).body).toHaveLength(1);
    await env.DB.prepare("DELETE FROM people WHERE id = ?").bind(person.id).run();
    expect((await api.get(path)).status).toBe(404);
  });

  it("reads a person's listing and its owner check in one round trip", async () => {
    const { person } = await world();
    const res = await api.get(`/people/${person.id}/bookings?order=booked_from_desc`);
    expect(res.status).toBe(200);
    expect(costOf(res.headers).roundTrips).toBe(1);
  });
});

describe("cached booking lists and time", () => {
  /** An unverified booking written straight to D1 with its own expiry, as a site create leaves it. */
  async function unverified(resourceId: number, from: number, to: number, expiresAt: number) {
    await env.DB.prepare(
      `INSERT INTO bookings (account_id, resource_id, booked_from, booked_to, count, state, active, expires_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 1, 'awaiting_verification', 1, ?, 0, 0)`,
    )
      .bind(accountId, resourceId, from, to, expiresAt)
      .run();
  }
  const version = () => env.DB.prepare("SELECT version FROM listing_versions WHERE account_id = ?").bind(accountId).first("version");
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("shows an unverified booking lapsing at its expires_at, with no write at all", async () => {
    const resource = await make.resource({ capacity: 10 });
    const from = Date.UTC(2031, 4, 8, 8);
    await unverified(resource.id, from, from + 3_600_000, Date.now() + 700);
    const active = `/bookings?resource_id=${resource.id}&state[]=awaiting_verification&state[]=confirmed`;
    const all = `/bookings/all?resource_id=${resource.id}`;
    expect((await cached(active)).body).toHaveLength(1);
    expect(only(await cached(all))).toMatchObject({ state: "awaiting_verification", active: true });
    const before = await version();
    await pause(800);
    expect((await fresh(active)).body).toEqual([]);
    expect(only(await fresh(all))).toMatchObject({ state: "verification_expired", active: false });
    expect(await version()).toBe(before);
  });

  it("drops a booking from `upcoming` when it ends, with no write at all", async () => {
    const resource = await make.resource({ capacity: 10 });
    const start = Date.now() - 3_600_000;
    // A confirmed booking ending in 700 ms, and one ending later.
    for (const end of [Date.now() + 700, Date.now() + 86_400_000]) {
      await env.DB.prepare(
        `INSERT INTO bookings (account_id, resource_id, booked_from, booked_to, count, state, active, created_at, updated_at)
         VALUES (?, ?, ?, ?, 1, 'confirmed', 1, 0, 0)`,
      )
        .bind(accountId, resource.id, start, end)
        .run();
    }
    const path = `/bookings/upcoming?resource_id=${resource.id}`;
    expect((await cached(path)).body).toHaveLength(2);
    await pause(800);
    expect((await fresh(path)).body).toHaveLength(1);
    await cached(path);
  });
});

describe("cached booking lists across tenants and sessions", () => {
  it("never serves one account's cached answer to another asking the same URL", async () => {
    const { path, booking } = await world();
    expect(only(await cached(path)).id).toBe(booking.id);
    const other = (await newAccount({ time_zone: "Europe/Oslo" })).api;
    const theirs = await other.get(path);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    // Read, not served from ours: beside the database (their first request here) or here.
    expect(costOf(theirs.headers).waits).toBeGreaterThanOrEqual(1);
    // Their own answer is cached under their key, and ours still stands.
    expect((await cached(path, other)).body).toEqual([]);
    expect(only(await cached(path)).id).toBe(booking.id);
  });

  it("answers a bookmark on a cached read, and a write's bookmark reads the write", async () => {
    const w = await world();
    const hit = await cached(w.path);
    expect(hit.headers.get("x-d1-bookmark")).toMatch(/^DB:[0-9a-f-]+$/);
    const again = await api.get(w.path, { "x-d1-bookmark": hit.headers.get("x-d1-bookmark")! });
    expect(costOf(again.headers)).toMatchObject({ roundTrips: 1, rows: 1 });
    const write = await api.put(`/bookings/${w.booking.id}`, { booking: { title: "Seen" } });
    expect(write.status).toBe(200);
    const after = await fresh(w.path, { "x-d1-bookmark": write.headers.get("x-d1-bookmark")! });
    expect(only(after).title).toBe("Seen");
  });

  it("caches sync listings with their next cursor", async () => {
    const { resource } = await world();
    await make.booking({ resource_id: resource.id, booked_from: "2031-05-09 10:00", booked_to: "2031-05-09 11:00" });
    const path = `/bookings/recent?resource_id=${resource.id}`;
    const res = await cached(path);
    expect(res.body).toHaveLength(2);
    expect(res.headers.get("link")).not.toContain('rel="next"');
  });
});
