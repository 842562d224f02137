// Buffers between appointments (issue 22, docs/decisions/buffers.md): a booking of a service with
// buffers holds its resource from booked_from − buffer_before to booked_to + buffer_after, and every
// reader of capacity (the guarded write, the refusal memo, slots and their cached answers, recurring
// bookings) agrees; the booking's own times stay the customer's.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { runQueue } from "../support/queues";

const FULL = { booked_from: ["is not available: the resource is fully booked at this time"] };

let api: Client;
let make: ReturnType<typeof catalogue>;
let accountId: number;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  make = catalogue(api);
});

/** A resource with a service it alone provides; `hours` every day. */
async function setUp(client: Client, service: Record<string, unknown>, resource: Record<string, unknown> = {}) {
  const m = catalogue(client);
  const r = await m.resource(resource);
  const s = await m.service({ title: "Haircut", ...service });
  await m.provider(r.id, s.id);
  return { resource: r, service: s };
}

const book = (client: Client, resourceId: number, serviceId: number | null, from: string, to: string) =>
  client.post("/bookings", { booking: { resource_id: resourceId, ...(serviceId ? { service_id: serviceId } : {}), booked_from: from, booked_to: to } });

const slotsOf = async (client: Client, serviceId: number, date: string) =>
  (await must(client.get(`/services/${serviceId}/slots?from=${date}&to=${date}`))).map((e: any) => e.slot);
const datesOf = async (client: Client, serviceId: number, date: string) =>
  (await must(client.get(`/services/${serviceId}/available_dates?from=${date}&to=${date}`))).map((e: any) => e.available_date.date);
const freeStarts = (slots: any[]) => slots.filter((s) => s.free > 0).map((s) => s.timestamp.slice(11, 16));

describe("services' buffers", () => {
  it("are 0 unless set, and take whole minutes from 0 to 24 hours", async () => {
    const plain = await make.service({ title: "Plain" });
    expect(plain).toMatchObject({ buffer_before: 0, buffer_after: 0 });
    const set = await make.service({ title: "Set", buffer_before: "15", buffer_after: 1440 });
    expect(set).toMatchObject({ buffer_before: 15, buffer_after: 1440 });
    for (const [attribute, value] of [
      ["buffer_before", -1],
      ["buffer_after", 1441],
      ["buffer_before", "ten"],
      ["buffer_after", 1.5],
      ["buffer_before", null],
    ] as const) {
      const res = await api.post("/services", { service: { title: "Bad", [attribute]: value } });
      expect(res.status, `${attribute}=${value}`).toBe(400);
      expect(Object.keys(res.body)).toEqual([attribute]);
    }
    const updated = await must(api.put(`/services/${set.id}`, { service: { buffer_after: 10 } }));
    expect(updated.service).toMatchObject({ buffer_before: 15, buffer_after: 10 });
    expect((await api.put(`/services/${set.id}`, { service: { buffer_after: 100_000 } })).status).toBe(400);
  });
});

describe("back-to-back bookings", () => {
  it("are refused when a buffer overlaps and accepted when none does; times stay the customer's", async () => {
    const { resource, service } = await setUp(api, { buffer_after: 10 });
    const first = await must(book(api, resource.id, service.id, "2030-01-07 10:00", "2030-01-07 11:00"));
    expect(first.booking).toMatchObject({ booked_from: "2030-01-07T10:00:00+01:00", booked_to: "2030-01-07T11:00:00+01:00" });
    expect(first.booking).not.toHaveProperty("buffer_after");
    const touching = await book(api, resource.id, service.id, "2030-01-07 11:00", "2030-01-07 12:00");
    expect([touching.status, touching.body]).toEqual([400, FULL]);
    // Refused again from memory, still refused.
    expect((await book(api, resource.id, service.id, "2030-01-07 11:00", "2030-01-07 12:00")).status).toBe(400);
    // A booking's own buffer after reaches forward: 08:55–09:55 would run into 10:00 only with 10 minutes after it.
    expect((await book(api, resource.id, service.id, "2030-01-07 08:55", "2030-01-07 09:55")).status).toBe(400);
    await must(book(api, resource.id, service.id, "2030-01-07 08:50", "2030-01-07 09:50"));
    await must(book(api, resource.id, service.id, "2030-01-07 11:10", "2030-01-07 12:10"));
    expect(await rawBooking(first.booking.id)).toMatchObject({ buffer_before: 0, buffer_after: 10 });
  });

  it("counts a buffer before against a booking without buffers", async () => {
    const { resource, service } = await setUp(api, { buffer_before: 15 });
    await must(book(api, resource.id, null, "2030-01-07 10:00", "2030-01-07 11:00"));
    expect((await book(api, resource.id, service.id, "2030-01-07 11:00", "2030-01-07 12:00")).body).toEqual(FULL);
    // A buffer before reaches back only: 08:45–09:45 ends where the booking at 10:00 is still 15 minutes away.
    await must(book(api, resource.id, service.id, "2030-01-07 08:45", "2030-01-07 09:45"));
    await must(book(api, resource.id, service.id, "2030-01-07 11:15", "2030-01-07 12:15"));
  });

  it("frees the buffer when the booking is cancelled, past a remembered refusal", async () => {
    const { resource, service } = await setUp(api, { buffer_after: 30 });
    const first = await must(book(api, resource.id, service.id, "2030-01-07 10:00", "2030-01-07 11:00"));
    expect((await book(api, resource.id, service.id, "2030-01-07 11:00", "2030-01-07 12:00")).status).toBe(400);
    await must(api.put(`/bookings/${first.booking.id}/cancel`, {}));
    await must(book(api, resource.id, service.id, "2030-01-07 11:00", "2030-01-07 12:00"));
  });

  it("moves a booking only where its buffers fit, and keeps the buffers it was made with", async () => {
    const { resource, service } = await setUp(api, { buffer_after: 30 });
    await must(book(api, resource.id, service.id, "2030-01-07 10:00", "2030-01-07 11:00"));
    const other = await must(book(api, resource.id, service.id, "2030-01-07 14:00", "2030-01-07 15:00"));
    const moved = await api.put(`/bookings/${other.booking.id}`, { booking: { booked_from: "2030-01-07 11:15", booked_to: "2030-01-07 12:00" } });
    expect([moved.status, moved.body]).toEqual([400, FULL]);
    // Its own buffer after runs into 12:00 only while it keeps 30 minutes.
    await must(book(api, resource.id, null, "2030-01-07 13:00", "2030-01-07 13:30"));
    expect((await api.put(`/bookings/${other.booking.id}`, { booking: { booked_from: "2030-01-07 11:30", booked_to: "2030-01-07 12:45" } })).body).toEqual(FULL);
    await must(api.put(`/bookings/${other.booking.id}`, { booking: { booked_from: "2030-01-07 11:30", booked_to: "2030-01-07 12:30" } }));
    // A later change of the service does not move what existing bookings hold (a snapshot).
    await must(api.put(`/services/${service.id}`, { service: { buffer_after: 0 } }));
    expect((await book(api, resource.id, null, "2030-01-07 12:30", "2030-01-07 12:45")).body).toEqual(FULL);
    await must(book(api, resource.id, null, "2030-01-07 16:00", "2030-01-07 16:30"));
  });
});

describe("slots with buffers", () => {
  it("offer only slots whose buffered span is free, and the booking's buffers hold against every service", async () => {
    const { resource, service } = await setUp(api, { buffer_after: 30 }, { opening_hours_mon: ["09:00", "13:00"] });
    const plain = await make.service({ title: "No buffers" });
    await make.provider(resource.id, plain.id);
    const before = freeStarts(await slotsOf(api, service.id, "2030-01-07"));
    expect(before).toEqual(["09:00", "10:00", "11:00", "12:00"]);
    await must(book(api, resource.id, service.id, "2030-01-07 10:00", "2030-01-07 11:00"));
    // 09:00 needs 10:30 free; 11:00 starts inside the 10:00 booking's buffer.
    expect(freeStarts(await slotsOf(api, service.id, "2030-01-07"))).toEqual(["11:30"]);
    const withoutBuffers = freeStarts(await slotsOf(api, plain.id, "2030-01-07"));
    expect(withoutBuffers).toContain("09:00");
    expect(withoutBuffers).not.toContain("11:00");
    // What slots offer, the booking accepts.
    await must(book(api, resource.id, plain.id, "2030-01-07 09:00", "2030-01-07 10:00"));
    await must(book(api, resource.id, service.id, "2030-01-07 11:30", "2030-01-07 12:30"));
  });

  it("let a buffer after reach past closing time", async () => {
    const mine = await newAccount();
    const { resource, service } = await setUp(mine.api, { buffer_after: 30 }, { opening_hours_mon: ["09:00", "12:00"] });
    expect(freeStarts(await slotsOf(mine.api, service.id, "2030-01-07"))).toContain("11:00");
    const res = await mine.api.post("/bookings", {
      booking: { resource_id: resource.id, service_id: service.id, booked_from: "2030-01-07 11:00", booked_to: "2030-01-07 12:00", public_booking: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("see a buffer from the day before in a cached answer, and available dates and the next date agree", async () => {
    const mine = await newAccount();
    const allDay = Object.fromEntries(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [`opening_hours_${d}`, ["00:00", "24:00"]]));
    const { resource, service } = await setUp(mine.api, { buffer_after: 120, interval: 60 }, allDay);
    await must(mine.api.put(`/resources/${resource.id}`, { resource: { opening_hours_tue: ["00:00", "02:00"] } }));
    const tuesday = await slotsOf(mine.api, service.id, "2030-01-08");
    expect(freeStarts(tuesday)).toEqual(["00:00", "01:00"]);
    expect(await datesOf(mine.api, service.id, "2030-01-08")).toEqual(["2030-01-08"]);
    // 23:00–23:59 on Monday holds the resource until 01:59 on Tuesday.
    await must(book(mine.api, resource.id, service.id, "2030-01-07 22:59", "2030-01-07 23:59"));
    const after = await slotsOf(mine.api, service.id, "2030-01-08");
    expect(freeStarts(after)).toEqual([]);
    expect(await datesOf(mine.api, service.id, "2030-01-08")).toEqual([]);
    const next = await must(mine.api.get(`/services/${service.id}/next_available_date?from=2030-01-08`));
    expect(JSON.stringify(next)).not.toContain("2030-01-08");
  });
});

describe("buffers across DST changes", () => {
  const allDay = Object.fromEntries(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [`opening_hours_${d}`, ["00:00", "24:00"]]));

  it.each([
    ["Europe/Oslo", "2030-03-31"],
    ["America/New_York", "2030-03-10"],
  ])("%s: a buffer is real minutes, so an hour after 01:00–01:30 on %s ends at 03:30", async (zone, date) => {
    const mine = await newAccount({ time_zone: zone, country_code: zone === "Europe/Oslo" ? "NO" : "US" });
    const { resource, service } = await setUp(mine.api, { buffer_after: 60, interval: 30 }, allDay);
    await must(book(mine.api, resource.id, service.id, `${date} 01:00`, `${date} 01:30`));
    // 02:00–03:00 does not exist that night: 01:30 + 60 minutes is 03:30 on the wall clock.
    expect((await book(mine.api, resource.id, null, `${date} 03:00`, `${date} 03:29`)).body).toEqual(FULL);
    await must(book(mine.api, resource.id, null, `${date} 03:30`, `${date} 04:00`));
    const free = freeStarts(await slotsOf(mine.api, service.id, date));
    expect(free).not.toContain("03:00");
    expect(free).toContain("04:30");
  });

  it("Europe/Oslo: 90 minutes before 03:30 on the night the clocks go back reach the second 02:00, not the first", async () => {
    const mine = await newAccount({ time_zone: "Europe/Oslo" });
    const { resource, service } = await setUp(mine.api, { buffer_before: 90 }, allDay);
    // 03:30 CET is 02:30 UTC; 90 minutes before is 01:00 UTC, 02:00 CET (the second 02:00).
    await must(book(mine.api, resource.id, service.id, "2030-10-27T03:30:00+01:00", "2030-10-27T04:00:00+01:00"));
    expect((await book(mine.api, resource.id, null, "2030-10-27T02:30:00+01:00", "2030-10-27T02:40:00+01:00")).body).toEqual(FULL);
    await must(book(mine.api, resource.id, null, "2030-10-27T02:00:00+02:00", "2030-10-27T02:59:00+02:00"));
  });
});

describe("a 50-way race with buffers", () => {
  it("lets exactly one of 50 parallel bookings take the last seat a buffer leaves", async () => {
    const { resource, service } = await setUp(api, { buffer_before: 15, buffer_after: 15 }, { capacity: 2 });
    await must(book(api, resource.id, service.id, "2030-01-07 10:00", "2030-01-07 11:00"));
    // 11:00–12:00 with 15 minutes before overlaps the first booking's buffer: one seat is left.
    const results = await Promise.all(Array.from({ length: 50 }, () => book(api, resource.id, service.id, "2030-01-07 11:00", "2030-01-07 12:00")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).map((r) => r.body)).toEqual(Array(49).fill(FULL));
    // Both seats are held over 10:45–11:15 only: a slot is free exactly when its buffered span avoids that.
    const free = freeStarts(await slotsOf(api, service.id, "2030-01-07"));
    expect(free.filter((t) => t > "09:30" && t < "11:30")).toEqual([]);
    expect(free).toContain("11:30");
  });
});

describe("recurring bookings with buffers", () => {
  it("skip an occurrence whose buffer overlaps a booking", async () => {
    const { resource, service } = await setUp(api, { buffer_after: 30 });
    await must(book(api, resource.id, null, "2030-01-14 11:15", "2030-01-14 11:45"));
    const { collection_id } = await must(
      api.post("/bookings/recurring", {
        booking: { resource_id: resource.id, service_id: service.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" },
        recurring: { rrule: "FREQ=WEEKLY;COUNT=3" },
      }),
    );
    await runQueue("booking-recurrence", [{ collection_id, account_id: accountId, from: 0 }]);
    const status = (await must(api.get(`/bookings/recurring/${collection_id}/status`))).recurring_collection;
    expect(status).toMatchObject({ created: 2, skipped: [{ booked_from: "2030-01-14T10:00:00+01:00", errors: FULL }] });
  });
});

describe("an account that keeps buffers inside opening hours", () => {
  it("offers and takes only times whose buffers fit the hours, and says so as it does for closed hours", async () => {
    const { api: mine, account } = await newAccount();
    const { resource, service } = await setUp(mine, { interval: 60, buffer_before: 30, buffer_after: 30 }, { opening_hours_mon: ["09:00", "12:00"] });
    const site = publicSite(account.subdomain);
    const visit = (from: string, to: string) =>
      site.post("/bookings", { booking: { service_id: service.id, booked_from: from, booked_to: to, person_attributes: { name: "Kari", email: "kari@example.com" } } });
    expect(freeStarts(await slotsOf(mine, service.id, "2030-01-07"))).toEqual(["09:00", "10:00", "11:00"]);
    await must(mine.put("/client", { client: { buffers_within_opening_hours: true } }));
    expect(freeStarts(await slotsOf(mine, service.id, "2030-01-07"))).toEqual(["09:30", "10:30"]);
    const early = await visit("2030-01-07 09:00", "2030-01-07 10:00");
    expect([early.status, early.body]).toEqual([400, { booked_from: ["is outside the resource's opening hours"] }]);
    await must(visit("2030-01-07 09:30", "2030-01-07 10:30"));
    // The private API books outside opening hours as it always has.
    await must(book(mine, resource.id, null, "2030-01-07 11:30", "2030-01-07 13:00"));
  });
});
