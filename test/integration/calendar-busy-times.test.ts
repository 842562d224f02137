// External calendar subscriptions (issue 32): busy intervals read from hand-written iCalendar feeds,
// in the Workers runtime where the feeds will be read. Expected instants are written by hand as
// wall times with their offsets; the module's output is compared to them in UTC.
import { calendarFeed } from "../../bench/calendar-feed";
import fc from "fast-check";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { BUSY_LIMITS, MalformedFeed, busyTimesOf, type ParsedFeed } from "../../src/features/calendar-subscriptions/busy-times";

const feed = (...components: string[]) => ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//busy-times//EN", ...components, "END:VCALENDAR"].join("\r\n");
const vevent = (...lines: string[]) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"].join("\r\n");

const utc = (text: string) => new Date(Date.parse(text)).toISOString();
/** Expected intervals, each `[from, to]` written with its own offset. */
const expected = (...pairs: [string, string][]) => pairs.map(([from, to]) => [utc(from), utc(to)]);
const spans = (parsed: ParsedFeed) => parsed.busy.map((b) => [new Date(b.from).toISOString(), new Date(b.to).toISOString()]);
const window = (from: string, to: string) => ({ from: Date.parse(from), to: Date.parse(to) });

const YEAR_2030 = window("2030-01-01T00:00:00Z", "2031-01-01T00:00:00Z");
const OSLO = { floatingZone: "Europe/Oslo" };
const NEW_YORK = { floatingZone: "America/New_York" };

/** Outlook's definition of "W. Europe Standard Time" (Berlin, Oslo, Rome…), as Exchange writes it. */
const W_EUROPE_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:W. Europe Standard Time",
  "BEGIN:STANDARD",
  "DTSTART:16010101T030000",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:16010101T020000",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
].join("\r\n");

describe("busyTimesOf: recurring events", () => {
  it("expands a weekly meeting (Google style: TZID without VTIMEZONE), with one occurrence moved, one cancelled and one excluded", () => {
    const text = feed(
      vevent(
        "UID:standup@example.com",
        "SUMMARY:Standup",
        "DTSTART;TZID=Europe/Oslo:20300107T090000",
        "DTEND;TZID=Europe/Oslo:20300107T093000",
        // UNTIL and EXDATE in UTC, as Google writes them: 08:00Z is 09:00 in Oslo in winter.
        "RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20300211T080000Z",
        "EXDATE:20300114T080000Z",
      ),
      vevent(
        "UID:standup@example.com",
        "SUMMARY:Standup (moved)",
        "RECURRENCE-ID;TZID=Europe/Oslo:20300121T090000",
        "DTSTART;TZID=Europe/Oslo:20300122T130000",
        "DTEND;TZID=Europe/Oslo:20300122T133000",
      ),
      vevent(
        "UID:standup@example.com",
        "RECURRENCE-ID:20300128T080000Z",
        "STATUS:CANCELLED",
        "DTSTART;TZID=Europe/Oslo:20300128T090000",
        "DTEND;TZID=Europe/Oslo:20300128T093000",
      ),
    );
    const parsed = busyTimesOf(text, YEAR_2030, NEW_YORK);
    expect(parsed.busy).toEqual([
      { from: Date.parse("2030-01-07T09:00:00+01:00"), to: Date.parse("2030-01-07T09:30:00+01:00"), uid: "standup@example.com", summary: "Standup" },
      { from: Date.parse("2030-01-22T13:00:00+01:00"), to: Date.parse("2030-01-22T13:30:00+01:00"), uid: "standup@example.com", summary: "Standup (moved)" },
      { from: Date.parse("2030-02-04T09:00:00+01:00"), to: Date.parse("2030-02-04T09:30:00+01:00"), uid: "standup@example.com", summary: "Standup" },
      // UNTIL names this occurrence's own instant: it is the last one, included.
      { from: Date.parse("2030-02-11T09:00:00+01:00"), to: Date.parse("2030-02-11T09:30:00+01:00"), uid: "standup@example.com", summary: "Standup" },
    ]);
    expect(parsed).toMatchObject({ eventsRead: 3, eventsSkipped: 0, truncated: false, warnings: [] });
  });

  it("stops after COUNT occurrences, an excluded one still counting; adds RDATEs, a PERIOD with its own length", () => {
    const text = feed(
      vevent(
        "UID:count",
        "DTSTART:20300201T100000Z",
        "DTEND:20300201T110000Z",
        "RRULE:FREQ=DAILY;COUNT=4",
        "EXDATE:20300202T100000Z",
        "RDATE;TZID=Europe/Oslo:20300210T120000",
        "RDATE;VALUE=PERIOD:20300212T100000Z/PT3H",
      ),
    );
    expect(spans(busyTimesOf(text, YEAR_2030, OSLO))).toEqual(
      expected(
        ["2030-02-01T10:00:00Z", "2030-02-01T11:00:00Z"],
        ["2030-02-03T10:00:00Z", "2030-02-03T11:00:00Z"],
        ["2030-02-04T10:00:00Z", "2030-02-04T11:00:00Z"],
        ["2030-02-10T12:00:00+01:00", "2030-02-10T13:00:00+01:00"],
        ["2030-02-12T10:00:00Z", "2030-02-12T13:00:00Z"],
      ),
    );
  });

  it("shows an occurrence moved into the window from after it, and not one moved out of it", () => {
    const text = feed(
      vevent("UID:weekly", "DTSTART:20300107T100000Z", "DTEND:20300107T110000Z", "RRULE:FREQ=WEEKLY"),
      vevent("UID:weekly", "RECURRENCE-ID:20300204T100000Z", "DTSTART:20300130T150000Z", "DTEND:20300130T160000Z"),
      vevent("UID:weekly", "RECURRENCE-ID:20300114T100000Z", "DTSTART:20300220T100000Z", "DTEND:20300220T110000Z"),
    );
    expect(spans(busyTimesOf(text, window("2030-01-01T00:00:00Z", "2030-02-01T00:00:00Z"), OSLO))).toEqual(
      expected(
        ["2030-01-07T10:00:00Z", "2030-01-07T11:00:00Z"],
        ["2030-01-21T10:00:00Z", "2030-01-21T11:00:00Z"],
        ["2030-01-28T10:00:00Z", "2030-01-28T11:00:00Z"],
        ["2030-01-30T15:00:00Z", "2030-01-30T16:00:00Z"],
      ),
    );
  });

  it("reads a moved occurrence of a series that started years before the window", () => {
    const text = feed(
      vevent("UID:since-2015", "DTSTART;TZID=Europe/Oslo:20150105T090000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY"),
      vevent("UID:since-2015", "RECURRENCE-ID;TZID=Europe/Oslo:20300107T090000", "DTSTART;TZID=Europe/Oslo:20300108T090000", "DURATION:PT1H"),
    );
    expect(spans(busyTimesOf(text, window("2030-01-01T00:00:00Z", "2030-01-15T00:00:00Z"), OSLO))).toEqual(
      expected(["2030-01-08T09:00:00+01:00", "2030-01-08T10:00:00+01:00"], ["2030-01-14T09:00:00+01:00", "2030-01-14T10:00:00+01:00"]),
    );
  });
});

describe("busyTimesOf: what is busy", () => {
  it("leaves out transparent and cancelled events; a tentative one is busy", () => {
    const text = feed(
      vevent("UID:free", "TRANSP:TRANSPARENT", "DTSTART:20300115T090000Z", "DTEND:20300115T100000Z"),
      vevent("UID:cancelled", "STATUS:CANCELLED", "DTSTART:20300115T110000Z", "DTEND:20300115T120000Z"),
      vevent("UID:cancelled-series", "STATUS:CANCELLED", "DTSTART:20300116T110000Z", "DTEND:20300116T120000Z", "RRULE:FREQ=DAILY"),
      vevent("UID:tentative", "STATUS:TENTATIVE", "TRANSP:OPAQUE", "DTSTART:20300115T130000Z", "DTEND:20300115T140000Z"),
    );
    const parsed = busyTimesOf(text, YEAR_2030, OSLO);
    expect(parsed.busy.map((b) => b.uid)).toEqual(["tentative"]);
    expect(parsed.eventsRead).toBe(4);
  });

  it("makes an all-day event busy from midnight to midnight in the account's zone, one day when it has no DTEND", () => {
    const text = feed(
      // Two days across Oslo's spring-forward night: 47 hours there.
      vevent("UID:weekend", "DTSTART;VALUE=DATE:20300330", "DTEND;VALUE=DATE:20300401"),
      vevent("UID:one-day", "DTSTART;VALUE=DATE:20300115"),
      vevent("UID:yearly", "DTSTART;VALUE=DATE:20100704", "DTEND;VALUE=DATE:20100705", "RRULE:FREQ=YEARLY"),
    );
    expect(spans(busyTimesOf(text, YEAR_2030, OSLO))).toEqual(
      expected(
        ["2030-01-15T00:00:00+01:00", "2030-01-16T00:00:00+01:00"],
        ["2030-03-30T00:00:00+01:00", "2030-04-01T00:00:00+02:00"],
        ["2030-07-04T00:00:00+02:00", "2030-07-05T00:00:00+02:00"],
      ),
    );
    expect(spans(busyTimesOf(text, YEAR_2030, NEW_YORK))).toEqual(
      expected(
        ["2030-01-15T00:00:00-05:00", "2030-01-16T00:00:00-05:00"],
        ["2030-03-30T00:00:00-04:00", "2030-04-01T00:00:00-04:00"],
        ["2030-07-04T00:00:00-04:00", "2030-07-05T00:00:00-04:00"],
      ),
    );
  });

  it("reads DURATION as calendar days (23 hours across spring-forward), DTEND as the same exact length every time", () => {
    const text = feed(
      vevent("UID:nominal", "DTSTART;TZID=Europe/Oslo:20300329T220000", "DURATION:P1D", "RRULE:FREQ=DAILY;COUNT=3"),
      vevent("UID:exact", "DTSTART;TZID=Europe/Oslo:20300329T200000", "DTEND;TZID=Europe/Oslo:20300330T200000", "RRULE:FREQ=DAILY;COUNT=3"),
      vevent("UID:short", "DTSTART:20300501T090000Z", "DURATION:PT1H30M"),
    );
    const parsed = busyTimesOf(text, YEAR_2030, OSLO);
    const of = (uid: string) => spans({ ...parsed, busy: parsed.busy.filter((b) => b.uid === uid) });
    expect(of("nominal")).toEqual(
      expected(
        ["2030-03-29T22:00:00+01:00", "2030-03-30T22:00:00+01:00"],
        ["2030-03-30T22:00:00+01:00", "2030-03-31T22:00:00+02:00"],
        ["2030-03-31T22:00:00+02:00", "2030-04-01T22:00:00+02:00"],
      ),
    );
    // RFC 5545 3.8.5.3: a DTEND gives every occurrence the first one's exact length (24 hours).
    expect(of("exact")).toEqual(
      expected(
        ["2030-03-29T20:00:00+01:00", "2030-03-30T20:00:00+01:00"],
        ["2030-03-30T20:00:00+01:00", "2030-03-31T21:00:00+02:00"],
        ["2030-03-31T20:00:00+02:00", "2030-04-01T20:00:00+02:00"],
      ),
    );
    expect(of("short")).toEqual(expected(["2030-05-01T09:00:00Z", "2030-05-01T10:30:00Z"]));
  });

  it("blocks nothing for a timed event with neither DTEND nor DURATION, or with DTEND at DTSTART", () => {
    const text = feed(
      vevent("UID:moment", "DTSTART:20300115T090000Z"),
      vevent("UID:zero", "DTSTART:20300115T100000Z", "DTEND:20300115T100000Z"),
      vevent("UID:real", "DTSTART:20300115T110000Z", "DTEND:20300115T110100Z"),
    );
    expect(busyTimesOf(text, YEAR_2030, OSLO).busy.map((b) => b.uid)).toEqual(["real"]);
  });

  it("reads floating times in the account's zone and UTC times as UTC", () => {
    const text = feed(
      vevent("UID:floating", "DTSTART:20300115T090000", "DTEND:20300115T100000"),
      vevent("UID:utc", "DTSTART:20300116T090000Z", "DTEND:20300116T100000Z"),
    );
    expect(spans(busyTimesOf(text, YEAR_2030, OSLO))).toEqual(
      expected(["2030-01-15T09:00:00+01:00", "2030-01-15T10:00:00+01:00"], ["2030-01-16T09:00:00Z", "2030-01-16T10:00:00Z"]),
    );
    expect(spans(busyTimesOf(text, YEAR_2030, NEW_YORK))).toEqual(
      expected(["2030-01-15T09:00:00-05:00", "2030-01-15T10:00:00-05:00"], ["2030-01-16T09:00:00Z", "2030-01-16T10:00:00Z"]),
    );
  });
});

describe("busyTimesOf: time zones and DST", () => {
  it("moves a weekly 09:00 New York meeting an hour earlier in UTC on New York's change, not on Oslo's (Oslo account)", () => {
    const text = feed(vevent("UID:ny", "DTSTART;TZID=America/New_York:20300304T090000", "DTEND;TZID=America/New_York:20300304T100000", "RRULE:FREQ=WEEKLY;BYDAY=MO"));
    expect(spans(busyTimesOf(text, window("2030-03-01T00:00:00Z", "2030-04-08T00:00:00Z"), OSLO))).toEqual(
      expected(
        ["2030-03-04T15:00:00+01:00", "2030-03-04T16:00:00+01:00"], // 09:00 EST
        ["2030-03-11T14:00:00+01:00", "2030-03-11T15:00:00+01:00"], // 09:00 EDT, Oslo still on winter time
        ["2030-03-18T14:00:00+01:00", "2030-03-18T15:00:00+01:00"],
        ["2030-03-25T14:00:00+01:00", "2030-03-25T15:00:00+01:00"],
        ["2030-04-01T15:00:00+02:00", "2030-04-01T16:00:00+02:00"], // the same instant as the week before
      ),
    );
    expect(spans(busyTimesOf(text, window("2030-10-20T00:00:00Z", "2030-11-05T00:00:00Z"), OSLO))).toEqual(
      expected(
        ["2030-10-21T09:00:00-04:00", "2030-10-21T10:00:00-04:00"],
        ["2030-10-28T09:00:00-04:00", "2030-10-28T10:00:00-04:00"], // Oslo changed on the 27th; New York not yet
        ["2030-11-04T09:00:00-05:00", "2030-11-04T10:00:00-05:00"],
      ),
    );
  });

  it("keeps a weekly 09:00 Oslo meeting at 09:00 Oslo time across both of Oslo's changes (New York account)", () => {
    const text = feed(vevent("UID:oslo", "DTSTART;TZID=Europe/Oslo:20300304T090000", "DTEND;TZID=Europe/Oslo:20300304T100000", "RRULE:FREQ=WEEKLY;BYDAY=MO"));
    const spring = busyTimesOf(text, window("2030-03-01T00:00:00Z", "2030-04-08T00:00:00Z"), NEW_YORK);
    expect(spans(spring).map(([from]) => from)).toEqual(
      ["2030-03-04T09:00:00+01:00", "2030-03-11T09:00:00+01:00", "2030-03-18T09:00:00+01:00", "2030-03-25T09:00:00+01:00", "2030-04-01T09:00:00+02:00"].map(utc),
    );
    const autumn = busyTimesOf(text, window("2030-10-20T00:00:00Z", "2030-11-05T00:00:00Z"), NEW_YORK);
    expect(spans(autumn).map(([from]) => from)).toEqual(["2030-10-21T09:00:00+02:00", "2030-10-28T09:00:00+01:00", "2030-11-04T09:00:00+01:00"].map(utc));
  });

  it("reads a wall time skipped by spring-forward with the offset before the gap, and a repeated one as its first instant (RFC 5545 3.3.5)", () => {
    const text = feed(
      vevent("UID:oslo-nightly", "DTSTART;TZID=Europe/Oslo:20300330T023000", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=3"),
      vevent("UID:oslo-autumn", "DTSTART;TZID=Europe/Oslo:20301027T023000", "DURATION:PT1H"),
      vevent("UID:ny-spring", "DTSTART;TZID=America/New_York:20300310T023000", "DURATION:PT1H"),
      vevent("UID:ny-autumn", "DTSTART;TZID=America/New_York:20301103T013000", "DURATION:PT1H"),
    );
    const parsed = busyTimesOf(text, YEAR_2030, OSLO);
    expect(parsed.busy.map((b) => [b.uid, new Date(b.from).toISOString()])).toEqual([
      ["ny-spring", utc("2030-03-10T03:30:00-04:00")],
      ["oslo-nightly", utc("2030-03-30T02:30:00+01:00")],
      ["oslo-nightly", utc("2030-03-31T03:30:00+02:00")],
      ["oslo-nightly", utc("2030-04-01T02:30:00+02:00")],
      ["oslo-autumn", utc("2030-10-27T02:30:00+02:00")],
      ["ny-autumn", utc("2030-11-03T01:30:00-04:00")],
    ]);
  });

  it("gives a night across each Oslo change its real length: 01:00 to 04:00 is two hours in March, four in October", () => {
    const text = feed(
      vevent("UID:spring", "DTSTART;TZID=Europe/Oslo:20300331T010000", "DTEND;TZID=Europe/Oslo:20300331T040000"),
      vevent("UID:autumn", "DTSTART;TZID=Europe/Oslo:20301027T010000", "DTEND;TZID=Europe/Oslo:20301027T040000"),
    );
    expect(spans(busyTimesOf(text, YEAR_2030, NEW_YORK))).toEqual(
      expected(["2030-03-31T00:00:00Z", "2030-03-31T02:00:00Z"], ["2030-10-26T23:00:00Z", "2030-10-27T03:00:00Z"]),
    );
  });

  it("reads an Outlook VTIMEZONE with a Windows zone name, its gaps and repeats as RFC 5545 wants", () => {
    const text = feed(
      W_EUROPE_VTIMEZONE,
      vevent(
        "UID:outlook-weekly",
        "DTSTART;TZID=W. Europe Standard Time:20300318T090000",
        "DTEND;TZID=W. Europe Standard Time:20300318T100000",
        "RRULE:FREQ=WEEKLY;COUNT=4",
        "EXDATE;TZID=W. Europe Standard Time:20300325T090000",
      ),
      vevent("UID:outlook-gap", "DTSTART;TZID=W. Europe Standard Time:20300331T023000", "DTEND;TZID=W. Europe Standard Time:20300331T043000"),
      vevent("UID:outlook-repeat", "DTSTART;TZID=W. Europe Standard Time:20301027T023000", "DTEND;TZID=W. Europe Standard Time:20301027T033000"),
    );
    const parsed = busyTimesOf(text, YEAR_2030, NEW_YORK);
    expect(spans(parsed)).toEqual(
      expected(
        ["2030-03-18T09:00:00+01:00", "2030-03-18T10:00:00+01:00"],
        ["2030-03-31T03:30:00+02:00", "2030-03-31T04:30:00+02:00"], // 02:30 does not exist: one hour from 03:30
        ["2030-04-01T09:00:00+02:00", "2030-04-01T10:00:00+02:00"],
        ["2030-04-08T09:00:00+02:00", "2030-04-08T10:00:00+02:00"],
        ["2030-10-27T02:30:00+02:00", "2030-10-27T03:30:00+01:00"], // the first 02:30, to 03:30 two hours later
      ),
    );
    expect(parsed.warnings).toEqual([]);
  });

  it("reads an IANA TZID by the tz database even when the feed's VTIMEZONE for it says otherwise", () => {
    const wrongOslo = [
      "BEGIN:VTIMEZONE",
      "TZID:Europe/Oslo",
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      "TZOFFSETFROM:+0500",
      "TZOFFSETTO:+0500",
      "END:STANDARD",
      "END:VTIMEZONE",
    ].join("\r\n");
    const text = feed(wrongOslo, vevent("UID:x", "DTSTART;TZID=Europe/Oslo:20300701T090000", "DTEND;TZID=Europe/Oslo:20300701T100000"));
    expect(spans(busyTimesOf(text, YEAR_2030, NEW_YORK))).toEqual(expected(["2030-07-01T09:00:00+02:00", "2030-07-01T10:00:00+02:00"]));
  });

  it("reads a TZID that is neither IANA nor defined in the feed in the account's zone, and says so", () => {
    const text = feed(vevent("UID:x", "DTSTART;TZID=Mystery Standard Time:20300115T090000", "DTEND;TZID=Mystery Standard Time:20300115T100000"));
    const parsed = busyTimesOf(text, YEAR_2030, NEW_YORK);
    expect(spans(parsed)).toEqual(expected(["2030-01-15T09:00:00-05:00", "2030-01-15T10:00:00-05:00"]));
    expect(parsed.warnings).toEqual([expect.stringContaining("Mystery Standard Time")]);
  });
});

describe("busyTimesOf: the window and limits", () => {
  it("clips intervals to the window and leaves out those that only touch it", () => {
    const text = feed(
      vevent("UID:into", "DTSTART:20300109T220000Z", "DTEND:20300110T020000Z"),
      vevent("UID:ends-at-start", "DTSTART:20300109T230000Z", "DTEND:20300110T000000Z"),
      vevent("UID:starts-at-end", "DTSTART:20300111T000000Z", "DTEND:20300111T010000Z"),
      vevent("UID:out-of", "DTSTART:20300110T230000Z", "DTEND:20300111T010000Z"),
      vevent("UID:over", "DTSTART:20300101T000000Z", "DTEND:20300201T000000Z"),
    );
    const parsed = busyTimesOf(text, window("2030-01-10T00:00:00Z", "2030-01-11T00:00:00Z"), OSLO);
    expect(parsed.busy.map((b) => [b.uid, new Date(b.from).toISOString(), new Date(b.to).toISOString()])).toEqual([
      ["into", "2030-01-10T00:00:00.000Z", "2030-01-10T02:00:00.000Z"],
      ["over", "2030-01-10T00:00:00.000Z", "2030-01-11T00:00:00.000Z"],
      ["out-of", "2030-01-10T23:00:00.000Z", "2030-01-11T00:00:00.000Z"],
    ]);
  });

  it("expands an endless daily rule that began ten years earlier only through the window", () => {
    const text = feed(vevent("UID:daily", "DTSTART:20200101T090000Z", "DTEND:20200101T091500Z", "RRULE:FREQ=DAILY"));
    const parsed = busyTimesOf(text, window("2030-01-01T00:00:00Z", "2030-02-01T00:00:00Z"), OSLO);
    expect(parsed.busy).toHaveLength(31);
    expect(spans(parsed).at(-1)).toEqual([utc("2030-01-31T09:00:00Z"), utc("2030-01-31T09:15:00Z")]);
    expect(parsed.truncated).toBe(false);
  });

  it("starts a rule near the window and finds exactly the occurrences a walk from DTSTART finds", () => {
    const weekday = fc.constantFrom("MO", "TU", "WE", "TH", "FR", "SA", "SU");
    const rules = fc.record({
      freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
      interval: fc.integer({ min: 1, max: 4 }),
      byday: fc.option(
        fc.uniqueArray(
          fc.tuple(fc.constantFrom("", "1", "2", "-1"), weekday).map(([n, d]) => n + d),
          { minLength: 1, maxLength: 3 },
        ),
        { nil: undefined },
      ),
      bymonthday: fc.option(fc.constantFrom("1", "15", "28", "29", "31", "-1"), { nil: undefined }),
      bymonth: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      bysetpos: fc.option(fc.constantFrom("1", "-1"), { nil: undefined }),
      byhour: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      startDay: fc.integer({ min: 0, max: 3_500 }), // days after 2020-01-01: DTSTART up to 2029-07
    });
    const year2030 = window("2030-01-01T00:00:00Z", "2031-01-01T00:00:00Z");
    fc.assert(
      fc.property(rules, (r) => {
        // Ordinals are for MONTHLY and YEARLY, BYMONTHDAY not for WEEKLY (RFC 5545 3.3.10).
        const byday = r.freq === "MONTHLY" || r.freq === "YEARLY" ? r.byday : r.byday?.map((d) => d.replace(/^-?\d/, ""));
        const parts = [`FREQ=${r.freq}`, `INTERVAL=${r.interval}`];
        if (byday) parts.push(`BYDAY=${[...new Set(byday)].join(",")}`);
        // Not MONTHLY with both BYDAY and BYMONTHDAY: ical.js's own walk loses the INTERVAL's phase
        // after four years without a match (FREQ=MONTHLY;INTERVAL=3;BYDAY=SU;BYMONTHDAY=31), so it is no reference there.
        if (r.bymonthday && r.freq !== "WEEKLY" && !(r.freq === "MONTHLY" && byday)) parts.push(`BYMONTHDAY=${r.bymonthday}`);
        // Lists in calendar order: the module sorts them (the next test), a bare ical.js walk would not.
        const sorted = (list: number[]) => [...list].sort((a, b) => a - b).join(",");
        if (r.bymonth) parts.push(`BYMONTH=${sorted(r.bymonth)}`);
        if (r.byhour) parts.push(`BYHOUR=${sorted(r.byhour)}`);
        if (r.bysetpos && byday) parts.push(`BYSETPOS=${r.bysetpos}`);
        const rrule = parts.join(";");
        const start = new Date(Date.parse("2020-01-01T09:00:00Z") + r.startDay * 86_400_000);
        const stamp = start.toISOString().replace(/[-:]/g, "").slice(0, 15);
        const parsed = busyTimesOf(feed(vevent("UID:r", `DTSTART:${stamp}Z`, "DURATION:PT1H", `RRULE:${rrule}`)), year2030, OSLO);
        // The reference: ical.js's own walk from DTSTART, in UTC (where ical.js needs no help).
        let walk: ICAL.RecurIterator;
        try {
          walk = ICAL.Recur.fromString(rrule).iterator(ICAL.Time.fromDateTimeString(`${start.toISOString().slice(0, 19)}Z`));
        } catch {
          // ical.js refuses some valid combinations (an ordinal BYDAY with BYMONTHDAY): the event is skipped, and says so.
          expect(parsed).toMatchObject({ busy: [], eventsSkipped: 1 });
          return;
        }
        // Bounded as the module bounds it: ical.js alone never returns from a rule no date fits.
        let checks = 0;
        const checkRules = walk.check_contracting_rules;
        walk.check_contracting_rules = () => {
          if (++checks > 30_000) throw new Error("no date fits the rule");
          return checkRules.call(walk);
        };
        const reference: number[] = [];
        try {
          for (let t = walk.next(); t && t.toUnixTime() * 1000 < year2030.to; t = walk.next()) {
            if (t.toUnixTime() * 1000 >= year2030.from) reference.push(t.toUnixTime() * 1000);
          }
        } catch {
          expect(parsed).toMatchObject({ busy: [], truncated: true });
          return;
        }
        expect(
          parsed.busy.map((b) => b.from),
          `${rrule} from ${stamp}`,
        ).toEqual(reference);
      }),
      { numRuns: 100 },
    );
  });

  it("walks BYMONTH in calendar order whatever order the feed lists it in", () => {
    const text = feed(vevent("UID:x", "DTSTART:20290110T090000Z", "DURATION:PT1H", "RRULE:FREQ=MONTHLY;BYMONTH=2,1"));
    expect(spans(busyTimesOf(text, window("2030-01-15T00:00:00Z", "2031-01-20T00:00:00Z"), OSLO))).toEqual(
      expected(["2030-02-10T09:00:00Z", "2030-02-10T10:00:00Z"], ["2031-01-10T09:00:00Z", "2031-01-10T10:00:00Z"]),
    );
  });

  it("stops a rule no date fits (ical.js alone would never return), says so, and reads the rest", () => {
    const text = feed(
      vevent("UID:never", "DTSTART:20291201T090000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"),
      vevent("UID:leap-day", "DTSTART:20280229T090000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29"),
      vevent("UID:lunch", "DTSTART:20300103T110000Z", "DTEND:20300103T120000Z"),
    );
    const parsed = busyTimesOf(text, window("2030-01-01T00:00:00Z", "2033-01-01T00:00:00Z"), OSLO);
    expect(spans(parsed)).toEqual(expected(["2030-01-03T11:00:00Z", "2030-01-03T12:00:00Z"], ["2032-02-29T09:00:00Z", "2032-02-29T10:00:00Z"]));
    expect(parsed.truncated).toBe(true);
    expect(parsed.warnings).toEqual([expect.stringContaining("UID never")]);
  });

  it("stops a dense endless rule at the per-event limits, says so, and still reads the other events", () => {
    const text = feed(
      vevent("UID:minutely", "DTSTART:20300101T000000Z", "DURATION:PT30S", "RRULE:FREQ=MINUTELY"),
      vevent("UID:secondly", "DTSTART:20290101T000000Z", "DURATION:PT1S", "RRULE:FREQ=SECONDLY"),
      vevent("UID:lunch", "DTSTART:20300103T110000Z", "DTEND:20300103T120000Z"),
    );
    const parsed = busyTimesOf(text, window("2030-01-01T00:00:00Z", "2030-01-08T00:00:00Z"), OSLO);
    const count = (uid: string) => parsed.busy.filter((b) => b.uid === uid).length;
    // Seven days of minutes is 10,080: the first 5,000 are kept. The secondly rule never reaches the window.
    expect([count("minutely"), count("secondly"), count("lunch")]).toEqual([BUSY_LIMITS.occurrencesPerEvent, 0, 1]);
    expect(parsed.truncated).toBe(true);
    expect(parsed.warnings).toEqual([expect.stringContaining("UID minutely"), expect.stringContaining("UID secondly")]);
  });

  it("parses a 2,000-event feed (1,800 single events, 200 weekly series from 2027)", () => {
    // The engine bench's feed (bench/calendar-feed.ts): single events hourly from 4 February 2030.
    const { text } = calendarFeed();
    // 75 days from 4 February: all 1,800 single events (75 days of hours), and 22 Mondays and Wednesdays per series.
    const parsed = busyTimesOf(text, window("2030-02-04T00:00:00Z", "2030-04-20T00:00:00Z"), OSLO);
    expect(parsed.eventsRead).toBe(2000);
    expect(parsed.busy).toHaveLength(1800 + 200 * 22);
    expect(parsed.truncated).toBe(false);
  });
});

describe("busyTimesOf: malformed input", () => {
  it.each([
    ["empty text", ""],
    ["an HTML error page", "<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>"],
    ["a vCard", "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEND:VCARD"],
    ["a download cut off mid-event", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20300101T090000Z\r\n"],
    ["an RRULE ical.js cannot read", feed(vevent("UID:x", "DTSTART:20300101T090000Z", "RRULE:FREQ=FORTNIGHTLY"))],
  ])("throws MalformedFeed for %s", (_name, text) => {
    expect(() => busyTimesOf(text, YEAR_2030, OSLO)).toThrow(MalformedFeed);
  });

  it("reads an empty calendar as no busy time, and a byte order mark and bare LF line ends as a feed", () => {
    expect(busyTimesOf(feed(), YEAR_2030, OSLO)).toEqual({ busy: [], eventsRead: 0, eventsSkipped: 0, truncated: false, warnings: [] });
    const lf = `\uFEFF${feed(vevent("UID:lf", "DTSTART:20300115T090000Z", "DTEND:20300115T100000Z")).replace(/\r\n/g, "\n")}`;
    expect(spans(busyTimesOf(lf, YEAR_2030, OSLO))).toEqual(expected(["2030-01-15T09:00:00Z", "2030-01-15T10:00:00Z"]));
  });

  it("skips an event it cannot read, counts it, and keeps the rest", () => {
    const text = feed(vevent("UID:no-start", "DTEND:20300115T100000Z"), vevent("UID:good", "DTSTART:20300115T110000Z", "DTEND:20300115T120000Z"));
    const parsed = busyTimesOf(text, YEAR_2030, OSLO);
    expect(parsed).toMatchObject({ eventsRead: 2, eventsSkipped: 1, truncated: false });
    expect(parsed.busy.map((b) => b.uid)).toEqual(["good"]);
    expect(parsed.warnings).toEqual([expect.stringContaining("UID no-start")]);
  });
});
