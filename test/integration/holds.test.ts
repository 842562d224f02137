// Slot holds (issue 22, docs/decisions/holds.md): a hold takes seats in the same guarded statement
// as a booking, lapses by time with no write, is released early or converted by the booking made
// with its secret (which nothing can then refuse), and every capacity reader counts it.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, send, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";

const FULL = { booked_from: ["is not available: the resource is fully booked at this time"] };
const DAY = "2030-01-07"; // a Monday

let api: Client;
let subdomain: string;
let accountId: number;
let ipCounter = 0;

/** A fresh visitor address, so the per-visitor limit and the rate limit start empty. */
const newVisitor = () => `198.51.100.${(ipCounter += 1) % 250}`;

function site(sub: string, ip = newVisitor()) {
  const origin = `http://${sub}.localhost`;
  const headers = (extra: Record<string, string> = {}) => ({ "content-type": "application/json", "cf-connecting-ip": ip, ...extra });
  return {
    ip,
    post: (path: string, payload: unknown) => send("POST", `${origin}${path}`, { headers: headers(), body: JSON.stringify(payload) }),
    get: (path: string, extra: Record<string, string> = {}) => send("GET", `${origin}${path}`, { headers: headers(extra) }),
    delete: (path: string, extra: Record<string, string> = {}) => send("DELETE", `${origin}${path}`, { headers: headers(extra) }),
  };
}

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  subdomain = mine.account.subdomain;
  accountId = mine.account.id;
  await must(api.put("/client", { client: { slot_holds_enabled: true } }));
});

async function shop(client: Client, resource: Record<string, unknown> = {}, service: Record<string, unknown> = {}) {
  const make = catalogue(client);
  const room = await make.resource(resource);
  const cut = await make.service({ title: "Haircut", interval: 60, ...service });
  await make.provider(room.id, cut.id);
  return { room, cut };
}

const at = (time: string) => ({ booked_from: `${DAY} ${time}`, booked_to: `${DAY} ${String(Number(time.slice(0, 2)) + 1).padStart(2, "0")}:${time.slice(3)}` });
const holdOf = (serviceId: number, time: string, extra: Record<string, unknown> = {}) => ({ slot_hold: { service_id: serviceId, ...at(time), ...extra } });
const visitor = (name: string) => ({ name, email: `${name.toLowerCase()}@example.com` });

/** `HH:MM free` of the day's slots, read as a visitor does (through the isolate's cached answers). */
async function freeOn(serviceId: number, date = DAY, client: Client = api) {
  const slots = await must(client.get(`/services/${serviceId}/slots?from=${date}&to=${date}`));
  return Object.fromEntries(slots.map((e: any) => [e.slot.timestamp.slice(11, 16), e.slot.free]));
}

const liveHolds = async (account = accountId) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM slot_holds WHERE account_id = ? AND ended_at IS NULL AND expires_at > ?")
    .bind(account, Date.now())
    .first<{ n: number }>())!.n;
const bookingsOf = async (resourceId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ?").bind(resourceId).first<{ n: number }>())!.n;

describe("the account's hold settings", () => {
  it("are off and 5 minutes unless set, and take 1 to 15 minutes", async () => {
    const { api: other } = await newAccount();
    expect((await must(other.get("/client"))).client).toMatchObject({ slot_holds_enabled: false, slot_hold_minutes: 5 });
    expect((await must(other.put("/client", { client: { slot_hold_minutes: 15 } }))).client.slot_hold_minutes).toBe(15);
    for (const bad of [0, 16, "five", 2.5]) {
      const res = await other.put("/client", { client: { slot_hold_minutes: bad } });
      expect([res.status, Object.keys(res.body)]).toEqual([400, ["slot_hold_minutes"]]);
    }
    expect((await must(other.get("/client"))).client.slot_hold_minutes).toBe(15);
  });

  it("keep the booking site from holding until enabled; the private API holds either way", async () => {
    const { api: other, account } = await newAccount();
    const { cut } = await shop(other);
    const refused = await site(account.subdomain).post("/slots/holds", holdOf(cut.id, "10:00"));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/slot holds are not enabled/);
    expect(await liveHolds(account.id)).toBe(0);
    const held = await must(other.post("/slots/holds", holdOf(cut.id, "10:00")));
    expect(held.slot_hold).toMatchObject({ service_id: cut.id, booked_from: `${DAY}T10:00:00+01:00`, count: 1, ended: null });
  });
});

describe("a hold", () => {
  it("takes the last seat from everyone else, and the booking made with its secret takes it over", async () => {
    const { room, cut } = await shop(api);
    const visit = site(subdomain);
    const { slot_hold: hold, hold_secret: secret } = await must(visit.post("/slots/holds", holdOf(cut.id, "10:00")));
    expect(hold).toMatchObject({ resource_id: room.id, booked_from: `${DAY}T10:00:00+01:00`, booked_to: `${DAY}T11:00:00+01:00`, count: 1, ended: null });
    expect(typeof secret).toBe("string");
    const minutes = (Date.parse(hold.expires_at) - Date.parse(hold.created_at)) / 60_000;
    expect(minutes).toBe(5);
    // It ends at exactly the instant answered (instants are answered to the second), not up to a second later.
    const stored = await env.DB.prepare("SELECT expires_at FROM slot_holds WHERE id = ?").bind(hold.id).first<{ expires_at: number }>();
    expect(stored!.expires_at).toBe(Date.parse(hold.expires_at));
    expect((await freeOn(cut.id))["10:00"]).toBe(0);
    expect((await freeOn(cut.id))["11:00"]).toBe(1);

    // Refused as a full time is: on the private API, on the site, and as a second hold.
    expect((await api.post("/bookings", { booking: { service_id: cut.id, ...at("10:00") } })).body).toEqual(FULL);
    expect((await site(subdomain).post("/bookings", { booking: { service_id: cut.id, ...at("10:00"), person_attributes: visitor("Ola") } })).body).toEqual(FULL);
    expect((await site(subdomain).post("/slots/holds", holdOf(cut.id, "10:00"))).body).toEqual(FULL);

    const booked = await must(visit.post("/bookings", { booking: { service_id: cut.id, ...at("10:00"), person_attributes: visitor("Kari") }, hold_secret: secret }));
    expect(booked.booking).toMatchObject({ resource_id: room.id, booked_from: `${DAY}T10:00:00+01:00` });
    const after = await must(visit.get(`/slots/holds/${hold.id}`, { "x-hold-secret": secret }));
    expect(after.slot_hold).toMatchObject({ ended: "converted", booking_id: booked.booking.id });
    expect((await freeOn(cut.id))["10:00"]).toBe(0);
    expect(await bookingsOf(room.id)).toBe(1);
    // The secret opens one booking only.
    const again = await visit.post("/bookings", { booking: { service_id: cut.id, ...at("10:00"), person_attributes: visitor("Kari") }, hold_secret: secret });
    expect([again.status, again.body]).toEqual([400, { hold_secret: ["has already been booked"] }]);
  });

  it("is converted even where this isolate remembers the time as full", async () => {
    const { cut } = await shop(api);
    const { hold_secret: secret } = await must(api.post("/slots/holds", holdOf(cut.id, "12:00")));
    for (let i = 0; i < 2; i++) expect((await api.post("/bookings", { booking: { service_id: cut.id, ...at("12:00") } })).body).toEqual(FULL);
    await must(api.post("/bookings", { booking: { service_id: cut.id, ...at("12:00") }, hold_secret: secret }));
  });

  it("is released at once by its holder, and by nobody else: slots and the refusal memo see it", async () => {
    const { cut } = await shop(api);
    const visit = site(subdomain);
    const { slot_hold: hold, hold_secret: secret } = await must(visit.post("/slots/holds", holdOf(cut.id, "09:00")));
    expect((await freeOn(cut.id))["09:00"]).toBe(0);
    // Refused twice: the second from this isolate's memory of the full time.
    for (let i = 0; i < 2; i++) expect((await api.post("/bookings", { booking: { service_id: cut.id, ...at("09:00") } })).body).toEqual(FULL);
    expect((await visit.delete(`/slots/holds/${hold.id}`)).status).toBe(404);
    expect((await visit.delete(`/slots/holds/${hold.id}`, { "x-hold-secret": "not-the-secret" })).status).toBe(404);
    expect((await freeOn(cut.id))["09:00"]).toBe(0);
    const released = await must(visit.delete(`/slots/holds/${hold.id}`, { "x-hold-secret": secret }));
    expect(released.slot_hold.ended).toBe("released");
    expect((await freeOn(cut.id))["09:00"]).toBe(1);
    await must(api.post("/bookings", { booking: { service_id: cut.id, ...at("09:00") } }));
    // A released hold's secret converts nothing.
    const late = await visit.post("/bookings", { booking: { service_id: cut.id, ...at("09:00"), person_attributes: visitor("Kari") }, hold_secret: secret });
    expect([late.status, late.body]).toEqual([400, { hold_secret: ["was released"] }]);
  });

  it("lapses by time alone: the seat is free again with no write, in slots and for creates", async () => {
    const { room, cut } = await shop(api);
    const { slot_hold: hold, hold_secret: secret } = await must(api.post("/slots/holds", holdOf(cut.id, "14:00")));
    await env.DB.prepare("UPDATE slot_holds SET expires_at = ? WHERE id = ?")
      .bind(Date.now() + 700, hold.id)
      .run();
    expect((await freeOn(cut.id))["14:00"]).toBe(0);
    expect((await api.post("/bookings", { booking: { service_id: cut.id, ...at("14:00") } })).body).toEqual(FULL);
    const version = () => env.DB.prepare("SELECT version FROM availability_versions WHERE account_id = ?").bind(accountId).first("version");
    const before = await version();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await freeOn(cut.id))["14:00"]).toBe(1);
    expect(await version()).toBe(before);
    // A lapsed hold's secret is no error: the create runs as any other and finds the time free.
    const booked = await must(api.post("/bookings", { booking: { service_id: cut.id, ...at("14:00") }, hold_secret: secret }));
    expect(booked.booking.resource_id).toBe(room.id);
    expect((await must(api.get(`/slots/holds/${hold.id}`))).slot_hold.ended).toBe("expired");
  });

  it("converts only into its own time, resource and seats; a refused conversion keeps the hold", async () => {
    const { cut } = await shop(api, { capacity: 3 });
    const { room: other } = await shop(api);
    await catalogue(api).provider(other.id, cut.id);
    const { slot_hold: hold, hold_secret: secret } = await must(api.post("/slots/holds", holdOf(cut.id, "15:00", { count: 2 })));
    const tries: [Record<string, unknown>, string][] = [
      [{ service_id: cut.id, ...at("16:00") }, "holds another time or service"],
      [{ service_id: cut.id, ...at("15:00"), resource_id: other.id }, "holds another resource"],
      [{ service_id: cut.id, ...at("15:00"), count: 3 }, "holds 2 seats, fewer than count"],
    ];
    for (const [booking, why] of tries) {
      const res = await api.post("/bookings", { booking, hold_secret: secret });
      expect([res.status, res.body]).toEqual([400, { hold_secret: [why] }]);
    }
    const unknown = await api.post("/bookings", { booking: { service_id: cut.id, ...at("15:00") }, hold_secret: "no-such-secret" });
    expect([unknown.status, unknown.body]).toEqual([400, { hold_secret: ["does not open a hold of this booking site"] }]);
    expect((await must(api.get(`/slots/holds/${hold.id}`))).slot_hold.ended).toBeNull();
    // One of its two seats booked: the other goes back to everyone at once.
    await must(api.post("/bookings", { booking: { service_id: cut.id, ...at("15:00"), resource_id: hold.resource_id }, hold_secret: secret }));
    expect((await freeOn(cut.id))["15:00"]).toBe(1 + 2); // the other room, and one of three seats here
  });

  it("stays live when its conversion is refused after all (the capacity went below it)", async () => {
    const { room, cut } = await shop(api);
    const { slot_hold: hold, hold_secret: secret } = await must(api.post("/slots/holds", holdOf(cut.id, "16:00")));
    // No request can lower a capacity to 0; a console can, and the guard must refuse then too.
    await env.DB.prepare("UPDATE resources SET capacity = 0 WHERE id = ?").bind(room.id).run();
    const refused = await api.post("/bookings", { booking: { service_id: cut.id, ...at("16:00") }, hold_secret: secret });
    expect([refused.status, refused.body]).toEqual([400, FULL]);
    expect(await bookingsOf(room.id)).toBe(0);
    expect((await must(api.get(`/slots/holds/${hold.id}`))).slot_hold).toMatchObject({ ended: null, booking_id: null });
    await env.DB.prepare("UPDATE resources SET capacity = 1 WHERE id = ?").bind(room.id).run();
    const booked = await must(api.post("/bookings", { booking: { service_id: cut.id, ...at("16:00") }, hold_secret: secret }));
    expect((await must(api.get(`/slots/holds/${hold.id}`))).slot_hold).toMatchObject({ ended: "converted", booking_id: booked.booking.id });
  });

  it("of an event holds its seats, and a hold that does not fit is refused as a booking is", async () => {
    const make = catalogue(api);
    const room = await make.resource();
    const yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
    const eventId = await make.event({ resourceId: room.id, serviceId: yoga.id, capacity: 2, starts: `${DAY} 18:00`, ends: `${DAY} 19:00` });
    const seats = async () => (await freeOn(yoga.id))["18:00"];
    expect(await seats()).toBe(2);
    const { hold_secret: secret } = await must(api.post("/slots/holds", { slot_hold: { event_id: eventId, count: 2 } }));
    expect(await seats()).toBe(0);
    expect((await api.post("/bookings", { booking: { event_id: eventId } })).body).toEqual({ event_id: ["is fully booked"] });
    expect((await api.post("/slots/holds", { slot_hold: { event_id: eventId } })).body).toEqual({ event_id: ["is fully booked"] });
    await must(api.post("/bookings", { booking: { event_id: eventId }, hold_secret: secret }));
    expect(await seats()).toBe(1);
  });

  it("answers 400 for bad input and changes nothing", async () => {
    const { cut } = await shop(api);
    const before = await liveHolds();
    const bad: [unknown, string][] = [
      [{}, "slot_hold"],
      [{ slot_hold: { ...at("10:00") } }, "service_id"],
      [{ slot_hold: { service_id: cut.id, booked_from: "tomorrow-ish", booked_to: `${DAY} 11:00` } }, "booked_from"],
      [{ slot_hold: { service_id: cut.id, ...at("10:00"), count: 0 } }, "count"],
      [{ slot_hold: { service_id: 999_999, ...at("10:00") } }, "service_id"],
    ];
    for (const [payload, attribute] of bad) {
      const res = await api.post("/slots/holds", payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.body)).toContain(attribute);
    }
    expect(await liveHolds()).toBe(before);
  });
});

describe("holds under contention", () => {
  it("50 parallel holds and creates for one seat: exactly one gets it", async () => {
    const { room, cut } = await shop(api);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 ? api.post("/slots/holds", holdOf(cut.id, "10:00")) : api.post("/bookings", { booking: { service_id: cut.id, ...at("10:00") } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 400)).toBe(true);
    const held = (await env.DB.prepare("SELECT COUNT(*) AS n FROM slot_holds WHERE resource_id = ?").bind(room.id).first<{ n: number }>())!.n;
    expect(held + (await bookingsOf(room.id))).toBe(1);
  });
});

describe("limits", () => {
  it(`a visitor holds at most 3 times at once; the next is a 429 until one ends`, async () => {
    const { cut } = await shop(api);
    const visit = site(subdomain);
    const held = [];
    for (const time of ["09:00", "10:00", "11:00"]) held.push(await must(visit.post("/slots/holds", holdOf(cut.id, time))));
    const fourth = await visit.post("/slots/holds", holdOf(cut.id, "12:00"));
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toMatch(/hold 3 at once/);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(200);
    // Another visitor is not limited by this one.
    await must(site(subdomain).post("/slots/holds", holdOf(cut.id, "12:00")));
    await must(visit.delete(`/slots/holds/${held[0].slot_hold.id}`, { "x-hold-secret": held[0].hold_secret }));
    await must(visit.post("/slots/holds", holdOf(cut.id, "13:00")));
  });

  it("an account holds at most 50 times at once", async () => {
    const { api: other } = await newAccount();
    const { cut } = await shop(other, { capacity: 100 });
    for (let i = 0; i < 50; i++) await must(other.post("/slots/holds", holdOf(cut.id, "10:00")));
    const next = await other.post("/slots/holds", holdOf(cut.id, "10:00"));
    expect([next.status, next.body.error]).toEqual([429, "Too many held times on this account: at most 50 at once."]);
    expect((await freeOn(cut.id, DAY, other))["10:00"]).toBe(50);
  });
});

describe("tenancy", () => {
  it("another account's hold is a 404, and its secret converts nothing here", async () => {
    const { cut } = await shop(api);
    const { slot_hold: hold, hold_secret: secret } = await must(api.post("/slots/holds", holdOf(cut.id, "11:00")));
    const { api: other } = await newAccount();
    const { cut: theirs } = await shop(other);
    expect((await other.get(`/slots/holds/${hold.id}`)).status).toBe(404);
    expect((await other.delete(`/slots/holds/${hold.id}`)).status).toBe(404);
    const res = await other.post("/bookings", { booking: { service_id: theirs.id, ...at("11:00") }, hold_secret: secret });
    expect([res.status, res.body]).toEqual([400, { hold_secret: ["does not open a hold of this booking site"] }]);
    expect((await must(api.get(`/slots/holds/${hold.id}`))).slot_hold.ended).toBeNull();
  });
});

describe("holds and buffers", () => {
  it("a hold of a service with buffers occupies them as its booking would", async () => {
    const held = await shop(api, {}, { buffer_before: 15, buffer_after: 30 });
    const booked = await shop(api, {}, { buffer_before: 15, buffer_after: 30 });
    const untouched = await freeOn(held.cut.id);
    await must(api.post("/slots/holds", holdOf(held.cut.id, "10:00")));
    await must(api.post("/bookings", { booking: { service_id: booked.cut.id, ...at("10:00") } }));
    const whileHeld = await freeOn(held.cut.id);
    expect(whileHeld).toEqual(await freeOn(booked.cut.id));
    // The slot before needs 10:00 free (its 30 minutes after) and the next one starts once 11:30 is.
    expect(whileHeld).not.toEqual(untouched);
    expect(whileHeld["09:00"]).toBe(0);
    expect(Object.keys(whileHeld).filter((t) => t > "10:00")[0]).toBe("11:45");
  });
});

describe("holds across DST changes", () => {
  for (const [zone, date, time, offset] of [
    ["Europe/Oslo", "2030-03-31", "03:00", "+02:00"],
    ["America/New_York", "2030-03-10", "03:00", "-04:00"],
    ["Europe/Oslo", "2030-10-27", "02:00", "+01:00"],
    ["America/New_York", "2030-11-03", "01:00", "-05:00"],
  ] as const) {
    it(`${zone} ${date}: a hold at ${time}${offset} takes that hour and no other`, async () => {
      const { api: mine } = await newAccount({ time_zone: zone, country_code: zone === "Europe/Oslo" ? "NO" : "US" });
      const { cut } = await shop(mine, { opening_hours_sun: ["00:00", "24:00"] });
      const before = await must(mine.get(`/services/${cut.id}/slots?from=${date}&to=${date}`));
      const from = `${date}T${time}:00${offset}`;
      const { slot_hold: hold } = await must(
        mine.post("/slots/holds", { slot_hold: { service_id: cut.id, booked_from: from, booked_to: new Date(Date.parse(from) + 3_600_000).toISOString() } }),
      );
      expect(hold.booked_from).toBe(from);
      const after = await must(mine.get(`/services/${cut.id}/slots?from=${date}&to=${date}`));
      const taken = after.filter((e: any, i: number) => e.slot.free < before[i].slot.free).map((e: any) => e.slot.timestamp);
      expect(taken).toEqual([from]);
    });
  }
});

describe("webhooks", () => {
  it("are not sent for holds", async () => {
    const { api: other } = await newAccount();
    await must(other.post("/web_hooks", { web_hook: { target_url: "https://hooks.example.com/h", event: "*" } }));
    const { cut } = await shop(other);
    const { slot_hold: hold } = await must(other.post("/slots/holds", holdOf(cut.id, "10:00")));
    await must(other.delete(`/slots/holds/${hold.id}`));
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE account_id = (SELECT account_id FROM slot_holds WHERE id = ?)")
      .bind(hold.id)
      .first<{ n: number }>())!;
    expect(n).toBe(0);
  });
});
