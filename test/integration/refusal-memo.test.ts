// Refusals of a known-full slot from the isolate's memory (features/bookings/refusal-memo.ts,
// docs/decisions/latency.md "Refusals from memory"): the same 400 as the guard's, nothing written,
// no guard call; and every write or lapse that frees the slot lets the next create in.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue, env, must } from "../support/bookings";
import { costOf } from "../support/server-timing";

let api: Client;
let accountId: number;
let make: ReturnType<typeof catalogue>;

beforeAll(async () => {
  // Manual confirmation, so `confirm: false` leaves a booking awaiting confirmation (declinable).
  const mine = await newAccount({ confirm_manually: true });
  api = mine.api;
  accountId = mine.account.id;
  make = catalogue(api);
});

let day = 0;
/** A fresh one-hour slot per test, so no test meets another's remembered refusal. */
function nextSlot() {
  day += 1;
  const date = `2032-01-${String(day).padStart(2, "0")}`;
  return { date, booked_from: `${date} 10:00`, booked_to: `${date} 11:00` };
}

/** Rate-limiter calls on the private API: one per address, one per key. */
const LIMITER = 2;

const version = async () => Number((await env.DB.prepare("SELECT version FROM availability_versions WHERE account_id = ?").bind(accountId).first("version")) ?? 0);
const bookingsAt = async (resourceId: number, from: string) =>
  (await api.get(`/bookings?resource_id=${resourceId}&from=${from.slice(0, 10)}&to=${from.slice(0, 10)}`)).body.length as number;

/** Fills `slot` on a new capacity-1 room; a refusal by the guard then makes the slot known full. */
async function knownFull(resource: Record<string, unknown> = {}) {
  const room = await make.resource({ title: "Room", ...resource });
  const slot = nextSlot();
  const booking = { resource_id: room.id, booked_from: slot.booked_from, booked_to: slot.booked_to };
  const taken = await make.booking(booking, { confirm: false });
  const byGuard = await api.post("/bookings", { booking });
  expect(byGuard.status).toBe(400);
  expect(costOf(byGuard.headers).doCalls).toBe(LIMITER + 1);
  return { room, slot, booking, taken, byGuard };
}

/**
 * No guard call: the rate limiter's calls only. Without a person to look up, the references batch
 * is the one D1 round trip; the person's lookup runs before (its errors come first, as with the guard).
 */
async function expectMemoRefusal(res: { status: number; headers: Headers; body: unknown }, body: unknown, opts: { limiter?: number; roundTrips?: number } = {}) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual(body);
  const cost = costOf(res.headers);
  expect(cost.doCalls).toBe(opts.limiter ?? LIMITER);
  if (opts.roundTrips !== undefined) expect(cost.roundTrips).toBe(opts.roundTrips);
}

describe("POST /bookings of a slot this isolate saw refused", () => {
  it("is refused from memory with the guard's 400, and writes nothing: no booking, no person, no version bump", async () => {
    const { room, slot, booking, byGuard } = await knownFull();
    expect(byGuard.body).toEqual({ booked_from: ["is not available: the resource is fully booked at this time"] });
    const before = await version();
    await expectMemoRefusal(await api.post("/bookings", { booking }), byGuard.body, { roundTrips: 1 });
    // A new person for the refused booking: the memo refuses before the person is written.
    const email = `memo${Math.random()}@example.com`;
    await expectMemoRefusal(await api.post("/bookings", { booking: { ...booking, person_attributes: { name: "Memo", email } } }), byGuard.body);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM people WHERE email = ?").bind(email).first("n")).toBe(0);
    expect(await bookingsAt(room.id, slot.booked_from)).toBe(1);
    expect(await version()).toBe(before);
  });

  it("is not remembered across counts or overlapping windows: each is the guard's to answer", async () => {
    const { room, slot, booking } = await knownFull({ capacity: 1 });
    const twoSeats = await api.post("/bookings", { booking: { ...booking, count: 2 } });
    expect(twoSeats.status).toBe(400);
    expect(costOf(twoSeats.headers).doCalls).toBe(LIMITER + 1);
    const later = { resource_id: room.id, booked_from: `${slot.date} 10:30`, booked_to: `${slot.date} 11:30` };
    const overlapping = await api.post("/bookings", { booking: later });
    expect(overlapping.status).toBe(400);
    expect(costOf(overlapping.headers).doCalls).toBe(LIMITER + 1);
    // A slot next to it that fits is booked: the memo never refuses what it has not seen refused.
    expect((await api.post("/bookings", { booking: { ...booking, booked_from: `${slot.date} 11:00`, booked_to: `${slot.date} 12:00` } })).status).toBe(200);
  });

  const freeing: [string, (ctx: Awaited<ReturnType<typeof knownFull>>) => Promise<unknown>][] = [
    ["a cancel", ({ taken }) => must(api.put(`/bookings/${taken.id}/cancel`))],
    ["a decline", ({ taken }) => must(api.put(`/bookings/${taken.id}/decline`))],
    ["a delete", ({ taken }) => must(api.delete(`/bookings/${taken.id}`))],
    [
      "a move to another hour",
      ({ taken, slot }) => must(api.put(`/bookings/${taken.id}`, { booking: { booked_from: `${slot.date} 14:00`, booked_to: `${slot.date} 15:00` } })),
    ],
    ["a resource capacity raise", ({ room }) => must(api.put(`/resources/${room.id}`, { resource: { capacity: 2 } }))],
    // Not through any request of this isolate (another isolate, the cron, a console): the triggers see it.
    ["a raw D1 write outside any request", ({ taken }) => env.DB.prepare("UPDATE bookings SET state = 'cancelled', active = 0 WHERE id = ?").bind(taken.id).run()],
  ];
  for (const [name, free] of freeing) {
    it(`lets the next create in after ${name}`, async () => {
      const ctx = await knownFull();
      await expectMemoRefusal(await api.post("/bookings", { booking: ctx.booking }), ctx.byGuard.body);
      await free(ctx);
      const again = await api.post("/bookings", { booking: ctx.booking });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
    });
  }

  it("lets the next create in once an unverified booking's hold lapses, with no write at all", async () => {
    const verifying = (await newAccount({ confirm_manually: true, verification_method: 2 })).api;
    const room = (await must(verifying.post("/resources", { resource: { title: "R" } }))).resource;
    const slot = nextSlot();
    const booking = { resource_id: room.id, booked_from: slot.booked_from, booked_to: slot.booked_to };
    const lapsesAt = Date.now() + 3000;
    const held = (
      await must(
        verifying.post("/bookings", {
          booking: { ...booking, person_attributes: { email: "hold@example.com" }, expires_at: new Date(lapsesAt).toISOString() },
          confirm: false,
        }),
      )
    ).booking;
    expect(held.state).toBe("awaiting_verification");
    const byGuard = await verifying.post("/bookings", { booking });
    expect(byGuard.status).toBe(400);
    await expectMemoRefusal(await verifying.post("/bookings", { booking }), byGuard.body);
    await new Promise((resolve) => setTimeout(resolve, lapsesAt - Date.now() + 50));
    const after = await verifying.post("/bookings", { booking });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  });

  it("does not use the memo when the client sends x-d1-bookmark (its reads may come from a replica)", async () => {
    const { booking, byGuard } = await knownFull();
    await expectMemoRefusal(await api.post("/bookings", { booking }), byGuard.body);
    const bookmark = byGuard.headers.get("x-d1-bookmark")!;
    expect(bookmark).toBeTruthy();
    const withBookmark = await api.post("/bookings", { booking }, { "x-d1-bookmark": bookmark });
    expect(withBookmark.status).toBe(400);
    expect(withBookmark.body).toEqual(byGuard.body);
    expect(costOf(withBookmark.headers).doCalls).toBe(LIMITER + 1);
  });

  it("never applies to ignore_capacity, which books the known-full slot", async () => {
    const { room, slot, booking } = await knownFull();
    const forced = await api.post("/bookings", { booking, ignore_capacity: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect(await bookingsAt(room.id, slot.booked_from)).toBe(2);
  });

  it("skips a known-full provider of a service and books the next one with a single guard call", async () => {
    const service = await make.service({ title: "Cut", interval: 60 });
    const { room, slot, byGuard } = await knownFull();
    const other = await make.resource({ title: "Other" });
    await make.provider(room.id, service.id);
    await make.provider(other.id, service.id);
    // The version moved (providers): the first try of the full room is the guard's, and is remembered.
    const byService = { service_id: service.id, booked_from: slot.booked_from, booked_to: slot.booked_to };
    await make.booking({ resource_id: other.id, booked_from: `${slot.date} 16:00`, booked_to: `${slot.date} 17:00` });
    expect((await api.post("/bookings", { booking: { resource_id: room.id, booked_from: slot.booked_from, booked_to: slot.booked_to } })).body).toEqual(byGuard.body);
    const placed = await api.post("/bookings", { booking: byService });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.booking.resource_id ?? placed.body.booking.resource.id).toBe(other.id);
    expect(costOf(placed.headers).doCalls).toBe(LIMITER + 1);
    // Both full now: the guard refuses the other (the booking changed the version), then both are remembered.
    const refused = await api.post("/bookings", { booking: byService });
    expect(refused.status).toBe(400);
    expect(costOf(refused.headers).doCalls).toBe(LIMITER + 2);
    await expectMemoRefusal(await api.post("/bookings", { booking: byService }), refused.body);
  });
});

describe("event bookings from the memo", () => {
  it("refuses a full event from memory, and a capacity raise, a move and a cancel each reach the guard", async () => {
    const room = await make.resource({ title: "Hall" });
    const yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
    await make.provider(room.id, yoga.id);
    const slot = nextSlot();
    const eventId = await make.event({ resourceId: room.id, serviceId: yoga.id, capacity: 1, starts: slot.booked_from, ends: slot.booked_to });
    const booking = { event_id: eventId };
    await make.booking(booking);
    const byGuard = await api.post("/bookings", { booking });
    expect(byGuard.body).toEqual({ event_id: ["is fully booked"] });
    await expectMemoRefusal(await api.post("/bookings", { booking }), byGuard.body);

    await must(api.put(`/events/${eventId}`, { event: { capacity: 2 } }));
    const second = await api.post("/bookings", { booking });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect((await api.post("/bookings", { booking })).status).toBe(400);
    await expectMemoRefusal(await api.post("/bookings", { booking }), byGuard.body);

    // A move takes the bookings along (still full), and the guard, not the memo, says so.
    await must(api.put(`/events/${eventId}`, { event: { starts_at: `${slot.date} 15:00`, ends_at: `${slot.date} 16:00` } }));
    const moved = await api.post("/bookings", { booking });
    expect(moved.body).toEqual(byGuard.body);
    expect(costOf(moved.headers).doCalls).toBe(LIMITER + 1);
    await expectMemoRefusal(await api.post("/bookings", { booking }), byGuard.body);
    await must(api.put(`/bookings/${second.body.booking.id}/cancel`));
    expect((await api.post("/bookings", { booking })).status).toBe(200);
  });
});

describe("the booking site", () => {
  it("refuses a known-full slot from memory before any person is written", async () => {
    const { api: owner, account } = await newAccount({ verification_method: 2 });
    const site = publicSite(account.subdomain);
    const shop = catalogue(owner);
    const chair = await shop.resource({ title: "Chair" });
    const cut = await shop.service({ title: "Cut", interval: 30 });
    await shop.provider(chair.id, cut.id);
    const monday = new Date(Date.now() + 7 * 86_400_000);
    monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7 || 7));
    const date = monday.toISOString().slice(0, 10);
    const visit = (email: string) =>
      site.post("/bookings", {
        booking: { service_id: cut.id, booked_from: `${date} 10:00`, booked_to: `${date} 10:30`, person_attributes: { name: "Vis", email } },
      });
    expect((await visit("first@example.com")).status).toBe(200);
    const byGuard = await visit("second@example.com");
    expect(byGuard.status).toBe(400);
    // The booking site has one rate-limiter call (per address), no key.
    expect(costOf(byGuard.headers).doCalls).toBe(2);
    await expectMemoRefusal(await visit("third@example.com"), byGuard.body, { limiter: 1 });
    const people = await env.DB.prepare("SELECT email FROM people WHERE account_id = ? ORDER BY email").bind(account.id).all<{ email: string }>();
    expect(people.results.map((p) => p.email)).toEqual(["first@example.com"]);
  });
});
