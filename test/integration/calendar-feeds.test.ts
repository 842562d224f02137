// Calendar feeds (issue 23 part 2): secret subscription URLs made, listed, rotated and deleted on
// the private API, served on the booking site as iCalendar that an independent parser (ical.js)
// reads back to the bookings' own instants across DST changes, with ETag and 304.
import ICAL from "ical.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newAccount, publicSite } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { messagesOf } from "../support/messages";

// The feed's window is 30 days back and 365 ahead of now: the clock is moved to early 2030.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-15T12:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

async function accountWithResource(time_zone = "Europe/Oslo") {
  const { api, account } = await newAccount({ time_zone });
  const make = catalogue(api);
  const resource = await make.resource({ title: "Chair" });
  const service = await make.service({ title: "Cut, wash; dry" });
  await make.provider(resource.id, service.id);
  return { api, account, make, resource, service, site: publicSite(account.subdomain) };
}

const pathOf = (url: string) => new URL(url).pathname;

function parsed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").map((v) => {
    const event = new ICAL.Event(v);
    return {
      uid: event.uid,
      sequence: event.sequence,
      summary: event.summary,
      status: v.getFirstPropertyValue("status"),
      from: event.startDate.toJSDate().getTime(),
      to: event.endDate.toJSDate().getTime(),
    };
  });
}

describe("POST /api/v1/calendar_feeds", () => {
  it("answers the account feed's URL once; the list shows it without the URL; rotation ends the old URL at once", async () => {
    const { api, site } = await accountWithResource();
    const created = (await must(api.post("/calendar_feeds", {}))).calendar_feed;
    expect(created).toEqual({
      id: expect.any(Number),
      resource_id: null,
      created_at: expect.any(String),
      url: expect.stringMatching(new RegExp(`^http://${site.origin.slice(7)}/calendar/cal_[A-Za-z0-9_-]{43}\\.ics$`)),
    });
    expect((await site.get(pathOf(created.url))).status).toBe(200);
    expect(await must(api.get("/calendar_feeds"))).toEqual([{ calendar_feed: { id: created.id + 1 - 1, resource_id: null, created_at: created.created_at } }]);

    const rotated = (await must(api.post("/calendar_feeds", { calendar_feed: {} }))).calendar_feed;
    expect(rotated.url).not.toBe(created.url);
    expect((await site.get(pathOf(created.url))).status).toBe(404);
    expect((await site.get(pathOf(rotated.url))).status).toBe(200);
    expect((await must(api.get("/calendar_feeds"))).map((f: any) => f.calendar_feed.id)).toEqual([rotated.id]);
  });

  it("makes one feed per resource beside the account's; another account's resource is a 404", async () => {
    const { api, resource } = await accountWithResource();
    const other = await accountWithResource();
    const feed = (await must(api.post("/calendar_feeds", { calendar_feed: { resource_id: resource.id } }))).calendar_feed;
    expect(feed.resource_id).toBe(resource.id);
    await must(api.post("/calendar_feeds", {}));
    expect((await must(api.get("/calendar_feeds"))).length).toBe(2);
    const foreign = await api.post("/calendar_feeds", { calendar_feed: { resource_id: other.resource.id } });
    expect(foreign.status).toBe(404);
  });

  it("answers 400 in the API's shape for a bad resource_id or an unknown attribute", async () => {
    const { api } = await accountWithResource();
    const bad = await api.post("/calendar_feeds", { calendar_feed: { resource_id: "chair" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ resource_id: [expect.any(String)] });
    const unknown = await api.post("/calendar_feeds", { calendar_feed: { token: "mine" } });
    expect(unknown.status).toBe(400);
    expect((await api.post("/calendar_feeds", { calendar_feed: "x" })).status).toBe(400);
  });
});

describe("DELETE /api/v1/calendar_feeds/{id}", () => {
  it("ends the URL at once; another account's feed is a 404", async () => {
    const { api, site } = await accountWithResource();
    const other = await accountWithResource();
    const feed = (await must(api.post("/calendar_feeds", {}))).calendar_feed;
    expect((await other.api.delete(`/calendar_feeds/${feed.id}`)).status).toBe(404);
    expect((await must(api.delete(`/calendar_feeds/${feed.id}`))).calendar_feed.id).toBe(feed.id);
    expect((await site.get(pathOf(feed.url))).status).toBe(404);
  });
});

describe("GET /calendar/{file} (booking site)", () => {
  it("is a 404 for an unknown, malformed or other account's token", async () => {
    const { api, site } = await accountWithResource();
    const other = await accountWithResource();
    const feed = (await must(api.post("/calendar_feeds", {}))).calendar_feed;
    expect((await other.site.get(pathOf(feed.url))).status).toBe(404);
    expect((await site.get(`/calendar/cal_${"A".repeat(43)}.ics`)).status).toBe(404);
    expect((await site.get("/calendar/nothing")).status).toBe(404);
  });

  for (const [zone, days] of [
    ["Europe/Oslo", ["2030-03-30", "2030-03-31", "2030-10-26", "2030-10-27"]],
    ["America/New_York", ["2030-03-09", "2030-03-10", "2030-11-02", "2030-11-03"]],
  ] as const) {
    it(`gives each booking its own instants across the DST changes of ${zone} (ical.js)`, async () => {
      const { api, make, resource, service, site } = await accountWithResource(zone);
      const made = [];
      for (const day of days) made.push(await make.booking({ resource_id: resource.id, service_id: service.id, booked_from: `${day} 10:00`, booked_to: `${day} 11:30` }));
      const feed = (await must(api.post("/calendar_feeds", { calendar_feed: { resource_id: resource.id } }))).calendar_feed;
      const res = await site.get(pathOf(feed.url));
      expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      expect(res.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
      // RFC 5545: every line at most 75 octets; UTC times.
      for (const line of (res.body as string).split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
      expect(res.body).toContain("SUMMARY:Cut\\, wash\\; dry");
      const host = new URL(site.origin).hostname;
      expect(parsed(res.body).sort((a, b) => a.from - b.from)).toEqual(
        made.map((b) => ({
          uid: `booking-${b.id}@${host}`,
          sequence: 0,
          summary: "Cut, wash; dry",
          status: "CONFIRMED",
          from: Date.parse(b.booked_from),
          to: Date.parse(b.booked_to),
        })),
      );
    });
  }

  it("gives a booking across the night of a DST change its real length (Europe/Oslo, 2030-03-31 and 2030-10-27)", async () => {
    const { api, make, service } = await accountWithResource();
    const night = await make.resource({ title: "Night", opening_hours_sun: ["00:00", "23:59"], opening_hours_sat: ["00:00", "23:59"] });
    const spring = await make.booking({ resource_id: night.id, service_id: service.id, booked_from: "2030-03-31 01:00", booked_to: "2030-03-31 04:00" });
    const autumn = await make.booking({ resource_id: night.id, service_id: service.id, booked_from: "2030-10-27 01:00", booked_to: "2030-10-27 04:00" });
    const url = pathOf((await must(api.post("/calendar_feeds", { calendar_feed: { resource_id: night.id } }))).calendar_feed.url);
    const [a, b] = parsed((await publicSite((await must(api.get("/client"))).client.subdomain).get(url)).body).sort((x, y) => x.from - y.from);
    // 01:00 to 04:00 wall time is two hours in spring and four in autumn.
    expect([a.from, a.to, b.from, b.to]).toEqual([
      Date.parse("2030-03-31T00:00:00Z"),
      Date.parse("2030-03-31T02:00:00Z"),
      Date.parse("2030-10-26T23:00:00Z"),
      Date.parse("2030-10-27T03:00:00Z"),
    ]);
    expect([a.from, a.to, b.from, b.to]).toEqual([spring.booked_from, spring.booked_to, autumn.booked_from, autumn.booked_to].map(Date.parse));
  });

  it("shows a change at once with a rising SEQUENCE, a cancellation as CANCELLED, and a new ETag; unchanged it answers 304", async () => {
    const { api, make, resource, service, site } = await accountWithResource();
    const booking = await make.booking({ resource_id: resource.id, service_id: service.id, booked_from: "2030-02-04 10:00", booked_to: "2030-02-04 11:00" });
    const url = pathOf((await must(api.post("/calendar_feeds", {}))).calendar_feed.url);
    const first = await site.get(url);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await site.get(url, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();

    await must(api.put(`/bookings/${booking.id}`, { booking: { booked_from: "2030-02-04 12:00", booked_to: "2030-02-04 13:00" } }));
    const moved = await site.get(url, { "if-none-match": etag });
    expect(moved.status).toBe(200);
    expect(moved.headers.get("etag")).not.toBe(etag);
    const [entry] = parsed(moved.body);
    expect(entry).toMatchObject({
      uid: expect.stringMatching(`^booking-${booking.id}@`),
      sequence: 1,
      from: Date.parse("2030-02-04T12:00:00+01:00"),
      status: "CONFIRMED",
    });

    await must(api.put(`/bookings/${booking.id}/cancel`, {}));
    const cancelled = parsed((await site.get(url)).body)[0];
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.sequence).toBeGreaterThan(1);
  });

  it("shows an event once with its booked seats", async () => {
    const { api, make, resource } = await accountWithResource();
    const attendance = await make.service({ title: "Yoga", booking_type: "attendance" });
    await make.provider(resource.id, attendance.id);
    const eventId = await make.event({
      resourceId: resource.id,
      serviceId: attendance.id,
      capacity: 10,
      starts: "2030-02-05 18:00",
      ends: "2030-02-05 19:00",
      title: "Yoga class",
    });
    await make.booking({ event_id: eventId, service_id: attendance.id, count: 3 });
    const url = pathOf((await must(api.post("/calendar_feeds", {}))).calendar_feed.url);
    const entries = parsed((await publicSite((await must(api.get("/client"))).client.subdomain).get(url)).body);
    expect(entries).toEqual([
      expect.objectContaining({ uid: expect.stringMatching(`^event-${eventId}@`), summary: "Yoga class (3/10 booked)", from: Date.parse("2030-02-05T18:00:00+01:00") }),
    ]);
  });
});

describe("the booking's calendar file in its messages", () => {
  it("puts a signed link in a confirmation whose template names booking.calendar_url; the link opens that booking's file only", async () => {
    const { api, account } = await newAccount({ mail_confirmation: "See you. Calendar: {{ booking.calendar_url }}" });
    const make = catalogue(api);
    const resource = await make.resource({ title: "Chair" });
    const service = await make.service({ title: "Cut" });
    const booking = await make.booking(
      {
        resource_id: resource.id,
        service_id: service.id,
        booked_from: "2030-03-31 10:00",
        booked_to: "2030-03-31 11:00",
        person_attributes: { name: "Kari", email: `kari${Math.random().toString(36).slice(2)}@example.com` },
      },
      { confirmation_send_email: true },
    );
    const [message] = await messagesOf(api, `?booking_id=${booking.id}&kind=confirmation`);
    const link = /Calendar: (\S+)$/.exec(message.body)![1];
    expect(link).toMatch(new RegExp(`^http://${account.subdomain}\\.localhost/calendar/bookings/${booking.id}\\.ics\\?signature=[A-Za-z0-9_-]{43}$`));
    const url = new URL(link);
    const site = publicSite(account.subdomain);
    const file = await site.get(`${url.pathname}${url.search}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(parsed(file.body)).toEqual([
      {
        uid: `booking-${booking.id}@${account.subdomain}.localhost`,
        sequence: 0,
        summary: "Cut, Chair",
        status: "CONFIRMED",
        from: Date.parse(booking.booked_from),
        to: Date.parse(booking.booked_to),
      },
    ]);
    // The signature is the booking's: it opens no other booking of the account.
    const other = await make.booking({ resource_id: resource.id, booked_from: "2030-04-01 10:00", booked_to: "2030-04-01 11:00" });
    expect((await site.get(`/calendar/bookings/${other.id}.ics${url.search}`)).status).toBe(404);
  });

  it("puts the link in the built-in confirmation e-mail too", async () => {
    const { api } = await newAccount();
    const make = catalogue(api);
    const resource = await make.resource({ title: "Chair" });
    const service = await make.service({ title: "Cut" });
    const booking = await make.booking(
      {
        resource_id: resource.id,
        service_id: service.id,
        booked_from: "2030-03-31 10:00",
        booked_to: "2030-03-31 11:00",
        person_attributes: { name: "Kari", email: `kari${Math.random().toString(36).slice(2)}@example.com` },
      },
      { confirmation_send_email: true },
    );
    const [message] = await messagesOf(api, `?booking_id=${booking.id}&kind=confirmation`);
    expect(message.body).toMatch(new RegExp(`Add it to your calendar: http://\\S+/calendar/bookings/${booking.id}\\.ics\\?signature=[\\w-]{43}\n`));
  });
});
