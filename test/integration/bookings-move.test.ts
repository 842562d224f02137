// The visitor moves their own booking on the booking site (issue 34): PUT /bookings/{id}/move with
// the booking token, the account's switch and cancellation period, the public rules on the new
// time, holds, events, what follows a move, and races.
import { afterEach, describe, expect, it, vi } from "vitest";
import { env, newAccount, publicSite, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { mcpClient } from "../support/mcp";
import { messagesOf } from "../support/messages";
import { eventually } from "../support/queues";
import { receiver } from "../support/webhooks";

afterEach(() => {
  vi.useRealTimers();
});

const FULL = "is not available: the resource is fully booked at this time";
const withToken = (token: string) => ({ "x-booking-token": token });
const at = (day: string, from: string, to: string) => ({ booked_from: `${day} ${from}`, booked_to: `${day} ${to}` });

interface Site {
  api: Client;
  accountId: number;
  site: ReturnType<typeof publicSite>;
  serviceId: number;
  resourceId: number;
}

async function siteOf(attributes: Record<string, unknown> = {}, capacity = 1): Promise<Site> {
  const { api, account } = await newAccount({ verification_method: 0, ...attributes });
  const make = catalogue(api);
  const resource = await make.resource({ title: "Chair", capacity });
  const service = await make.service({ title: "Cut", interval: 30 });
  await make.provider(resource.id, service.id);
  return { api, accountId: account.id, site: publicSite(account.subdomain), serviceId: service.id, resourceId: resource.id };
}

let visitors = 0;
async function book(s: Site, times: { booked_from: string; booked_to: string }, extra: Record<string, unknown> = {}) {
  visitors += 1;
  const res = await s.site.post("/bookings", {
    booking: { service_id: s.serviceId, ...times, person_attributes: { name: "Vis", email: `v${visitors}-${Math.random()}@example.com` } },
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.booking.id as number, token: res.body.booking_token as string };
}

const move = (s: Site, b: { id: number; token: string }, body: unknown) => s.site.put(`/bookings/${b.id}/move`, body, withToken(b.token));

/** The columns a refused move must leave as they were. */
const unchanged = async (id: number) => {
  const { booked_from, booked_to, resource_id, event_id, state, updated_at, revision, payment } = (await rawBooking(id))!;
  return { booked_from, booked_to, resource_id, event_id, state, updated_at, revision, payment };
};

describe("PUT /bookings/{id}/move on the site", () => {
  it("moves the token's booking to a free time: the new time is taken and the old one released", async () => {
    const s = await siteOf();
    const mine = await book(s, at("2030-01-07", "10:00", "10:30"));
    const res = await move(s, mine, { booking: at("2030-01-07", "14:00", "14:30") });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking).toMatchObject({ id: mine.id, booked_from: "2030-01-07T14:00:00+01:00", booked_to: "2030-01-07T14:30:00+01:00", state: "confirmed" });
    expect(res.body.booking.verification_code).toBeUndefined();
    const shown = await s.site.get(`/bookings/${mine.id}`, withToken(mine.token));
    expect(shown.body.booking.booked_from).toBe("2030-01-07T14:00:00+01:00");
    // The old time is free again: another visitor books it; the new one is taken.
    await book(s, at("2030-01-07", "10:00", "10:30"));
    const taken = await s.site.post("/bookings", {
      booking: { service_id: s.serviceId, ...at("2030-01-07", "14:00", "14:30"), person_attributes: { name: "B", email: "b@example.com" } },
    });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ booked_from: [FULL] });
  });

  it("is followed as an integrator's move: modification message, booking.modified, a new calendar revision", async () => {
    // E-mail verification: the customer hears of changes by e-mail (messages/plan.ts).
    const s = await siteOf({ verification_method: 2 });
    const hook = (await must(s.api.post("/web_hooks", { web_hook: { target_url: receiver().url, event: "booking.modified" } }))).web_hook;
    const mine = await book(s, at("2030-01-08", "10:00", "10:30"));
    const before = (await rawBooking(mine.id))!.revision;
    await must(move(s, mine, { booking: at("2030-01-08", "11:00", "11:30") }));
    expect((await rawBooking(mine.id))!.revision).toBeGreaterThan(before);
    const [message] = await messagesOf(s.api, `?booking_id=${mine.id}&kind=modification`);
    expect(message).toMatchObject({ kind: "modification" });
    expect(message.body).toContain("11:00");
    const deliveries = await eventually(
      async () => (await must(s.api.get(`/web_hooks/${hook.id}/deliveries`))).map((e: any) => e.webhook_delivery),
      (list: any[]) => list.some((d) => d.payload?.id === mine.id),
    );
    const delivery = deliveries.find((d: any) => d.payload?.id === mine.id);
    expect(delivery.payload).toMatchObject({ event: "booking.modified", performed_by: { via: "public_api" } });
  });

  it("refuses a full time with 400 on booked_from and changes nothing", async () => {
    const s = await siteOf();
    await book(s, at("2030-01-09", "14:00", "14:30"));
    const mine = await book(s, at("2030-01-09", "10:00", "10:30"));
    const before = await unchanged(mine.id);
    const res = await move(s, mine, { booking: at("2030-01-09", "14:00", "14:30") });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ booked_from: [FULL] });
    expect(await unchanged(mine.id)).toEqual(before);
  });

  it("answers bad input with a 400 on the attribute and changes nothing", async () => {
    const s = await siteOf({ future_bookable_period: "10 years" });
    const mine = await book(s, at("2030-01-10", "10:00", "10:30"));
    const before = await unchanged(mine.id);
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { booked_from: ["can't be blank"], booked_to: ["can't be blank"] }],
      [{ booking: { booked_from: "tomorrow", booked_to: "2030-01-10 11:00" } }, { booked_from: [expect.stringContaining("is not a valid datetime")] }],
      [{ booking: at("2030-01-10", "12:00", "11:00") }, { booked_to: ["must be after booked_from"] }],
      [{ booking: at("2030-01-10", "19:00", "19:30") }, { booked_from: ["is outside the resource's opening hours"] }],
      [{ booking: at("2020-01-10", "10:00", "10:30") }, { booked_from: ["can't be in the past"] }],
      [{ booking: at("2050-01-10", "10:00", "10:30") }, { booked_from: ["is too far ahead: book at most 10 years ahead"] }],
      [{ booking: at("2030-01-10", "10:00", "10:30") }, { booked_from: ["is the booking's time already"] }],
      [{ booking: { event_id: 1 } }, { event_id: [expect.stringContaining("can't be given")] }],
      [{ booking: "x" }, { booking: [expect.stringContaining("is required")] }],
      [{ booking: at("2030-01-10", "10:00", "18:00") }, { booked_to: [expect.stringContaining("is too late")] }],
    ];
    for (const [body, error] of cases) {
      const res = await move(s, mine, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toEqual(error);
    }
    expect(await unchanged(mine.id)).toEqual(before);
  });

  it("answers 404 without a token, with another booking's token and on another account's site, and moves nothing", async () => {
    const s = await siteOf();
    const other = await siteOf();
    const mine = await book(s, at("2030-01-11", "10:00", "10:30"));
    const second = await book(s, at("2030-01-11", "11:00", "11:30"));
    const theirs = await book(other, at("2030-01-11", "10:00", "10:30"));
    const before = await unchanged(mine.id);
    const body = { booking: at("2030-01-11", "15:00", "15:30") };
    const answers = [
      await s.site.put(`/bookings/${mine.id}/move`, body),
      await s.site.put(`/bookings/${mine.id}/move`, body, withToken(second.token)),
      await s.site.put(`/bookings/${mine.id}/move`, body, withToken("x".repeat(43))),
      await other.site.put(`/bookings/${mine.id}/move`, body, withToken(mine.token)),
      await s.site.put(`/bookings/${theirs.id}/move`, body, withToken(theirs.token)),
      await s.site.put(`/bookings/99999999/move`, body, withToken(mine.token)),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect(answers.map((r) => r.body.error)).toEqual(answers.map(() => answers[0].body.error));
    expect(await unchanged(mine.id)).toEqual(before);
  });

  it("refuses a cancelled booking with 400 on state", async () => {
    const s = await siteOf();
    const mine = await book(s, at("2030-01-14", "10:00", "10:30"));
    await must(s.site.put(`/bookings/${mine.id}/cancel`, {}, withToken(mine.token)));
    const res = await move(s, mine, { booking: at("2030-01-14", "11:00", "11:30") });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ state: ["is cancelled: the booking can't be moved"] });
    expect((await rawBooking(mine.id))!.booked_from).toBe(Date.parse("2030-01-14T09:00:00Z"));
  });
});

describe("the account's switch: allow_rescheduling", () => {
  it("is null by default and then follows allow_cancellation", async () => {
    const s = await siteOf({ allow_cancellation: false });
    expect((await must(s.api.get("/client"))).client.allow_rescheduling).toBeNull();
    const mine = await book(s, at("2030-01-15", "10:00", "10:30"));
    const res = await move(s, mine, { booking: at("2030-01-15", "11:00", "11:30") });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ state: [expect.stringMatching(/^can't be moved online: contact Account \d+ to change the time$/)] });
  });

  it("turns moves on or off whatever allow_cancellation says", async () => {
    const on = await siteOf({ allow_cancellation: false, allow_rescheduling: true });
    const a = await book(on, at("2030-01-16", "10:00", "10:30"));
    expect((await move(on, a, { booking: at("2030-01-16", "11:00", "11:30") })).status).toBe(200);
    const off = await siteOf({ allow_rescheduling: false });
    const b = await book(off, at("2030-01-16", "10:00", "10:30"));
    const refused = await move(off, b, { booking: at("2030-01-16", "11:00", "11:30") });
    expect(refused.status).toBe(400);
    expect(refused.body.state[0]).toContain("can't be moved online");
    // Cancelling still follows allow_cancellation alone.
    expect((await off.site.put(`/bookings/${b.id}/cancel`, {}, withToken(b.token))).status).toBe(200);
  });

  it("is set and cleared with PUT /client, and a non-boolean is a 400", async () => {
    const s = await siteOf();
    expect((await must(s.api.put("/client", { client: { allow_rescheduling: false } }))).client.allow_rescheduling).toBe(false);
    expect((await must(s.api.put("/client", { client: { allow_rescheduling: null } }))).client.allow_rescheduling).toBeNull();
    const bad = await s.api.put("/client", { client: { allow_rescheduling: "maybe" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ allow_rescheduling: [expect.any(String)] });
  });
});

/** The cancellation period at its edge: the clock is set to the deadline and one second after it. */
describe("the cancellation period applies to moves, in the account's zone", () => {
  const cases = [
    // Oslo springs forward on 31 March 2030: "1 day" before 10:00 CEST is 10:00 CET the day before (23 hours).
    { zone: "Europe/Oslo", day: "2030-03-31", deadline: "2030-03-30T09:00:00Z", text: "Saturday, 30 March 2030, 10:00 (Europe/Oslo)" },
    // New York springs forward on 10 March 2030.
    { zone: "America/New_York", day: "2030-03-10", deadline: "2030-03-09T15:00:00Z", text: "Saturday, 9 March 2030, 10:00 (America/New_York)" },
    // Oslo falls back on 27 October 2030: 25 hours.
    { zone: "Europe/Oslo", day: "2030-10-27", deadline: "2030-10-26T08:00:00Z", text: "Saturday, 26 October 2030, 10:00 (Europe/Oslo)" },
  ];
  for (const { zone, day, deadline, text } of cases) {
    it(`moves a booking of ${day} in ${zone} until ${text}, not a second later`, async () => {
      const edge = Date.parse(deadline);
      vi.useFakeTimers({ toFake: ["Date"], now: edge - 7 * 86_400_000 });
      const s = await siteOf({ time_zone: zone, cancellation_period: "1 day" }, 5);
      const a = await book(s, at(day, "10:00", "10:30"));
      const b = await book(s, at(day, "10:00", "10:30"));
      vi.setSystemTime(edge);
      expect((await move(s, a, { booking: at("2030-12-02", "10:00", "10:30") })).status).toBe(200);
      vi.setSystemTime(edge + 1000);
      const before = await unchanged(b.id);
      const late = await move(s, b, { booking: at("2030-12-02", "10:00", "10:30") });
      expect(late.status).toBe(400);
      expect(late.body).toEqual({ state: [`could be moved online until ${text}`] });
      expect(await unchanged(b.id)).toEqual(before);
    });

    it(`moves a booking to ${day} 10:00 in ${zone} until ${text}, not a second later`, async () => {
      const edge = Date.parse(deadline);
      vi.useFakeTimers({ toFake: ["Date"], now: edge - 7 * 86_400_000 });
      const s = await siteOf({ time_zone: zone, cancellation_period: "1 day" }, 5);
      const a = await book(s, at("2030-12-02", "10:00", "10:30"));
      const b = await book(s, at("2030-12-02", "11:00", "11:30"));
      vi.setSystemTime(edge);
      expect((await move(s, a, { booking: at(day, "10:00", "10:30") })).status).toBe(200);
      vi.setSystemTime(edge + 1000);
      const late = await move(s, b, { booking: at(day, "10:00", "10:30") });
      expect(late.status).toBe(400);
      expect(late.body).toEqual({ booked_from: ["is too soon: move to a time at least 1 day ahead"] });
    });
  }
});

describe("moving with a slot hold", () => {
  it("takes the visitor's own hold of the last seat, and ends the hold", async () => {
    const s = await siteOf({ slot_holds_enabled: true });
    const mine = await book(s, at("2030-01-21", "10:00", "10:30"));
    const held = await must(s.site.post("/slots/holds", { slot_hold: { service_id: s.serviceId, ...at("2030-01-21", "14:00", "14:30") } }));
    // Without the secret the time is taken (by the hold); with it the move goes through.
    const refused = await move(s, mine, { booking: at("2030-01-21", "14:00", "14:30") });
    expect(refused.body).toEqual({ booked_from: [FULL] });
    const res = await move(s, mine, { booking: at("2030-01-21", "14:00", "14:30"), hold_secret: held.hold_secret });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.booked_from).toBe("2030-01-21T14:00:00+01:00");
    const hold = await env.DB.prepare("SELECT ended_by, booking_id FROM slot_holds WHERE id = ?").bind(held.slot_hold.id).first();
    expect(hold).toEqual({ ended_by: "converted", booking_id: mine.id });
  });

  it("refuses a hold of another time and leaves booking and hold as they were", async () => {
    const s = await siteOf({ slot_holds_enabled: true });
    const mine = await book(s, at("2030-01-22", "10:00", "10:30"));
    const held = await must(s.site.post("/slots/holds", { slot_hold: { service_id: s.serviceId, ...at("2030-01-22", "15:00", "15:30") } }));
    const before = await unchanged(mine.id);
    const res = await move(s, mine, { booking: at("2030-01-22", "14:00", "14:30"), hold_secret: held.hold_secret });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ hold_secret: ["holds another time or service"] });
    expect(await unchanged(mine.id)).toEqual(before);
    expect(await env.DB.prepare("SELECT ended_at FROM slot_holds WHERE id = ?").bind(held.slot_hold.id).first("ended_at")).toBeNull();
  });
});

describe("moving an event booking", () => {
  async function classes() {
    const s = await siteOf({}, 10);
    const make = catalogue(s.api);
    const yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
    const other = await make.service({ title: "Pilates", booking_type: "attendance" });
    const event = (serviceId: number, day: string, capacity = 2) =>
      make.event({ resourceId: s.resourceId, serviceId, capacity, starts: `${day} 18:00`, ends: `${day} 19:00` });
    return {
      s,
      yoga,
      first: await event(yoga.id, "2030-01-28"),
      second: await event(yoga.id, "2030-01-29"),
      full: await event(yoga.id, "2030-01-30", 1),
      pilates: await event(other.id, "2030-01-31"),
    };
  }
  const bookEvent = async (s: Site, eventId: number) => {
    const res = await s.site.post("/bookings", { booking: { event_id: eventId, person_attributes: { name: "Y", email: `y${Math.random()}@example.com` } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.booking.id as number, token: res.body.booking_token as string };
  };

  it("moves to another event of the same service with a free seat", async () => {
    const { s, first, second } = await classes();
    const mine = await bookEvent(s, first);
    const res = await move(s, mine, { booking: { event_id: second } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking).toMatchObject({ event_id: second, booked_from: "2030-01-29T18:00:00+01:00" });
  });

  it("refuses a full event, another service's event and times, and changes nothing", async () => {
    const { s, first, full, pilates } = await classes();
    await bookEvent(s, full);
    const mine = await bookEvent(s, first);
    const before = await unchanged(mine.id);
    expect((await move(s, mine, { booking: { event_id: full } })).body).toEqual({ event_id: ["is fully booked"] });
    expect((await move(s, mine, { booking: { event_id: pilates } })).body).toEqual({ event_id: ["is not an event of this booking's service open for booking"] });
    expect((await move(s, mine, { booking: { event_id: first } })).body).toEqual({ event_id: ["is the booking's own event"] });
    expect((await move(s, mine, { booking: at("2030-01-28", "10:00", "10:30") })).body).toEqual({ event_id: [expect.stringContaining("can't be blank")] });
    expect(await unchanged(mine.id)).toEqual(before);
  });
});

describe("what a move keeps and frees", () => {
  it("keeps a paid booking's payment as it was: nothing to pay again, nothing refunded", async () => {
    const s = await siteOf();
    const mine = await book(s, at("2030-02-04", "10:00", "10:30"));
    const payment = { amount: "450.00", currency: "NOK", status: "paid", amount_refunded: "0.00", checkout_session_id: "cs_test_1" };
    await env.DB.prepare("UPDATE bookings SET payment = ? WHERE id = ?").bind(JSON.stringify(payment), mine.id).run();
    const res = await move(s, mine, { booking: at("2030-02-04", "11:00", "11:30") });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.state).toBe("confirmed");
    expect(JSON.parse((await rawBooking(mine.id))!.payment)).toEqual(payment);
  });

  it("offers the freed time to the first in its waitlist line", async () => {
    const s = await siteOf({ waitlist_enabled: true });
    const mine = await book(s, at("2030-02-05", "10:00", "10:30"));
    const joined = await must(
      s.site.post("/waitlist", {
        waitlist_entry: { service_id: s.serviceId, ...at("2030-02-05", "10:00", "10:30"), person_attributes: { name: "Ola", email: "ola@example.com" } },
      }),
    );
    await must(move(s, mine, { booking: at("2030-02-05", "12:00", "12:30") }));
    expect((await must(s.api.get(`/waitlist/${joined.waitlist_entry.id}`))).waitlist_entry.state).toBe("offered");
  });
});

describe("races", () => {
  it("a move into the last free seat and a booking of it at once: one wins, and a refused mover keeps the old time", async () => {
    for (let round = 0; round < 4; round += 1) {
      const s = await siteOf();
      const day = `2030-03-0${round + 4}`;
      const mine = await book(s, at(day, "10:00", "10:30"));
      const [moved, booked] = await Promise.all([
        move(s, mine, { booking: at(day, "14:00", "14:30") }),
        s.site.post("/bookings", {
          booking: { service_id: s.serviceId, ...at(day, "14:00", "14:30"), person_attributes: { name: "B", email: `b${round}@example.com` } },
        }),
      ]);
      expect([moved.status, booked.status].sort()).toEqual([200, 400]);
      const row = (await rawBooking(mine.id))!;
      expect(row.booked_from).toBe(Date.parse(moved.status === 200 ? `${day}T13:00:00Z` : `${day}T09:00:00Z`));
      expect(row.state).toBe("confirmed");
      const taken = await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE account_id = ? AND active = 1 AND booked_from = ?")
        .bind(s.accountId, Date.parse(`${day}T13:00:00Z`))
        .first("n");
      expect(taken).toBe(1);
    }
  });

  it("a move racing its own cancel: the booking ends cancelled, at the new time only when the move went first", async () => {
    for (let round = 0; round < 4; round += 1) {
      const s = await siteOf();
      const day = `2030-03-1${round + 1}`;
      const mine = await book(s, at(day, "10:00", "10:30"));
      const [moved, cancelled] = await Promise.all([
        move(s, mine, { booking: at(day, "14:00", "14:30") }),
        s.site.put(`/bookings/${mine.id}/cancel`, {}, withToken(mine.token)),
      ]);
      expect(cancelled.status).toBe(200);
      const row = (await rawBooking(mine.id))!;
      expect(row.state).toBe("cancelled");
      if (moved.status === 200) expect(row.booked_from).toBe(Date.parse(`${day}T13:00:00Z`));
      else {
        expect(moved.body).toEqual({ state: ["is cancelled: the booking can't be moved"] });
        expect(row.booked_from).toBe(Date.parse(`${day}T09:00:00Z`));
      }
    }
  });
});

describe("move_booking, the booking site's MCP tool", () => {
  const siteMcp = (_: Site, sub: string) => mcpClient(`http://${sub}.localhost/mcp`, { "cf-connecting-ip": `203.0.113.${(visitors += 1) % 250}` });
  const subdomainOf = async (s: Site) => (await must(s.api.get("/client"))).client.subdomain as string;

  it("moves the booking its token opens, and refuses as the site does", async () => {
    const s = await siteOf();
    const mcp = await siteMcp(s, await subdomainOf(s));
    const booked = await mcp.call("book", {
      booking: { service_id: s.serviceId, ...at("2030-02-11", "10:00", "10:30"), person_attributes: { name: "Kari", email: "kari@example.com" } },
    });
    const own = { booking_id: booked.booking.id, booking_token: booked.booking_token };
    const moved = await mcp.call("move_booking", { ...own, booking: at("2030-02-11", "15:00", "15:30") });
    expect(moved.booking).toMatchObject({ id: booked.booking.id, booked_from: "2030-02-11T15:00:00+01:00" });
    await book(s, at("2030-02-11", "16:00", "16:30"));
    const full = await mcp.refusal("move_booking", { ...own, booking: at("2030-02-11", "16:00", "16:30") });
    expect(full.error).toEqual({ status: 400, error: { booked_from: [FULL] } });
    expect((await rawBooking(booked.booking.id))!.booked_from).toBe(Date.parse("2030-02-11T14:00:00Z"));
  });

  it("opens nothing with another booking's token or on another account's site", async () => {
    const s = await siteOf();
    const other = await siteOf();
    const mine = await book(s, at("2030-02-12", "10:00", "10:30"));
    const second = await book(s, at("2030-02-12", "11:00", "11:30"));
    const before = await unchanged(mine.id);
    const ours = await siteMcp(s, await subdomainOf(s));
    const theirs = await siteMcp(other, await subdomainOf(other));
    const body = { booking: at("2030-02-12", "15:00", "15:30") };
    expect((await ours.refusal("move_booking", { booking_id: mine.id, booking_token: second.token, ...body })).text).toBe("The booking was not found.");
    expect((await theirs.refusal("move_booking", { booking_id: mine.id, booking_token: mine.token, ...body })).text).toBe("The booking was not found.");
    expect(await unchanged(mine.id)).toEqual(before);
  });
});

describe("the booking page's Change time (without script)", () => {
  const page = (s: Site, query: string) => s.site.get(`/${query}`, { accept: "text/html" });
  const amp = (text: string) => text.replaceAll("&", "&amp;");

  it("offers Change time beside Cancel, and the service's calendar whose links keep the booking", async () => {
    const s = await siteOf();
    const mine = await book(s, at("2030-02-18", "10:00", "10:30"));
    const token = encodeURIComponent(mine.token);
    const view: string = (await page(s, `?booking=${mine.id}&token=${token}`)).body;
    expect(view).toContain(`<a id="move-link" class="button" href="${amp(`/?move=${mine.id}&token=${token}`)}">Change time</a>`);
    expect(view).toContain(`id="cancel-button"`);
    const month: string = (await page(s, `?move=${mine.id}&token=${token}&month=2030-02`)).body;
    expect(month).toContain('<h1 id="service-title">Change the time of your booking</h1>');
    expect(month).toMatch(/id="booked-now">Booked now: <strong>Cut<\/strong>, Monday, 18 February 2030, 10:00–10:30 \(Europe\/Oslo\)/);
    expect(month).toContain(amp(`href="/?move=${mine.id}&token=${token}&service=${s.serviceId}&day=2030-02-19"`));
    const day: string = (await page(s, `?move=${mine.id}&token=${token}&service=${s.serviceId}&day=2030-02-19&slot=2030-02-19T11:00:00%2B01:00`)).body;
    expect(day).toContain(`data-move="${mine.id}"`);
    expect(day).toContain(">Move to this time</button>");
    expect(day).not.toContain("f-name");
    // Back to the booking, unchanged.
    expect(day).toContain(amp(`id="keep-time" href="/?booking=${mine.id}&token=${token}"`));
  });

  it("offers no Change time where moves are off or the time is too close, and shows a move link's booking as itself then", async () => {
    const off = await siteOf({ allow_rescheduling: false });
    const mine = await book(off, at("2030-02-19", "10:00", "10:30"));
    const token = encodeURIComponent(mine.token);
    expect((await page(off, `?booking=${mine.id}&token=${token}`)).body).not.toContain("move-link");
    const moveLink: string = (await page(off, `?move=${mine.id}&token=${token}`)).body;
    expect(moveLink).toContain('id="booking-title"');
    expect(moveLink).not.toContain("service-title");
    const strict = await siteOf({ cancellation_period: "30 years" });
    const soon = await book(strict, at("2030-02-19", "10:00", "10:30"));
    expect((await page(strict, `?booking=${soon.id}&token=${encodeURIComponent(soon.token)}`)).body).not.toContain("move-link");
    // A wrong token names nothing.
    const wrong: string = (await page(off, `?move=${mine.id}&token=nope`)).body;
    expect(wrong).toContain("This booking was not found.");
    expect(wrong).not.toContain("Cut");
  });

  it("speaks the account's language", async () => {
    for (const [locale, changeTime, moved] of [
      ["sv", "Ändra tid", "Din bokning har flyttats."],
      ["nb", "Endre tid", "Bestillingen din er flyttet."],
    ]) {
      const s = await siteOf({ locale });
      const mine = await book(s, at("2030-02-20", "10:00", "10:30"));
      const html: string = (await page(s, `?booking=${mine.id}&token=${encodeURIComponent(mine.token)}&moved=1`)).body;
      expect(html).toContain(`>${changeTime}</a>`);
      expect(html).toContain(moved);
    }
  });
});
