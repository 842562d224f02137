// A create writes its new person, its booking and reads them back in the capacity guard's one
// D1 batch (docs/decisions/latency.md, "Creates at distance"): a refused create leaves no person
// behind, a race for one slot makes one booking and one person, and the answer is the booking as
// a GET reads it.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue, env, must } from "../support/bookings";

/** The Monday `weeks` weeks from now, so site bookings are never in the past nor beyond the horizon. */
function nextMonday(weeks: number): string {
  const d = new Date(Date.now() + weeks * 7 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.toISOString().slice(0, 10);
}
const MONDAY = nextMonday(1);

let api: Client;
let accountId: number;
let make: ReturnType<typeof catalogue>;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  make = catalogue(api);
});

const peopleOf = async (account: number) =>
  Number((await env.DB.prepare("SELECT COUNT(*) AS n FROM people WHERE account_id = ?").bind(account).first<{ n: number }>("n")) ?? 0);
const peopleWithEmail = async (account: number, email: string) =>
  Number((await env.DB.prepare("SELECT COUNT(*) AS n FROM people WHERE account_id = ? AND email = ?").bind(account, email).first<{ n: number }>("n")) ?? 0);
const bookingsOfResource = async (resourceId: number) =>
  Number((await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ?").bind(resourceId).first<{ n: number }>("n")) ?? 0);

const slot = (resourceId: number, from = "2030-01-07 10:00", to = "2030-01-07 11:00") => ({ resource_id: resourceId, booked_from: from, booked_to: to });
let serial = 0;
const newEmail = () => `new${serial++}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe("a refused create leaves no person behind", () => {
  it("by the guard, on the private API: no person row, and the same refusal as before", async () => {
    const resource = await make.resource();
    await make.booking(slot(resource.id));
    const before = await peopleOf(accountId);
    const email = newEmail();
    const res = await api.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { name: "Late", email } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ booked_from: ["is not available: the resource is fully booked at this time"] });
    expect(await peopleWithEmail(accountId, email)).toBe(0);
    expect(await peopleOf(accountId)).toBe(before);
    // Again: refused from the isolate's memory this time, still without a person.
    expect((await api.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { name: "Late", email } } })).status).toBe(400);
    expect(await peopleOf(accountId)).toBe(before);
  });

  it("for a full event: no person row", async () => {
    const resource = await make.resource();
    const service = await make.service({ title: "Class", booking_type: "attendance" });
    await make.provider(resource.id, service.id);
    const eventId = await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 1, starts: "2030-01-08 10:00", ends: "2030-01-08 11:00" });
    await make.booking({ event_id: eventId });
    const email = newEmail();
    const res = await api.post("/bookings", { booking: { event_id: eventId, person_attributes: { name: "Late", email } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ event_id: ["is fully booked"] });
    expect(await peopleWithEmail(accountId, email)).toBe(0);
  });

  it("on the booking site: no person row", async () => {
    const { api: owner, account } = await newAccount({ verification_method: 2 });
    const shop = catalogue(owner);
    const chair = await shop.resource({ title: "Chair" });
    const cut = await shop.service({ title: "Cut", interval: 30 });
    await shop.provider(chair.id, cut.id);
    const site = publicSite(account.subdomain);
    const times = { service_id: cut.id, booked_from: `${MONDAY} 10:00`, booked_to: `${MONDAY} 10:30` };
    const first = await site.post("/bookings", { booking: { ...times, person_attributes: { name: "First", email: newEmail() } } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const email = newEmail();
    const late = await site.post("/bookings", { booking: { ...times, person_attributes: { name: "Late", email } } });
    expect(late.status).toBe(400);
    expect(await peopleWithEmail(account.id, email)).toBe(0);
    expect(await peopleOf(account.id)).toBe(1);
  });

  it("a full first candidate: the person goes in once, with the booking on the next", async () => {
    const a = await make.resource({ title: "A" });
    const b = await make.resource({ title: "B" });
    const service = await make.service({ title: "Either" });
    await make.provider(a.id, service.id);
    await make.provider(b.id, service.id);
    await make.booking(slot(a.id, "2030-01-09 10:00", "2030-01-09 11:00"));
    await make.booking(slot(b.id, "2030-01-09 12:00", "2030-01-09 13:00"));
    for (const [from, to] of [
      ["2030-01-09 10:00", "2030-01-09 11:00"],
      ["2030-01-09 12:00", "2030-01-09 13:00"],
    ]) {
      const email = newEmail();
      const res = await api.post("/bookings", { booking: { service_id: service.id, booked_from: from, booked_to: to, person_attributes: { name: "Next", email } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.booking.resource_id).toBe(from.endsWith("10:00") ? b.id : a.id);
      expect(await peopleWithEmail(accountId, email)).toBe(1);
      expect(res.body.booking.person).toMatchObject({ name: "Next", email });
    }
  });
});

describe("races for one slot with new people", () => {
  it("50 parallel creates, each with a new person, for a capacity-1 slot: one booking and one person", async () => {
    const resource = await make.resource();
    const before = await peopleOf(accountId);
    const emails = Array.from({ length: 50 }, newEmail);
    const results = await Promise.all(emails.map((email) => api.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { name: "Racer", email } } })));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(49);
    expect(await bookingsOfResource(resource.id)).toBe(1);
    expect(await peopleOf(accountId)).toBe(before + 1);
    const winner = won[0].body.booking;
    const linked = await env.DB.prepare("SELECT email FROM people WHERE id = ? AND account_id = ?").bind(winner.person_id, accountId).first<{ email: string }>();
    expect(linked?.email).toBe(winner.person.email);
    expect(emails).toContain(winner.person.email);
  });

  it("30 parallel creates naming the same new person, room for all: one person, every booking linked to it", async () => {
    const resource = await make.resource({ capacity: 30 });
    const email = newEmail();
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        api.post("/bookings", { booking: { ...slot(resource.id, "2030-01-10 10:00", "2030-01-10 11:00"), person_attributes: { name: "Same", email } } }),
      ),
    );
    expect(await peopleWithEmail(accountId, email)).toBe(1);
    const person = await env.DB.prepare("SELECT id FROM people WHERE account_id = ? AND email = ?").bind(accountId, email).first<{ id: number }>("id");
    const won = results.filter((r) => r.status === 200);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const r of won) expect(r.body.booking.person_id).toBe(person);
    // A create that decided on a new person and lost the identifier to another answers as before.
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.person).toEqual(["is invalid", "an identifier was taken by another person meanwhile; try again"]);
    }
    expect(await bookingsOfResource(resource.id)).toBe(won.length);
  });
});

describe("the answer of a create is the booking as a GET reads it", () => {
  it("private API: plain, with a new person, a matched one, person_id, an event, ignore_capacity", async () => {
    const resource = await make.resource();
    const service = await make.service({ title: "Cut" });
    await make.provider(resource.id, service.id);
    const known = await make.person({ name: "Known", email: newEmail() });
    const hall = await make.resource({ title: "Hall" });
    const attendance = await make.service({ title: "Yoga", booking_type: "attendance" });
    await make.provider(hall.id, attendance.id);
    const eventId = await make.event({ resourceId: hall.id, serviceId: attendance.id, capacity: 5, starts: "2030-01-11 10:00", ends: "2030-01-11 11:00" });
    const bodies = [
      { booking: { ...slot(resource.id, "2030-01-11 08:00", "2030-01-11 09:00"), service_id: service.id, title: "Plain", custom_data: { a: "1" } } },
      { booking: { ...slot(resource.id, "2030-01-11 09:00", "2030-01-11 10:00"), person_attributes: { name: "New", email: newEmail(), custom_data: { k: "v" } } } },
      { booking: { ...slot(resource.id, "2030-01-11 10:00", "2030-01-11 11:00"), person_attributes: { email: known.email } } },
      { booking: { ...slot(resource.id, "2030-01-11 11:00", "2030-01-11 12:00"), person_id: known.id } },
      { booking: { event_id: eventId, count: 2, person_attributes: { name: "Guest", email: newEmail() } } },
      { booking: { ...slot(resource.id, "2030-01-11 08:00", "2030-01-11 09:00"), person_attributes: { name: "Over", email: newEmail() } }, ignore_capacity: true },
      { booking: { ...slot(resource.id, "2030-01-11 12:00", "2030-01-11 13:00"), person_attributes: { name: "Waits", email: newEmail() } }, confirm: false },
    ];
    for (const body of bodies) {
      const created = await must(api.post("/bookings", body));
      const read = await must(api.get(`/bookings/${created.booking.id}`));
      expect(created, JSON.stringify(body)).toEqual(read);
    }
    const extended = await must(
      api.post("/bookings", { booking: { ...slot(resource.id, "2030-01-11 14:00", "2030-01-11 15:00"), person_id: known.id }, extended: true }),
    );
    expect(extended).toEqual(await must(api.get(`/bookings/${extended.booking.id}?extended=true`)));
  });

  it("booking site: a new visitor and a known one", async () => {
    const { api: owner, account } = await newAccount({ verification_method: 2 });
    const shop = catalogue(owner);
    const chair = await shop.resource({ title: "Chair", capacity: 5 });
    const cut = await shop.service({ title: "Cut", interval: 30 });
    await shop.provider(chair.id, cut.id);
    const site = publicSite(account.subdomain);
    const email = newEmail();
    for (const at of ["10:00", "11:00"]) {
      const [h] = at.split(":");
      const res = await site.post("/bookings", {
        booking: { service_id: cut.id, booked_from: `${MONDAY} ${at}`, booked_to: `${MONDAY} ${h}:30`, person_attributes: { name: "Vis", email } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const read = await site.get(`/bookings/${res.body.booking.id}`, { "x-booking-token": res.body.booking_token });
      expect(read.status).toBe(200);
      expect(res.body.booking).toEqual(read.body.booking);
      const privately = await must(owner.get(`/bookings/${res.body.booking.id}`));
      expect(privately.booking.person).toMatchObject({ name: "Vis", email });
    }
    expect(await peopleWithEmail(account.id, email)).toBe(1);
  });
});
