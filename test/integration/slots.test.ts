// The slot endpoints through the Worker: exact slots from opening hours and bookings, the
// derived date endpoints, the public site, the query budget, DST and tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue, env, must } from "../support/bookings";
import { parseDateTimeInput } from "../../src/domain/time";

let api: Client;
let accountId: number;
let site: ReturnType<typeof publicSite>;
let chair: any;
let cut: any;

const MONDAY = "2030-01-07";
const closedWeek = {
  opening_hours_tue: null,
  opening_hours_wed: null,
  opening_hours_thu: null,
  opening_hours_fri: null,
  opening_hours_sat: null,
  opening_hours_sun: null,
};

beforeAll(async () => {
  const mine = await newAccount({ time_zone: "Europe/Oslo", locale: "en" });
  api = mine.api;
  accountId = mine.account.id;
  site = publicSite(mine.account.subdomain);
  const make = catalogue(api);
  chair = await make.resource({ title: "Chair", opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"], ...closedWeek });
  cut = await make.service({ title: "Cut", interval: 60 });
  await make.provider(chair.id, cut.id);
});

const starts = (body: any[]) => body.map((e) => e.slot.timestamp);

describe("GET /api/v1/services/{id}/slots", () => {
  it("lists the day's slots inside the opening hours, around the break, with offsets and words", async () => {
    const res = await api.get(`/services/${cut.id}/slots?from=${MONDAY}&to=${MONDAY}`);
    expect(res.status).toBe(200);
    expect(starts(res.body)).toEqual(["09", "10", "11", "13", "14", "15", "16"].map((h) => `${MONDAY}T${h}:00:00+01:00`));
    expect(res.body[0]).toEqual({
      slot: {
        timestamp: "2030-01-07T09:00:00+01:00",
        timestamp_end: "2030-01-07T10:00:00+01:00",
        formatted_timestamp: "Monday, 7 January 2030, 09:00",
        formatted_timestamp_end: "Monday, 7 January 2030, 10:00",
        free: 1,
        available_resources: [chair.id],
        maximum_capacity: 1,
      },
    });
  });

  it("shows a booked slot as taken, and frees it when the booking is cancelled", async () => {
    const booking = (
      await must(api.post("/bookings", { booking: { resource_id: chair.id, service_id: cut.id, booked_from: "2030-01-14 10:00", booked_to: "2030-01-14 11:00" } }))
    ).booking;
    const taken = (await api.get(`/services/${cut.id}/slots?from=2030-01-14&to=2030-01-14`)).body.find((e: any) => e.slot.timestamp === "2030-01-14T10:00:00+01:00").slot;
    expect(taken).toMatchObject({ free: 0, available_resources: [], maximum_capacity: 1 });
    await must(api.put(`/bookings/${booking.id}/cancel`));
    const freed = (await api.get(`/services/${cut.id}/slots?from=2030-01-14&to=2030-01-14`)).body.find((e: any) => e.slot.timestamp === "2030-01-14T10:00:00+01:00").slot;
    expect(freed).toMatchObject({ free: 1, available_resources: [chair.id] });
  });

  it("frees a slot at once when an unverified booking's expires_at has passed", async () => {
    const from = parseDateTimeInput("2030-01-21 11:00", "Europe/Oslo")!;
    await env.DB.prepare(
      `INSERT INTO bookings (account_id, resource_id, service_id, booked_from, booked_to, count, state, active, expires_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, 'awaiting_verification', 1, ?, 0, 0)`,
    )
      .bind(accountId, chair.id, cut.id, from, from + 3_600_000, Date.now() - 1000)
      .run();
    const slot = (await api.get(`/services/${cut.id}/slots?from=2030-01-21&to=2030-01-21`)).body.find((e: any) => e.slot.timestamp === "2030-01-21T11:00:00+01:00").slot;
    expect(slot.free).toBe(1);
  });

  it("lists nothing on an exception date that closes the day, and the changed hours on one that changes it", async () => {
    await must(api.put(`/resources/${chair.id}/exception_dates/2030-02-04`, { resource_exception_date: { opening_hours: null } }));
    await must(api.put(`/resources/${chair.id}/exception_dates/2030-02-11`, { resource_exception_date: { opening_hours: ["10:00", "12:00"] } }));
    expect((await api.get(`/services/${cut.id}/slots?from=2030-02-04&to=2030-02-04`)).body).toEqual([]);
    expect(starts((await api.get(`/services/${cut.id}/slots?from=2030-02-11&to=2030-02-11`)).body)).toEqual(["2030-02-11T10:00:00+01:00", "2030-02-11T11:00:00+01:00"]);
  });

  it("keeps only the selected resources", async () => {
    const make = catalogue(api);
    const other = await make.resource({ title: "Other chair", opening_hours_mon: ["18:00", "19:00"], ...closedWeek });
    await make.provider(other.id, cut.id);
    const both = starts((await api.get(`/services/${cut.id}/slots?from=${MONDAY}&to=${MONDAY}`)).body);
    expect(both).toContain(`${MONDAY}T18:00:00+01:00`);
    const only = await api.get(`/services/${cut.id}/slots?from=${MONDAY}&to=${MONDAY}&selected_resources[]=${other.id}`);
    expect(starts(only.body)).toEqual([`${MONDAY}T18:00:00+01:00`]);
    await must(api.delete(`/providers/${(await api.get(`/providers?resource_id=${other.id}`)).body[0].provider.id}`));
  });

  it("answers 400 on to for a reversed or over-long range, and on from for a bad date", async () => {
    expect((await api.get(`/services/${cut.id}/slots?from=2030-01-10&to=2030-01-01`)).body).toEqual({ to: [expect.any(String)] });
    const long = await api.get(`/services/${cut.id}/slots?from=2030-01-01&to=2030-04-30`);
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ to: ["must be at most 92 days after from"] });
    expect((await api.get(`/services/${cut.id}/slots?from=2030-02-30`)).body).toEqual({ from: [expect.any(String)] });
  });

  it("reads the database at most four times, however long the range", async () => {
    for (const to of ["2030-01-07", "2030-04-08"]) {
      const res = await api.get(`/services/${cut.id}/slots?from=2030-01-07&to=${to}`);
      expect(res.status).toBe(200);
      const statements = Number(/d1;desc="(\d+) round trips"/.exec(res.headers.get("server-timing") ?? "")?.[1]);
      expect(statements).toBeGreaterThan(0);
      expect(statements).toBeLessThanOrEqual(4);
    }
  });

  it("answers 404 for another tenant's service", async () => {
    const stranger = (await newAccount()).api;
    expect((await stranger.get(`/services/${cut.id}/slots?from=${MONDAY}`)).status).toBe(404);
  });
});

describe("GET /api/v1/services/{id}/available_dates and next_available_date", () => {
  it("lists the dates with a free slot, to the end of the month by default", async () => {
    const res = await api.get(`/services/${cut.id}/available_dates?from=2030-03-01`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(["2030-03-04", "2030-03-11", "2030-03-18", "2030-03-25"].map((date) => ({ available_date: { date } })));
  });

  it("finds the next date with a free slot, skipping a closed day", async () => {
    expect((await api.get(`/services/${cut.id}/next_available_date?from=2030-03-01`)).body).toEqual([{ available_date: "2030-03-04" }]);
    await must(api.put(`/resources/${chair.id}/exception_dates/2030-03-04`, { resource_exception_date: { opening_hours: null } }));
    expect((await api.get(`/services/${cut.id}/next_available_date?from=2030-03-01`)).body).toEqual([{ available_date: "2030-03-11" }]);
  });

  it("answers an empty list when nothing is free within 30 days", async () => {
    const make = catalogue(api);
    const never = await make.service({ title: "Never" });
    expect((await api.get(`/services/${never.id}/next_available_date?from=2030-03-01`)).body).toEqual([]);
  });
});

describe("slots across DST changes", () => {
  it("skips the hour Oslo's clocks jump over and carries the new offset", async () => {
    const mine = await newAccount({ time_zone: "Europe/Oslo" });
    const make = catalogue(mine.api);
    const room = await make.resource({ opening_hours_sun: ["01:00", "05:00"] });
    const svc = await make.service({ interval: 60 });
    await make.provider(room.id, svc.id);
    const res = await mine.api.get(`/services/${svc.id}/slots?from=2030-03-31&to=2030-03-31`);
    expect(starts(res.body)).toEqual(["2030-03-31T01:00:00+01:00", "2030-03-31T03:00:00+02:00", "2030-03-31T04:00:00+02:00"]);
  });

  it("keeps wall-clock times in New York on the autumn change day", async () => {
    const mine = await newAccount({ time_zone: "America/New_York", country_code: "US" });
    const make = catalogue(mine.api);
    const room = await make.resource({ opening_hours_sun: ["09:00", "11:00"] });
    const svc = await make.service({ interval: 60 });
    await make.provider(room.id, svc.id);
    const res = await mine.api.get(`/services/${svc.id}/slots?from=2030-11-03&to=2030-11-03`);
    expect(starts(res.body)).toEqual(["2030-11-03T09:00:00-05:00", "2030-11-03T10:00:00-05:00"]);
  });
});

describe("attendance services", () => {
  it("offers their events as slots with the seats left", async () => {
    const make = catalogue(api);
    const studio = await make.resource({ title: "Studio", capacity: 20 });
    const yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
    const eventId = await make.event({ resourceId: studio.id, serviceId: yoga.id, capacity: 3, starts: "2030-05-06 18:00", ends: "2030-05-06 19:00" });
    await make.event({ resourceId: studio.id, serviceId: yoga.id, capacity: 3, starts: "2030-05-06 20:00", ends: "2030-05-06 21:00", published: false });
    await must(api.post("/bookings", { booking: { event_id: eventId, count: 2 } }));
    const res = await api.get(`/services/${yoga.id}/slots?from=2030-05-06&to=2030-05-06`);
    expect(res.body[0]).toEqual({
      slot: expect.objectContaining({ timestamp: "2030-05-06T18:00:00+02:00", free: 1, available_resources: [studio.id], maximum_capacity: 3 }),
    });
    // The booking site shows published events only.
    const pub = await site.get(`/services/${yoga.id}/slots?from=2030-05-06&to=2030-05-06`);
    expect(starts(pub.body)).toEqual(["2030-05-06T18:00:00+02:00"]);
    expect(starts(res.body)).toHaveLength(2);
  });
});

describe("public GET /services/{id}/slots", () => {
  it("serves the same slots on the booking site, and 404 for an inactive service", async () => {
    const res = await site.get(`/services/${cut.id}/slots?from=${MONDAY}&to=${MONDAY}`);
    expect(res.status).toBe(200);
    expect(starts(res.body)[0]).toBe(`${MONDAY}T09:00:00+01:00`);
    const make = catalogue(api);
    const gone = await make.service({ title: "Gone" });
    await must(api.delete(`/services/${gone.id}`));
    expect((await site.get(`/services/${gone.id}/slots?from=${MONDAY}`)).status).toBe(404);
    expect((await site.get(`/services/${cut.id}/available_dates?from=2030-03-01`)).status).toBe(200);
    expect((await site.get(`/services/${cut.id}/next_available_date?from=2030-03-01`)).status).toBe(200);
  });
});
