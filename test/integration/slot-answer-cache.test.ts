// Slot answers cached per isolate under the account's availability version (docs/decisions/
// latency.md, "Slot answers"): a repeated read is served from the cache for one tiny D1 statement,
// and every kind of write that changes availability shows in the very next answer.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue, env, must } from "../support/bookings";
import { parseDateTimeInput } from "../../src/domain/time";
import { cacheOutcomeOf, costOf } from "../support/server-timing";

let api: Client;
let site: ReturnType<typeof publicSite>;
let accountId: number;
let make: ReturnType<typeof catalogue>;

const ZONE = "Europe/Oslo";
const closed = {
  opening_hours_mon: null,
  opening_hours_tue: null,
  opening_hours_wed: null,
  opening_hours_thu: null,
  opening_hours_fri: null,
  opening_hours_sat: null,
  opening_hours_sun: null,
};

beforeAll(async () => {
  // Manual confirmation, so a new booking awaits confirmation and can be declined.
  const mine = await newAccount({ time_zone: ZONE, locale: "en", confirm_manually: true });
  api = mine.api;
  accountId = mine.account.id;
  site = publicSite(mine.account.subdomain);
  make = catalogue(api);
});

/** A resource open 09–12 on every day, offered by a new 60-minute service: three slots a day. */
async function shop(resource: Record<string, unknown> = {}) {
  const room = await make.resource({ title: "Room", ...closed, ...Object.fromEntries(Object.keys(closed).map((k) => [k, ["09:00", "12:00"]])), ...resource });
  const cut = await make.service({ title: "Cut", interval: 60 });
  await make.provider(room.id, cut.id);
  return { room, cut };
}

/** The reads of a slot answer that a cached one skips (features/slots/queries.ts). */
const SKIPPED_READS = 7;

type Ask = (path: string) => Promise<{ status: number; headers: Headers; body: any }>;

/** The day's slots as "hh:mm free", asked twice: the second answer must come from the cache. */
async function cachedDay(serviceId: number, day: string, ask: Ask = (p) => api.get(p)) {
  const path = `/services/${serviceId}/slots?from=${day}&to=${day}`;
  await ask(path);
  const res = await ask(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // From the cache: no round trip while the version is trusted (2 s), else one that reads only
  // the account's version row, once for the batch and once in each of the seven reads it skips
  // (a miss reads the same and the data too).
  const cost = costOf(res.headers);
  expect(cost.roundTrips).toBeLessThanOrEqual(1);
  expect(cost.rows).toBeLessThanOrEqual(SKIPPED_READS + 1);
  return summary(res.body);
}

async function dayNow(serviceId: number, day: string, ask: Ask = (p) => api.get(p)) {
  const res = await ask(`/services/${serviceId}/slots?from=${day}&to=${day}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return summary(res.body);
}

const summary = (body: any[]) => body.map(({ slot }) => `${slot.timestamp.slice(11, 16)}${slot.timestamp.slice(19)} ${slot.free}`);

/** A one-hour booking; `{ confirm: false }` leaves it awaiting confirmation (the account confirms manually). */
const book = (room: any, cut: any, day: string, hour: string, extra: Record<string, unknown> = {}) =>
  make.booking(
    { resource_id: room.id, service_id: cut.id, booked_from: `${day} ${hour}:00`, booked_to: `${day} ${String(Number(hour) + 1).padStart(2, "0")}:00` },
    extra,
  );

describe("GET /services/{id}/slots from the cached answer", () => {
  it("says in Server-Timing whether the cache served the answer: a miss, a hit, a miss after a booking", async () => {
    const { room, cut } = await shop();
    const path = `/services/${cut.id}/slots?from=2030-02-11&to=2030-02-11`;
    const outcomes = [cacheOutcomeOf((await api.get(path)).headers), cacheOutcomeOf((await api.get(path)).headers)];
    await book(room, cut, "2030-02-11", "10");
    outcomes.push(cacheOutcomeOf((await api.get(path)).headers));
    expect(outcomes).toEqual(["miss", "hit", "miss"]);
    // An answer that consults no answer cache names none.
    expect(cacheOutcomeOf((await api.get(`/services/${cut.id}`)).headers)).toBeUndefined();
  });

  it("serves a repeated read from the cache, and a booking that fills a slot shows at once", async () => {
    const { room, cut } = await shop();
    expect(await cachedDay(cut.id, "2030-02-04")).toEqual(["09:00+01:00 1", "10:00+01:00 1", "11:00+01:00 1"]);
    await book(room, cut, "2030-02-04", "10");
    expect(await dayNow(cut.id, "2030-02-04")).toEqual(["09:00+01:00 1", "10:00+01:00 0", "11:00+01:00 1"]);
  });

  const freeing: [string, (id: number) => Promise<unknown>][] = [
    ["a cancel", (id) => must(api.put(`/bookings/${id}/cancel`))],
    ["a decline", (id) => must(api.put(`/bookings/${id}/decline`))],
    ["a delete", (id) => must(api.delete(`/bookings/${id}`))],
    ["a move to another hour", (id) => must(api.put(`/bookings/${id}`, { booking: { booked_from: "2030-02-05 11:00", booked_to: "2030-02-05 12:00" } }))],
    // Not through this isolate's requests (another isolate, a queue, cron, a console): the triggers
    // bump the version; a reader with a bookmark sees it at once, any other within 2 s.
    ["a write to D1 outside any request", (id) => env.DB.prepare("UPDATE bookings SET state = 'cancelled', active = 0 WHERE id = ?").bind(id).run()],
  ];
  for (const [name, free] of freeing) {
    it(`frees the slot after ${name}, and the freed slot can be booked`, async () => {
      const { room, cut } = await shop();
      const booking = await book(room, cut, "2030-02-05", "10", { confirm: false });
      const before = await cachedDay(cut.id, "2030-02-05");
      expect(before[1]).toBe("10:00+01:00 0");
      const { headers } = await api.get(`/services/${cut.id}/slots?from=2030-02-05&to=2030-02-05`);
      await free(booking.id);
      const bookmark = { "x-d1-bookmark": headers.get("x-d1-bookmark")! };
      const after = await dayNow(cut.id, "2030-02-05", (p) => api.get(p, bookmark));
      expect(after[1]).toBe("10:00+01:00 1");
      await book(room, cut, "2030-02-05", "10");
    });
  }

  it("frees the slot when an unverified booking lapses, with no write at all", async () => {
    const { room, cut } = await shop();
    const from = parseDateTimeInput("2030-02-06 10:00", ZONE)!;
    await env.DB.prepare(
      `INSERT INTO bookings (account_id, resource_id, service_id, booked_from, booked_to, count, state, active, expires_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, 'awaiting_verification', 1, ?, 0, 0)`,
    )
      .bind(accountId, room.id, cut.id, from, from + 3_600_000, Date.now() + 700)
      .run();
    expect((await cachedDay(cut.id, "2030-02-06"))[1]).toBe("10:00+01:00 0");
    const version = await env.DB.prepare("SELECT version FROM availability_versions WHERE account_id = ?").bind(accountId).first("version");
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await dayNow(cut.id, "2030-02-06"))[1]).toBe("10:00+01:00 1");
    expect(await env.DB.prepare("SELECT version FROM availability_versions WHERE account_id = ?").bind(accountId).first("version")).toBe(version);
  });

  it("follows edits of the resource, its exception dates, the service, its providers and the account's zone", async () => {
    const { room, cut } = await shop();
    const day = "2030-02-07";
    const edits: [() => Promise<unknown>, string[]][] = [
      [() => must(api.put(`/resources/${room.id}`, { resource: { capacity: 2 } })), ["09:00+01:00 2", "10:00+01:00 2", "11:00+01:00 2"]],
      [() => must(api.put(`/resources/${room.id}`, { resource: { opening_hours_thu: ["09:00", "11:00"] } })), ["09:00+01:00 2", "10:00+01:00 2"]],
      [() => must(api.put(`/resources/${room.id}/exception_dates/${day}`, { resource_exception_date: { opening_hours: ["14:00", "15:00"] } })), ["14:00+01:00 2"]],
      [() => must(api.delete(`/resources/${room.id}/exception_dates/${day}`)), ["09:00+01:00 2", "10:00+01:00 2"]],
      [() => must(api.put(`/services/${cut.id}`, { service: { interval: 120 } })), ["09:00+01:00 2"]],
      [() => must(api.put("/client", { client: { time_zone: "Europe/London" } })), ["09:00+00:00 2"]],
      [() => must(api.put("/client", { client: { time_zone: ZONE } })), ["09:00+01:00 2"]],
    ];
    for (const [edit, expected] of edits) {
      await cachedDay(cut.id, day);
      await edit();
      expect(await dayNow(cut.id, day)).toEqual(expected);
    }
    const { provider } = await must(api.get(`/providers?service_id=${cut.id}`)).then((list: any[]) => list[0]);
    await cachedDay(cut.id, day);
    await must(api.delete(`/providers/${provider.id}`));
    expect(await dayNow(cut.id, day)).toEqual([]);
  });

  it("follows an event's bookings, moves, capacity and deletion on an attendance service", async () => {
    const { room } = await shop();
    const yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
    await make.provider(room.id, yoga.id);
    const eventId = await make.event({ resourceId: room.id, serviceId: yoga.id, capacity: 2, starts: "2030-02-08 10:00", ends: "2030-02-08 11:00" });
    const day = "2030-02-08";
    expect(await cachedDay(yoga.id, day)).toEqual(["10:00+01:00 2"]);
    const steps: [() => Promise<unknown>, string[]][] = [
      [() => make.booking({ event_id: eventId }), ["10:00+01:00 1"]],
      [() => must(api.put(`/events/${eventId}`, { event: { capacity: 3 } })), ["10:00+01:00 2"]],
      [() => must(api.put(`/events/${eventId}`, { event: { starts_at: `${day} 15:00`, ends_at: `${day} 16:00` } })), ["15:00+01:00 2"]],
      [() => must(api.delete(`/events/${eventId}`)), []],
    ];
    for (const [step, expected] of steps) {
      await cachedDay(yoga.id, day);
      await step();
      expect(await dayNow(yoga.id, day)).toEqual(expected);
    }
  });

  it("keeps the booking site's answers apart and just as fresh, and the date endpoints with them", async () => {
    const { room, cut } = await shop();
    const day = "2030-02-11";
    const ask: Ask = (p) => site.get(p);
    expect(await cachedDay(cut.id, day, ask)).toEqual(["09:00+01:00 1", "10:00+01:00 1", "11:00+01:00 1"]);
    const dates = `/services/${cut.id}/available_dates?from=${day}&to=${day}`;
    expect((await site.get(dates)).body).toEqual([{ available_date: { date: day } }]);
    for (const hour of ["09", "10", "11"]) await book(room, cut, day, hour);
    expect(await dayNow(cut.id, day, ask)).toEqual(["09:00+01:00 0", "10:00+01:00 0", "11:00+01:00 0"]);
    expect((await site.get(dates)).body).toEqual([]);
    expect((await api.get(`/services/${cut.id}/next_available_date?from=${day}`)).body).toEqual([{ available_date: "2030-02-12" }]);
  });
});

describe("invalidation as narrow as the write", () => {
  type Shop = Awaited<ReturnType<typeof shop>>;
  /** Each asked range's cache outcome and slots, read once more after `write` (a write through this isolate). */
  async function afterWrite(client: Client, ranges: [Shop, string, string][], write: () => Promise<unknown>) {
    const path = ([{ cut }, from, to]: [Shop, string, string]) => `/services/${cut.id}/slots?from=${from}&to=${to}`;
    for (const range of ranges) expect((await client.get(path(range))).status).toBe(200);
    await write();
    const outcomes: (string | undefined)[] = [];
    const slots: string[][] = [];
    for (const range of ranges) {
      const res = await client.get(path(range));
      outcomes.push(cacheOutcomeOf(res.headers));
      slots.push(summary(res.body));
    }
    return { outcomes, slots };
  }

  it("serves another resource's answer and the same resource's other days from the cache after a booking; the booked day shows it", async () => {
    const a = await shop();
    const b = await shop();
    const { outcomes, slots } = await afterWrite(
      api,
      [
        [a, "2030-02-18", "2030-02-18"],
        [b, "2030-02-18", "2030-02-18"],
        [a, "2030-02-17", "2030-02-17"],
        [a, "2030-02-19", "2030-02-19"],
        [a, "2030-02-19", "2030-02-25"],
      ],
      () => book(a.room, a.cut, "2030-02-18", "10"),
    );
    expect(outcomes).toEqual(["miss", "hit", "hit", "hit", "hit"]);
    expect(slots[0]).toEqual(["09:00+01:00 1", "10:00+01:00 0", "11:00+01:00 1"]);
  });

  it("keeps answers of the days around a DST change when the next day is booked: Europe/Oslo", async () => {
    const a = await shop();
    // 2030-03-31: clocks go from 02:00 to 03:00; the day has 23 hours.
    const { outcomes, slots } = await afterWrite(
      api,
      [
        [a, "2030-03-31", "2030-03-31"],
        [a, "2030-04-01", "2030-04-01"],
        [a, "2030-03-30", "2030-03-30"],
      ],
      () => book(a.room, a.cut, "2030-04-01", "09"),
    );
    expect(outcomes).toEqual(["hit", "miss", "hit"]);
    expect(slots[1]).toEqual(["09:00+02:00 0", "10:00+02:00 1", "11:00+02:00 1"]);
    const dstDay = await afterWrite(
      api,
      [
        [a, "2030-03-31", "2030-03-31"],
        [a, "2030-04-01", "2030-04-01"],
      ],
      () => book(a.room, a.cut, "2030-03-31", "11"),
    );
    expect(dstDay.outcomes).toEqual(["miss", "hit"]);
    expect(dstDay.slots[0]).toEqual(["09:00+02:00 1", "10:00+02:00 1", "11:00+02:00 0"]);
  });

  it("keeps answers of the days around a DST change when the next day is booked: America/New_York", async () => {
    const mine = await newAccount({ time_zone: "America/New_York", locale: "en" });
    const own = catalogue(mine.api);
    const room = await own.resource({ title: "Room", ...Object.fromEntries(Object.keys(closed).map((k) => [k, ["09:00", "12:00"]])) });
    const cut = await own.service({ title: "Cut", interval: 60 });
    await own.provider(room.id, cut.id);
    const a = { room, cut };
    // 2030-11-03: clocks go from 02:00 back to 01:00; the day has 25 hours.
    const { outcomes, slots } = await afterWrite(
      mine.api,
      [
        [a, "2030-11-03", "2030-11-03"],
        [a, "2030-11-04", "2030-11-04"],
        [a, "2030-11-02", "2030-11-02"],
      ],
      () => own.booking({ resource_id: room.id, service_id: cut.id, booked_from: "2030-11-04 11:00", booked_to: "2030-11-04 12:00" }),
    );
    expect(outcomes).toEqual(["hit", "miss", "hit"]);
    expect(slots[1]).toEqual(["09:00-05:00 1", "10:00-05:00 1", "11:00-05:00 0"]);
  });
});
