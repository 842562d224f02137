// Calendar subscriptions (issue 32, docs/decisions/calendar-subscriptions.md): a resource subscribes
// to a calendar kept elsewhere, fetched in the background from a local iCalendar host (the test
// receiver's /calendars), and its busy times take the resource in slots and creates.
import { describe, expect, it } from "vitest";
import { Temporal } from "@js-temporal/polyfill";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { eventually, runQueue } from "../support/queues";
import { receiver } from "../support/webhooks";
import { eq } from "drizzle-orm";
import { openDb } from "../../src/db/client";
import { accounts } from "../../src/db/schema";
import { durableCapacityGuard } from "../../src/durable-objects/guard-client";
import { createCalendarSubscription } from "../../src/features/calendar-subscriptions/service";

const host = (key: string) => `${env.TEST_RECEIVER}/calendars/${key}`;
let feeds = 0;
const feedKey = () => `feed-${Date.now()}-${(feeds += 1)}`;

async function publish(key: string, ics: string, opts: { etag?: string; mode?: string } = {}) {
  const query = new URLSearchParams({ ...(opts.etag ? { etag: opts.etag } : {}), ...(opts.mode ? { mode: opts.mode } : {}) });
  const res = await fetch(`${host(key)}?${query}`, { method: "PUT", body: ics });
  expect(res.status).toBe(200);
}

const calendar = (...events: string[]) => ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//calendar//EN", ...events, "END:VCALENDAR"].join("\r\n");
const vevent = (...lines: string[]) => ["BEGIN:VEVENT", `DTSTAMP:20260101T000000Z`, ...lines, "END:VEVENT"].join("\r\n");

async function shop() {
  // Busy times are read from today to the booking horizon: five years reach the suite's 2030 days.
  const { api, account } = await newAccount({ future_bookable_period: "5 years" });
  const make = catalogue(api);
  const room = await make.resource();
  const cut = await make.service({ title: "Cut", interval: 60 });
  await make.provider(room.id, cut.id);
  return { api, account, room, cut };
}

/** Subscribes and waits for the first fetch, queued by the create, to be recorded. */
async function subscribe(api: Client, resourceId: number, url: string) {
  const created = await must(api.post("/calendar_subscriptions", { calendar_subscription: { resource_id: resourceId, url } }));
  const id = created.calendar_subscription.id;
  const fetched = await eventually(
    () => must(api.get(`/calendar_subscriptions/${id}`)),
    (b) => b.calendar_subscription.last_fetched_at !== null,
  );
  return { created: created.calendar_subscription, fetched: fetched.calendar_subscription };
}

const fetchAgain = (accountId: number, subscriptionId: number) =>
  runQueue("booking-calendars", [{ shard: "DB", account_id: accountId, subscription_id: subscriptionId }]);

/** Free starts ("HH:MM", the account's zone) of a day. */
async function freeStarts(api: Client, serviceId: number, day: string) {
  const slots = await must(api.get(`/services/${serviceId}/slots?from=${day}&to=${day}`));
  return slots.filter((e: any) => e.slot.free > 0).map((e: any) => e.slot.timestamp.slice(11, 16));
}

describe("subscribing", () => {
  it("a weekly meeting with one occurrence moved and one cancelled is busy exactly where it happens", async () => {
    const { api, room, cut } = await shop();
    const key = feedKey();
    await publish(
      key,
      calendar(
        vevent("UID:weekly@test", "DTSTART;TZID=Europe/Oslo:20300107T100000", "DTEND;TZID=Europe/Oslo:20300107T110000", "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Weekly"),
        // The second Monday's meeting moved to 14:00; the third's cancelled.
        vevent("UID:weekly@test", "RECURRENCE-ID;TZID=Europe/Oslo:20300114T100000", "DTSTART;TZID=Europe/Oslo:20300114T140000", "DTEND;TZID=Europe/Oslo:20300114T150000"),
        vevent(
          "UID:weekly@test",
          "RECURRENCE-ID;TZID=Europe/Oslo:20300121T100000",
          "DTSTART;TZID=Europe/Oslo:20300121T100000",
          "DTEND;TZID=Europe/Oslo:20300121T110000",
          "STATUS:CANCELLED",
        ),
      ),
    );
    const { created, fetched } = await subscribe(api, room.id, host(key));
    expect(created.url).toBe(host(key));
    expect(fetched).toMatchObject({ status: "ok", last_error: null, failures: 0, busy_count: 3 });
    expect(await freeStarts(api, cut.id, "2030-01-07")).not.toContain("10:00");
    const moved = await freeStarts(api, cut.id, "2030-01-14");
    expect(moved).toContain("10:00");
    expect(moved).not.toContain("14:00");
    expect(await freeStarts(api, cut.id, "2030-01-21")).toContain("10:00");
    expect(await freeStarts(api, cut.id, "2030-01-28")).not.toContain("10:00");
    const refused = await api.post("/bookings", {
      booking: { resource_id: room.id, service_id: cut.id, booked_from: "2030-01-14 14:00", booked_to: "2030-01-14 15:00" },
    });
    expect(refused.status).toBe(400);
  });

  it("an all-day event takes the whole day in the account's zone; a transparent event takes nothing", async () => {
    const { api, room, cut } = await shop();
    const key = feedKey();
    await publish(
      key,
      calendar(
        vevent("UID:away@test", "DTSTART;VALUE=DATE:20300108", "DTEND;VALUE=DATE:20300109", "SUMMARY:Away"),
        vevent("UID:free@test", "DTSTART:20300109T090000Z", "DTEND:20300109T100000Z", "TRANSP:TRANSPARENT", "SUMMARY:Tentative"),
      ),
    );
    await subscribe(api, room.id, host(key));
    expect(await freeStarts(api, cut.id, "2030-01-08")).toEqual([]);
    expect(await freeStarts(api, cut.id, "2030-01-09")).toContain("10:00");
  });

  it("events given in America/New_York land on the right Oslo hours on both sides of each DST change", async () => {
    const { api, room, cut } = await shop();
    const key = feedKey();
    // 05:00 in New York, daily across 2030-03-10 (New York springs forward) and 2030-03-31 (Oslo does).
    await publish(
      key,
      calendar(
        vevent("UID:ny@test", "DTSTART;TZID=America/New_York:20300308T050000", "DTEND;TZID=America/New_York:20300308T060000", "RRULE:FREQ=DAILY;UNTIL=20300402T000000Z"),
      ),
    );
    await subscribe(api, room.id, host(key));
    // Before 03-10: UTC-5 and UTC+1, 11:00 in Oslo; between the changes: UTC-4 and UTC+1, 10:00; after 03-31: UTC-4 and UTC+2, 11:00.
    expect(await freeStarts(api, cut.id, "2030-03-09")).not.toContain("11:00");
    expect(await freeStarts(api, cut.id, "2030-03-09")).toContain("10:00");
    expect(await freeStarts(api, cut.id, "2030-03-20")).not.toContain("10:00");
    expect(await freeStarts(api, cut.id, "2030-03-20")).toContain("11:00");
    expect(await freeStarts(api, cut.id, "2030-04-01")).not.toContain("11:00");
    expect(await freeStarts(api, cut.id, "2030-04-01")).toContain("10:00");
  });
});

describe("fetching", () => {
  it("sends the last ETag back; a 304 changes nothing and is a good fetch", async () => {
    const { api, account, room } = await shop();
    const key = feedKey();
    await publish(key, calendar(vevent("UID:a@test", "DTSTART:20300107T090000Z", "DTEND:20300107T100000Z")), { etag: '"v1"' });
    const { fetched } = await subscribe(api, room.id, host(key));
    const before = await env.DB.prepare("SELECT id, occupied_from FROM busy_times WHERE subscription_id = ?").bind(fetched.id).all();
    await fetchAgain(account.id, fetched.id);
    const log = (await (await fetch(`${env.TEST_RECEIVER}/calendars/_log/${key}`)).json()) as { headers: Record<string, string> }[];
    expect(log.at(-1)!.headers["if-none-match"]).toBe('"v1"');
    const after = (await must(api.get(`/calendar_subscriptions/${fetched.id}`))).calendar_subscription;
    expect(after).toMatchObject({ status: "ok", failures: 0, busy_count: 1 });
    expect((await env.DB.prepare("SELECT id, occupied_from FROM busy_times WHERE subscription_id = ?").bind(fetched.id).all()).results).toEqual(before.results);
  });

  it("a feed that fails (too large, too slow, malformed, an error status) keeps its last good busy times and shows why", async () => {
    const { api, account, room, cut } = await shop();
    const hook = receiver();
    await must(api.post("/web_hooks", { web_hook: { target_url: hook.url, event: "calendar_subscription.*" } }));
    const key = feedKey();
    await publish(key, calendar(vevent("UID:a@test", "DTSTART:20300107T090000Z", "DTEND:20300107T100000Z")));
    const { fetched } = await subscribe(api, room.id, host(key));
    for (const [mode, text, error] of [
      ["huge", "", /larger than/],
      ["status-503", "", /HTTP 503/],
      [undefined, "<html>Sign in</html>", /not an iCalendar/],
      ["hang", "", /no answer within/],
    ] as const) {
      await publish(key, text, { mode });
      await fetchAgain(account.id, fetched.id);
      const now = (await must(api.get(`/calendar_subscriptions/${fetched.id}`))).calendar_subscription;
      expect(now.status).toBe("failing");
      expect(now.last_error).toMatch(error);
      expect(now.busy_count).toBe(1);
      expect(await freeStarts(api, cut.id, "2030-01-07")).not.toContain("10:00");
    }
    expect((await must(api.get(`/calendar_subscriptions/${fetched.id}`))).calendar_subscription.failures).toBe(4);
    // The third failure in a row told the account, once: a web hook and an e-mail.
    const notices = await env.DB.prepare("SELECT recipient, subject FROM messages WHERE account_id = ? AND kind = 'notification'").bind(account.id).all();
    expect(notices.results).toEqual([{ recipient: account.email, subject: "A calendar subscription cannot be read" }]);
    const delivered = await eventually(
      () => hook.requests(),
      (r) => r.length > 0,
    );
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0].body)).toMatchObject({
      event: "calendar_subscription.failing",
      data: { calendar_subscription: { id: fetched.id, status: "failing", failures: 3 } },
    });
  });

  it("a changed feed frees what it no longer holds and takes what it now holds, writing only the difference", async () => {
    const { api, account, room, cut } = await shop();
    const key = feedKey();
    await publish(
      key,
      calendar(vevent("UID:a@test", "DTSTART:20300107T090000Z", "DTEND:20300107T100000Z"), vevent("UID:b@test", "DTSTART:20300108T090000Z", "DTEND:20300108T100000Z")),
    );
    const { fetched } = await subscribe(api, room.id, host(key));
    const kept = await env.DB.prepare("SELECT id FROM busy_times WHERE subscription_id = ? ORDER BY occupied_from LIMIT 1").bind(fetched.id).first<{ id: number }>();
    // The same text again (no ETag to save the download): nothing written, no version moved.
    const versions = async () => ({
      hours: (await env.DB.prepare("SELECT hour, version FROM booking_hour_versions WHERE resource_id = ? ORDER BY hour").bind(room.id).all()).results,
      availability: await env.DB.prepare("SELECT version FROM availability_versions WHERE account_id = ?").bind(account.id).first("version"),
    });
    const before = await versions();
    await fetchAgain(account.id, fetched.id);
    expect(await versions()).toEqual(before);
    await publish(
      key,
      calendar(vevent("UID:a@test", "DTSTART:20300107T090000Z", "DTEND:20300107T100000Z"), vevent("UID:c@test", "DTSTART:20300109T090000Z", "DTEND:20300109T100000Z")),
    );
    await fetchAgain(account.id, fetched.id);
    const rows = (
      await env.DB.prepare("SELECT id, occupied_from FROM busy_times WHERE subscription_id = ? ORDER BY occupied_from")
        .bind(fetched.id)
        .all<{ id: number; occupied_from: number }>()
    ).results;
    expect(rows.map((r) => r.occupied_from)).toEqual([Date.parse("2030-01-07T09:00:00Z"), Date.parse("2030-01-09T09:00:00Z")]);
    expect(rows[0].id).toBe(kept!.id);
    expect(await freeStarts(api, cut.id, "2030-01-08")).toContain("10:00");
    expect(await freeStarts(api, cut.id, "2030-01-09")).not.toContain("10:00");
  });
});

describe("the address", () => {
  it("is answered once; later answers show only a hint", async () => {
    const { api, room } = await shop();
    const key = feedKey();
    await publish(key, calendar());
    const { created } = await subscribe(api, room.id, host(key));
    const listed = await must(api.get(`/calendar_subscriptions?resource_id=${room.id}`));
    const one = (await must(api.get(`/calendar_subscriptions/${created.id}`))).calendar_subscription;
    for (const shown of [listed[0].calendar_subscription, one]) {
      expect(shown.url).toBeUndefined();
      expect(JSON.stringify(shown)).not.toContain(key);
      expect(shown.url_hint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…/);
    }
  });

  it("a private, loopback or plain-http address is refused in production; every redirect is held to the same rule", async () => {
    const { api, account, room } = await shop();
    const db = openDb(env.DB);
    const row = (await db.query.accounts.findFirst({ where: eq(accounts.id, account.id) }))!;
    const production = {
      db,
      env: { ...env, ENVIRONMENT: "production", ROOT_DOMAIN: "bookings.example" },
      account: row,
      now: Date.now(),
      surface: "private_api" as const,
      capacityGuard: durableCapacityGuard(env, "DB"),
    };
    for (const [url, message] of [
      ["https://10.0.0.1/cal.ics", "must name a host, not an IP address"],
      ["webcal://printer.local/cal.ics", "must not point at a private, loopback or link-local address"],
      ["http://calendar.example.com/cal.ics", "must be an https URL"],
      ["https://demo.bookings.example/hook", "must not point at this service"],
    ]) {
      await expect(createCalendarSubscription(production, { resource_id: room.id, url })).rejects.toMatchObject({ status: 400, body: { url: [message] } });
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM calendar_subscriptions WHERE account_id = ?").bind(account.id).first("n")).toBe(0);
    // This service's own calendar feed is the exception: it is read in-process, never fetched.
    // (Under this suite's root domain, so the fetch the create queues reads it in-process as well.)
    const ownRoot = { ...production, env: { ...production.env, ROOT_DOMAIN: env.ROOT_DOMAIN } };
    const own = await createCalendarSubscription(ownRoot, { resource_id: room.id, url: `https://nobody.${env.ROOT_DOMAIN}/calendar/cal_${"A".repeat(43)}.ics` });
    expect(own.subscription.url_hint).toBe(`https://nobody.${env.ROOT_DOMAIN}/….ics`);
    await must(api.delete(`/calendar_subscriptions/${own.subscription.id}`));
    // A hop to anything the rule refuses is not followed (here an ftp address, refused everywhere).
    const key = feedKey();
    await publish(key, calendar(), { mode: "redirect-ftp" });
    const { fetched } = await subscribe(api, room.id, host(key));
    expect(fetched).toMatchObject({ status: "failing", last_error: "the address must be an http or https URL" });
  });

  it("another account's subscription is a 404 and its busy times change nothing here", async () => {
    const mine = await shop();
    const theirs = await shop();
    const key = feedKey();
    await publish(key, calendar(vevent("UID:a@test", "DTSTART:20300107T090000Z", "DTEND:20300107T100000Z")));
    const { created } = await subscribe(theirs.api, theirs.room.id, host(key));
    expect((await mine.api.get(`/calendar_subscriptions/${created.id}`)).status).toBe(404);
    expect((await mine.api.delete(`/calendar_subscriptions/${created.id}`)).status).toBe(404);
    expect(await must(mine.api.get("/calendar_subscriptions"))).toEqual([]);
    expect((await mine.api.post("/calendar_subscriptions", { calendar_subscription: { resource_id: theirs.room.id, url: host(key) } })).status).toBe(404);
    expect(await freeStarts(mine.api, mine.cut.id, "2030-01-07")).toContain("10:00");
  });

  it("deletes racing fetches leave no busy time without its subscription", async () => {
    const { api, account, room, cut } = await shop();
    const key = feedKey();
    await publish(key, calendar(vevent("UID:a@test", "DTSTART:20300107T090000Z", "DTEND:20300107T100000Z")));
    for (let round = 0; round < 4; round++) {
      const subscriptions = await Promise.all([0, 1, 2].map(() => subscribe(api, room.id, host(key))));
      // A changed feed, so each fetch writes; every subscription deleted while its fetch runs.
      await publish(key, calendar(vevent(`UID:r${round}@test`, `DTSTART:2030010${round + 1}T120000Z`, `DTEND:2030010${round + 1}T130000Z`)));
      await Promise.all(subscriptions.flatMap(({ created }) => [fetchAgain(account.id, created.id), api.delete(`/calendar_subscriptions/${created.id}`)]));
      const orphans = await env.DB.prepare(
        "SELECT COUNT(*) AS n FROM busy_times b WHERE b.account_id = ? AND NOT EXISTS (SELECT 1 FROM calendar_subscriptions s WHERE s.id = b.subscription_id)",
      )
        .bind(account.id)
        .first<number>("n");
      expect(orphans).toBe(0);
    }
    expect(await freeStarts(api, cut.id, "2030-01-07")).toContain("10:00");
  });

  it("deleting a subscription frees its busy times at once", async () => {
    const { api, room, cut } = await shop();
    const key = feedKey();
    await publish(key, calendar(vevent("UID:a@test", "DTSTART:20300107T090000Z", "DTEND:20300107T100000Z")));
    const { created } = await subscribe(api, room.id, host(key));
    expect(await freeStarts(api, cut.id, "2030-01-07")).not.toContain("10:00");
    await must(api.delete(`/calendar_subscriptions/${created.id}`));
    expect(await freeStarts(api, cut.id, "2030-01-07")).toContain("10:00");
  });
});

describe("bookings and busy times", () => {
  it("a booking made before a busy time arrived is kept and listed as a conflict; one made after is refused", async () => {
    const { api, account, room, cut } = await shop();
    const key = feedKey();
    await publish(key, calendar());
    const { fetched } = await subscribe(api, room.id, host(key));
    const kept = await must(
      api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" } }),
    );
    await publish(key, calendar(vevent("UID:m@test", "DTSTART;TZID=Europe/Oslo:20300107T103000", "DTEND;TZID=Europe/Oslo:20300107T120000")));
    await fetchAgain(account.id, fetched.id);
    expect((await must(api.get(`/bookings/${kept.booking.id}`))).booking).toMatchObject({ state: "confirmed", active: true });
    const conflicts = await must(api.get(`/calendar_subscriptions/conflicts?resource_id=${room.id}`));
    expect(conflicts).toEqual([
      {
        calendar_conflict: {
          booking_id: kept.booking.id,
          resource_id: room.id,
          subscription_id: fetched.id,
          booked_from: "2030-01-07T10:00:00+01:00",
          booked_to: "2030-01-07T11:00:00+01:00",
          busy_from: "2030-01-07T10:30:00+01:00",
          busy_to: "2030-01-07T12:00:00+01:00",
        },
      },
    ]);
    expect(
      (await api.post("/bookings", { booking: { resource_id: room.id, service_id: cut.id, booked_from: "2030-01-07 11:00", booked_to: "2030-01-07 12:00" } })).status,
    ).toBe(400);
  });

  it("a booking, a hold and a fetch making the same time busy, at once: never booked and busy unless the booking came first (then it is a listed conflict)", async () => {
    for (let round = 0; round < 5; round++) {
      const { api, account, room, cut } = await shop();
      const key = feedKey();
      await publish(key, calendar());
      const { fetched } = await subscribe(api, room.id, host(key));
      await publish(key, calendar(vevent("UID:r@test", "DTSTART;TZID=Europe/Oslo:20300107T100000", "DTEND;TZID=Europe/Oslo:20300107T110000")));
      const time = { resource_id: room.id, service_id: cut.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" };
      const [booked, held] = await Promise.all([
        api.post("/bookings", { booking: time }),
        api.post("/slots/holds", { slot_hold: time }),
        fetchAgain(account.id, fetched.id),
      ]);
      expect([200, 400]).toContain(booked.status);
      expect([200, 400]).toContain(held.status);
      // Capacity 1 between the two of them, whatever the fetch did.
      expect(booked.status === 200 && held.status === 200).toBe(false);
      const busy = await env.DB.prepare("SELECT COUNT(*) AS n FROM busy_times WHERE subscription_id = ?").bind(fetched.id).first<number>("n");
      expect(busy).toBe(1);
      const conflicts = (await must(api.get(`/calendar_subscriptions/conflicts?resource_id=${room.id}`))).map((e: any) => e.calendar_conflict.booking_id);
      // A booking that got in came before the busy time (the guarded insert reads busy_times in the same statement): it is a conflict.
      expect(conflicts).toEqual(booked.status === 200 ? [booked.body.booking.id] : []);
      // Once the busy time is in, nothing more gets the time.
      expect((await api.post("/bookings", { booking: time })).status).toBe(400);
      expect((await api.post("/slots/holds", { slot_hold: time })).status).toBe(400);
    }
  });

  it("round trip: resource A's own calendar feed, subscribed by resource B, makes A's bookings busy on B after one fetch, across a DST change", async () => {
    const { api, room: a, cut } = await shop();
    const b = await catalogue(api).resource({ title: "B" });
    await catalogue(api).provider(b.id, cut.id);
    // A feed shows 30 days back to 365 ahead: the days around Europe/Oslo's next DST change (at
    // least three days away), one booking the day before it and one the day after.
    const change = Temporal.Now.zonedDateTimeISO("Europe/Oslo").add({ hours: 72 }).getTimeZoneTransition("next")!;
    const changeDay = change.toPlainDate();
    const days = [changeDay.subtract({ days: 1 }).toString(), changeDay.add({ days: 1 }).toString()];
    for (const day of days) {
      await must(api.post("/bookings", { booking: { resource_id: a.id, service_id: cut.id, booked_from: `${day} 10:00`, booked_to: `${day} 11:00` } }));
    }
    const feed = (await must(api.post("/calendar_feeds", { calendar_feed: { resource_id: a.id } }))).calendar_feed;
    // This service's own feed: read in-process by its token, not fetched (own-feed.ts).
    const { fetched } = await subscribe(api, b.id, feed.url);
    expect(fetched).toMatchObject({ status: "ok", busy_count: 2 });
    const onB = async (day: string) => {
      const slots = await must(api.get(`/services/${cut.id}/slots?from=${day}&to=${day}&selected_resources[]=${b.id}`));
      return slots.filter((e: any) => e.slot.free > 0).map((e: any) => e.slot.timestamp.slice(11, 16));
    };
    for (const day of days) {
      expect(await onB(day)).not.toContain("10:00");
      expect(await onB(day)).toContain("09:00");
      expect(await onB(day)).toContain("11:00");
    }
  });
});
