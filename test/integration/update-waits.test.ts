// PUT /bookings/{id} waits at most twice in sequence on a warm isolate (issue 33,
// docs/decisions/latency.md "Updates at distance"): the booking with every row its change could
// need in one batch beside the limiters, then one write that reads the booking back with its
// related rows, through the capacity guard when the change takes capacity and as one D1 batch
// when it takes none. Each variant is asked twice, on two bookings, so the second meets an isolate
// warm for that kind of change; its answer must be the booking as a GET then reads it.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDb } from "../../src/db/client";
import { accounts } from "../../src/db/schema";
import type { Deps } from "../../src/env";
import { durableCapacityGuard, type CapacityGuard } from "../../src/durable-objects/guard-client";
import { createBooking, updateBooking } from "../../src/features/bookings/service";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { paidShop } from "../support/payments";
import { costOf } from "../support/server-timing";

let api: Client;
let accountId: number;
let make: ReturnType<typeof catalogue>;
let room: any;
let hall: any;
let cut: any;
let long: any;
let yoga: any;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  make = catalogue(api);
  room = await make.resource({ title: "Room" });
  hall = await make.resource({ title: "Hall", capacity: 3 });
  cut = await make.service({ title: "Cut", interval: 60 });
  long = await make.service({ title: "Long", interval: 60, buffer_after: 15 });
  yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
  for (const [r, s] of [
    [room, cut],
    [hall, cut],
    [room, long],
    [hall, yoga],
  ])
    await make.provider(r.id, s.id);
});

let day = 0;
/** A day of its own per booking, so no variant collides with another's bookings. */
function nextDay(): string {
  day += 1;
  return new Date(Date.UTC(2031, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
}
const hours = (date: string, from: string, to: string) => ({ booked_from: `${date} ${from}`, booked_to: `${date} ${to}` });

type Made = { id: number; date: string };
type Answer = { status: number; headers: Headers; body: any };

/**
 * Makes two bookings with `prepare`, changes the first (warming the isolate for this kind of
 * change) and then the second; answers the second's answer, its cost, and the booking as a GET reads it.
 */
async function twice(prepare: () => Promise<Made>, change: (made: Made) => Record<string, unknown>, opts: { client?: Client; extended?: boolean } = {}) {
  const client = opts.client ?? api;
  const body = (made: Made) => ({ ...change(made), ...(opts.extended ? { extended: true } : {}) });
  const first = await prepare();
  const second = await prepare();
  const warm = await client.put(`/bookings/${first.id}`, body(first));
  expect(warm.status, JSON.stringify(warm.body)).toBe(200);
  const res: Answer = await client.put(`/bookings/${second.id}`, body(second));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const read = await must(client.get(`/bookings/${second.id}${opts.extended ? "?extended=true" : ""}`));
  return { res, read, cost: costOf(res.headers) };
}

const onRoom = async (extra: Record<string, unknown> = {}): Promise<Made> => {
  const date = nextDay();
  const booking = await make.booking({ resource_id: room.id, service_id: cut.id, ...hours(date, "10:00", "11:00"), ...extra });
  return { id: booking.id as number, date };
};

/** The reads beside the limiters, then one D1 batch: a change that takes no capacity. */
const READ_THEN_D1 = { waits: 2, d1Waits: 2, doWaits: 0, roundTrips: 2, doCalls: 2 };
/** The reads beside the limiters, then the capacity guard's batch: a change that takes capacity. */
const READ_THEN_GUARD = { waits: 2, d1Waits: 1, doWaits: 1, roundTrips: 1, doCalls: 3 };

describe("PUT /api/v1/bookings/{id}: two waits in sequence (warm isolate)", () => {
  // Before issue 33: 6 waits (read, service, write, re-read, related rows for the effects and again for the answer).
  it("an attribute change: the reads, then the compare-and-swap and the read-back in one D1 batch", async () => {
    const { res, read, cost } = await twice(
      () => onRoom(),
      () => ({ booking: { title: "Renamed", notes: "n", custom_data: { a: "1" } }, modification_send_email: false }),
    );
    expect(res.body.booking).toMatchObject({ title: "Renamed", notes: "n", custom_data: { a: "1" } });
    expect(res.body).toEqual(read);
    expect(cost).toMatchObject(READ_THEN_D1);
  });

  // Before: 7 (6 D1 and the guard); 8 for another resource (its read too).
  it("a move in time, to another resource, to another service (new buffers), a larger count: the reads, then the guard's batch", async () => {
    const cases: [string, (made: Made) => Record<string, unknown>, () => Promise<Made>][] = [
      ["time", ({ date }) => ({ booking: hours(date, "12:00", "13:00") }), () => onRoom()],
      ["resource", () => ({ booking: { resource_id: hall.id } }), () => onRoom()],
      ["service", () => ({ booking: { service_id: long.id } }), () => onRoom()],
      ["count", () => ({ booking: { count: 2 } }), () => onRoom({ resource_id: hall.id })],
    ];
    for (const [name, change, prepare] of cases) {
      const { res, read, cost } = await twice(prepare, change, { extended: true });
      expect(res.body, name).toEqual(read);
      expect(cost, name).toMatchObject(READ_THEN_GUARD);
    }
  });

  it("ignore_capacity, an inactive booking's move and an unchanged PUT of the whole object: no guard", async () => {
    const forced = await twice(
      () => onRoom(),
      ({ date }) => ({ booking: hours(date, "14:00", "15:00"), ignore_capacity: true }),
    );
    expect(forced.res.body).toEqual(forced.read);
    expect(forced.cost).toMatchObject(READ_THEN_D1);
    const cancelled = async () => {
      const made = await onRoom();
      await must(api.put(`/bookings/${made.id}/cancel`));
      return made;
    };
    const inactive = await twice(cancelled, ({ date }) => ({ booking: hours(date, "16:00", "17:00") }));
    expect(inactive.res.body.booking).toMatchObject({ state: "cancelled", booked_to: expect.stringContaining("T17:00") });
    expect(inactive.res.body).toEqual(inactive.read);
    expect(inactive.cost).toMatchObject(READ_THEN_D1);
    const same = await twice(
      () => onRoom(),
      ({ date }) => ({ booking: { ...hours(date, "10:00", "11:00"), resource_id: room.id, service_id: cut.id, count: 1 } }),
    );
    expect(same.res.body).toEqual(same.read);
    expect(same.cost).toMatchObject(READ_THEN_D1);
  });

  it("an event booking: a title through D1, a count through the event's guard, seats held read back", async () => {
    const onEvent = async (): Promise<Made> => {
      const date = nextDay();
      const eventId = await make.event({ resourceId: hall.id, serviceId: yoga.id, capacity: 5, starts: `${date} 18:00`, ends: `${date} 19:00` });
      return { id: (await make.booking({ event_id: eventId }, { count: 1 })).id, date };
    };
    const title = await twice(onEvent, () => ({ booking: { title: "Front row" } }), { extended: true });
    expect(title.res.body).toEqual(title.read);
    expect(title.cost).toMatchObject(READ_THEN_D1);
    const count = await twice(onEvent, () => ({ booking: { count: 3 } }), { extended: true });
    expect(count.res.body.booking.event.availability).toBeDefined();
    expect(count.res.body).toEqual(count.read);
    expect(count.cost).toMatchObject(READ_THEN_GUARD);
  });

  // Before: person_id 7; a new person 8 (9 with a move); a matched person with a fill 8 (9 with a move).
  it("person_id, a new person and a matched person with attributes to fill: their reads in the first batch, their writes in the second", async () => {
    const per = await make.person({ name: "Per" });
    const linked = await twice(
      () => onRoom(),
      () => ({ booking: { person_id: per.id } }),
    );
    expect(linked.res.body.booking.person).toMatchObject({ id: per.id, name: "Per" });
    expect(linked.res.body).toEqual(linked.read);
    expect(linked.cost).toMatchObject(READ_THEN_D1);

    let n = 0;
    const fresh = (move: boolean) =>
      twice(
        () => onRoom(),
        ({ date }) => ({
          booking: { ...(move ? hours(date, "12:00", "13:00") : {}), person_attributes: { name: "New", email: `new${++n}-${accountId}@example.com` } },
        }),
      );
    for (const [move, expected] of [
      [false, READ_THEN_D1],
      [true, READ_THEN_GUARD],
    ] as const) {
      const { res, read, cost } = await fresh(move);
      expect(res.body.booking.person).toMatchObject({ id: res.body.booking.person_id, name: "New", email: `new${n}-${accountId}@example.com` });
      expect(res.body).toEqual(read);
      expect(cost).toMatchObject(expected);
    }

    let k = 0;
    for (let i = 1; i <= 4; i++) await make.person({ name: `Known ${i}`, email: `known${i}-${accountId}@example.com` });
    const filling = (move: boolean) =>
      twice(
        () => onRoom(),
        ({ date }) => {
          k += 1;
          return {
            booking: {
              ...(move ? hours(date, "12:00", "13:00") : {}),
              person_attributes: { email: `known${k}-${accountId}@example.com`, phone_number: `+4791000${String(k).padStart(3, "0")}` },
            },
          };
        },
      );
    for (const [move, expected] of [
      [false, READ_THEN_D1],
      [true, READ_THEN_GUARD],
    ] as const) {
      const { res, read, cost } = await filling(move);
      expect(res.body.booking.person).toMatchObject({ name: `Known ${k}`, phone_number: `+4791000${String(k).padStart(3, "0")}` });
      expect(res.body).toEqual(read);
      expect(cost).toMatchObject(expected);
    }
  });

  it("a booking awaiting its payment: a title and a move", async () => {
    const shop = await paidShop({ capacity: 2 });
    const paid = async (): Promise<Made> => {
      const date = nextDay();
      const created = await must(
        shop.api.post("/bookings", { booking: { service_id: shop.cut.id, resource_id: shop.room.id, ...hours(date, "10:00", "11:00") }, checkout: true }),
      );
      expect(created.booking.state).toBe("awaiting_payment");
      return { id: created.booking.id, date };
    };
    const title = await twice(paid, () => ({ booking: { title: "Paid" } }), { client: shop.api });
    expect(title.res.body.booking.payment).toMatchObject({ status: "pending" });
    expect(title.res.body).toEqual(title.read);
    expect(title.cost).toMatchObject(READ_THEN_D1);
    const moved = await twice(paid, ({ date }) => ({ booking: hours(date, "12:00", "13:00") }), { client: shop.api });
    expect(moved.res.body).toEqual(moved.read);
    expect(moved.cost).toMatchObject(READ_THEN_GUARD);
  });
});

describe("PUT /api/v1/bookings/{id} refused: the reason from the write's own batch", () => {
  it("a move into a full slot: 400 in two waits, nothing written, no new person, no fill", async () => {
    const date = nextDay();
    await make.booking({ resource_id: room.id, ...hours(date, "12:00", "13:00") });
    const known = await make.person({ name: "Refused", email: `refused-${accountId}@example.com` });
    const peopleBefore = await peopleOf(accountId);
    for (const person_attributes of [undefined, { name: "Nobody", email: `nobody-${accountId}@example.com` }, { email: known.email, phone_number: "+4798765432" }]) {
      const made = await onRoom({ title: "Stays" });
      const res = await api.put(`/bookings/${made.id}`, { booking: { ...hours(date, "12:30", "13:30"), title: "Moved", person_attributes } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ booked_from: ["is not available: the resource is fully booked at this time"] });
      expect(costOf(res.headers)).toMatchObject(READ_THEN_GUARD);
      expect((await rawBooking(made.id))!).toMatchObject({ title: "Stays", person_id: null });
    }
    expect(await peopleOf(accountId)).toBe(peopleBefore);
    expect((await must(api.get(`/people/${known.id}`))).person.phone_number).toBeNull();
  });

  it("answers 404 for another account's booking, and the booking's own 400s before the person's", async () => {
    const made = await onRoom({ title: "Mine" });
    const other = (await newAccount()).api;
    expect((await other.put(`/bookings/${made.id}`, { booking: { title: "Theirs" } })).status).toBe(404);
    const both = await api.put(`/bookings/${made.id}`, { booking: { booked_to: "2020-01-01 00:00", person_attributes: { email: "not-an-email" } } });
    expect(both.body).toEqual({ booked_to: ["must be after booked_from"] });
    const person = await api.put(`/bookings/${made.id}`, { booking: { title: "x", person_attributes: { email: "not-an-email" } } });
    expect(person.body).toEqual({ person: ["is invalid"], person_attributes: { email: ["is not a valid email address"] } });
    expect((await rawBooking(made.id))!.title).toBe("Mine");
  });
});

const peopleOf = async (account: number) =>
  Number((await env.DB.prepare("SELECT COUNT(*) AS n FROM people WHERE account_id = ?").bind(account).first<{ n: number }>("n")) ?? 0);

/**
 * The update's service with a guard that lets `meanwhile` run just before the write, as another
 * request would between the update's reads and its write.
 */
async function racedDeps(meanwhile: () => Promise<unknown>): Promise<Deps> {
  const db = openDb(env.DB);
  const account = (await db.query.accounts.findFirst({ where: eq(accounts.id, accountId) }))!;
  const real = durableCapacityGuard(env, "DB");
  const racing: CapacityGuard = {
    apply: async (scope, batch) => {
      await meanwhile();
      return real.apply(scope, batch);
    },
  };
  return { db, env, account, now: Date.now(), surface: "private_api", capacityGuard: racing };
}

describe("PUT /api/v1/bookings/{id} racing another write between its reads and its write", () => {
  it("a booking cancelled meanwhile: 400 on state naming the state it is in, nothing else written", async () => {
    const made = await onRoom({ title: "Before" });
    const deps = await racedDeps(() => env.DB.prepare("UPDATE bookings SET state = 'cancelled', active = 0 WHERE id = ?").bind(made.id).run());
    const before = await peopleOf(accountId);
    await expect(
      updateBooking(deps, made.id, {
        booking: { ...hours(made.date, "12:00", "13:00"), title: "After", person_attributes: { name: "Late", email: `late-${accountId}@example.com` } },
      }),
    ).rejects.toMatchObject({ status: 400, body: { state: ["is cancelled: the booking can't be updated"] } });
    expect((await rawBooking(made.id))!).toMatchObject({ title: "Before", state: "cancelled", person_id: null });
    expect(await peopleOf(accountId)).toBe(before);
  });

  it("a new person's email taken meanwhile: the person error, the booking unchanged", async () => {
    const made = await onRoom({ title: "Before" });
    const email = `taken-${accountId}@example.com`;
    const deps = await racedDeps(() => must(api.post("/people", { person: { name: "Quick", email } })));
    await expect(updateBooking(deps, made.id, { booking: { ...hours(made.date, "12:00", "13:00"), person_attributes: { name: "Slow", email } } })).rejects.toMatchObject({
      status: 400,
      body: { person: ["is invalid", "an identifier was taken by another person meanwhile; try again"], person_attributes: {} },
    });
    expect((await rawBooking(made.id))!).toMatchObject({ title: "Before", person_id: null });
  });

  it("a phone the fill would add taken meanwhile: the booking moves and links the person, the phone stays empty", async () => {
    const made = await onRoom();
    const known = await make.person({ name: "Filled", email: `filled-${accountId}@example.com` });
    const deps = await racedDeps(() => must(api.post("/people", { person: { name: "Quick", phone_number: "+4791111111" } })));
    const moved = await updateBooking(deps, made.id, {
      booking: { ...hours(made.date, "12:00", "13:00"), person_attributes: { email: known.email, phone_number: "+4791111111" } },
    });
    expect(moved).toMatchObject({ id: made.id, person_id: known.id });
    expect((await must(api.get(`/people/${known.id}`))).person.phone_number).toBeNull();
  });
});

// The create's fill is in the guard's batch too (issue 33): two waits, and the same outcome when raced.
describe("POST /api/v1/bookings with a matched person to fill, racing another write before the guard's batch", () => {
  it("a phone the fill would add taken meanwhile: the booking is made and links the person, the phone stays empty", async () => {
    const known = await make.person({ name: "Created", email: `created-${accountId}@example.com` });
    const deps = await racedDeps(() => must(api.post("/people", { person: { name: "Quicker", phone_number: "+4792222222" } })));
    const row = await createBooking(deps, {
      booking: {
        resource_id: room.id,
        service_id: cut.id,
        ...hours("2033-02-07", "10:00", "11:00"),
        person_attributes: { email: known.email, phone_number: "+4792222222" },
      },
    } as never);
    expect(row).toMatchObject({ person_id: known.id });
    expect((await rawBooking(row.id))!).toMatchObject({ person_id: known.id, state: expect.any(String) });
    expect((await must(api.get(`/people/${known.id}`))).person.phone_number).toBeNull();
  });

  it("unraced: the fill is answered, in two waits", async () => {
    const known = await make.person({ name: "Answered", email: `answered-${accountId}@example.com` });
    const res = await api.post("/bookings", {
      booking: {
        resource_id: room.id,
        service_id: cut.id,
        ...hours("2033-02-08", "10:00", "11:00"),
        person_attributes: { email: known.email, phone_number: "+4793333333" },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.person).toMatchObject({ id: known.id, phone_number: "+4793333333" });
    expect(costOf(res.headers).waits).toBe(2);
  });
});
