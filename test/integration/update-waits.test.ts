// PUT /bookings/{id} waits at most twice in sequence on a warm isolate (issue 33,
// docs/decisions/latency.md "Updates at distance"): the booking with every reference it could need
// in one batch beside the limiters, then one write that reads the booking back with its related
// rows. Each variant is asked twice, on two bookings, so the second meets a warm isolate.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { costOf } from "../support/server-timing";

let api: Client;
let make: ReturnType<typeof catalogue>;
let room: any;
let hall: any;
let cut: any;
let long: any;
let yoga: any;

beforeAll(async () => {
  api = (await newAccount()).api;
  make = catalogue(api);
  room = await make.resource({ title: "Room" });
  hall = await make.resource({ title: "Hall", capacity: 3 });
  cut = await make.service({ title: "Cut", interval: 60 });
  long = await make.service({ title: "Long", interval: 60, buffer_after: 15 });
  yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
  for (const [r, s] of [[room, cut], [hall, cut], [room, long], [hall, yoga]]) await make.provider(r.id, s.id);
});

let day = 0;
/** A day of its own per booking, so no variant collides with another's bookings. */
function nextDay(): string {
  day += 1;
  return new Date(Date.UTC(2031, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
}
const hours = (date: string, from: string, to: string) => ({ booked_from: `${date} ${from}`, booked_to: `${date} ${to}` });

type Put = { status: number; headers: Headers; body: any };

/**
 * Makes two bookings with `prepare`, changes the first (warming the isolate for this kind of
 * change) and then the second, and answers the second's answer with the booking as a GET reads it.
 */
async function twice(prepare: () => Promise<{ id: number; date: string }>, change: (made: { id: number; date: string }) => Record<string, unknown>, extended = false) {
  const first = await prepare();
  const second = await prepare();
  const body = (made: { id: number; date: string }) => ({ ...change(made), ...(extended ? { extended } : {}) });
  const warm = await api.put(`/bookings/${first.id}`, body(first));
  expect(warm.status, JSON.stringify(warm.body)).toBe(200);
  const res: Put = await api.put(`/bookings/${second.id}`, body(second));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const read = await must(api.get(`/bookings/${second.id}${extended ? "?extended=true" : ""}`));
  return { res, read, cost: costOf(res.headers) };
}

const onRoom = async (extra: Record<string, unknown> = {}) => {
  const date = nextDay();
  const booking = await make.booking({ resource_id: room.id, service_id: cut.id, ...hours(date, "10:00", "11:00"), ...extra });
  return { id: booking.id as number, date };
};

describe("PUT /api/v1/bookings/{id}: sequential waits (warm isolate)", () => {
  it("an attribute change", async () => {
    const { res, read, cost } = await twice(() => onRoom(), () => ({ booking: { title: "Renamed", notes: "n" } }));
    console.log("title", cost);
    expect(res.body).toEqual(read);
  });

  it("a move in time", async () => {
    const { res, read, cost } = await twice(() => onRoom(), ({ date }) => ({ booking: hours(date, "12:00", "13:00") }));
    console.log("move", cost);
    expect(res.body).toEqual(read);
  });

  it("a move to another resource", async () => {
    const { res, read, cost } = await twice(() => onRoom(), () => ({ booking: { resource_id: hall.id } }));
    console.log("resource", cost);
    expect(res.body).toEqual(read);
  });

  it("a change of service (new buffers)", async () => {
    const { res, read, cost } = await twice(() => onRoom(), () => ({ booking: { service_id: long.id } }));
    console.log("service", cost);
    expect(res.body).toEqual(read);
  });

  it("a change of count", async () => {
    const { res, read, cost } = await twice(() => onRoom({ resource_id: hall.id }), () => ({ booking: { count: 2 } }));
    console.log("count", cost);
    expect(res.body).toEqual(read);
  });

  it("ignore_capacity", async () => {
    const { res, read, cost } = await twice(() => onRoom(), ({ date }) => ({ booking: hours(date, "14:00", "15:00"), ignore_capacity: true }));
    console.log("ignore", cost);
    expect(res.body).toEqual(read);
  });

  it("an event booking: title and count", async () => {
    const event = async () => {
      const date = nextDay();
      const eventId = await make.event({ resourceId: hall.id, serviceId: yoga.id, capacity: 5, starts: `${date} 18:00`, ends: `${date} 19:00` });
      const booking = await make.booking({ event_id: eventId });
      return { id: booking.id as number, date };
    };
    const title = await twice(event, () => ({ booking: { title: "Front row" } }), true);
    console.log("event title", title.cost);
    expect(title.res.body).toEqual(title.read);
    const count = await twice(event, () => ({ booking: { count: 3 } }), true);
    console.log("event count", count.cost);
    expect(count.res.body).toEqual(count.read);
  });

  it("person_id", async () => {
    const person = await make.person({ name: "Per" });
    const { res, read, cost } = await twice(() => onRoom(), () => ({ booking: { person_id: person.id } }));
    console.log("person_id", cost);
    expect(res.body).toEqual(read);
  });

  it("a new person, with and without a move", async () => {
    let n = 0;
    const plain = await twice(() => onRoom(), () => ({ booking: { person_attributes: { name: "New", email: `new${n++}@example.com` } } }));
    console.log("new person", plain.cost);
    expect(plain.res.body).toEqual(plain.read);
    const moving = await twice(() => onRoom(), ({ date }) => ({ booking: { ...hours(date, "12:00", "13:00"), person_attributes: { name: "New", email: `new${n++}@example.com` } } }));
    console.log("new person move", moving.cost);
    expect(moving.res.body).toEqual(moving.read);
  });

  it("a matched person with attributes to fill, with and without a move", async () => {
    let n = 0;
    const fill = async (move: boolean) => twice(() => onRoom(), ({ date }) => {
      n += 1;
      return { booking: { ...(move ? hours(date, "12:00", "13:00") : {}), person_attributes: { email: `known${n}@example.com`, phone_number: `+479100000${n}` } } };
    });
    for (let i = 1; i <= 4; i++) await make.person({ name: `Known ${i}`, email: `known${i}@example.com` });
    const plain = await fill(false);
    console.log("fill", plain.cost);
    expect(plain.res.body).toEqual(plain.read);
    const moving = await fill(true);
    console.log("fill move", moving.cost);
    expect(moving.res.body).toEqual(moving.read);
  });

  it("an unchanged PUT of the whole object", async () => {
    const { res, read, cost } = await twice(() => onRoom(), ({ date }) => ({ booking: { ...hours(date, "10:00", "11:00"), resource_id: room.id, service_id: cut.id, count: 1 } }));
    console.log("unchanged", cost);
    expect(res.body).toEqual(read);
  });
});
