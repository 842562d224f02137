import { describe, expect, it } from "vitest";
import { expandRecurrence, type RecurrenceInput } from "../../src/domain/recurrence";
import { formatInstant, parseDateTimeInput } from "../../src/domain/time";

const OSLO = "Europe/Oslo";
const NEW_YORK = "America/New_York";

function expand(recurrence: RecurrenceInput, first: [string, string], timeZone = OSLO, limit?: number) {
  const from = parseDateTimeInput(first[0], timeZone)!;
  const to = parseDateTimeInput(first[1], timeZone)!;
  return expandRecurrence({ recurrence, first: { from, to }, timeZone, limit });
}

/** Occurrences as `[from, to]` ISO strings in the zone, or the errors. */
function times(recurrence: RecurrenceInput, first: [string, string], timeZone = OSLO) {
  const result = expand(recurrence, first, timeZone);
  if (!result.ok) return result.errors;
  return result.occurrences.map((o) => [formatInstant(o.from, timeZone), formatInstant(o.to, timeZone)]);
}

describe("expandRecurrence: DST", () => {
  it("keeps 10:00–11:00 Oslo time across the spring change, the offset moving to +02:00", () => {
    expect(times({ rrule: "FREQ=WEEKLY;COUNT=4" }, ["2030-03-18 10:00", "2030-03-18 11:00"])).toEqual([
      ["2030-03-18T10:00:00+01:00", "2030-03-18T11:00:00+01:00"],
      ["2030-03-25T10:00:00+01:00", "2030-03-25T11:00:00+01:00"],
      ["2030-04-01T10:00:00+02:00", "2030-04-01T11:00:00+02:00"],
      ["2030-04-08T10:00:00+02:00", "2030-04-08T11:00:00+02:00"],
    ]);
  });

  it("keeps 10:00 Oslo time across the autumn change, the offset moving to +01:00", () => {
    expect(times({ rrule: "FREQ=WEEKLY;COUNT=3" }, ["2030-10-21 10:00", "2030-10-21 10:30"])).toEqual([
      ["2030-10-21T10:00:00+02:00", "2030-10-21T10:30:00+02:00"],
      ["2030-10-28T10:00:00+01:00", "2030-10-28T10:30:00+01:00"],
      ["2030-11-04T10:00:00+01:00", "2030-11-04T10:30:00+01:00"],
    ]);
  });

  it("keeps 10:00 New York time across both changes", () => {
    expect(times({ rrule: "FREQ=WEEKLY;COUNT=2" }, ["2030-03-04 10:00", "2030-03-04 11:00"], NEW_YORK)).toEqual([
      ["2030-03-04T10:00:00-05:00", "2030-03-04T11:00:00-05:00"],
      ["2030-03-11T10:00:00-04:00", "2030-03-11T11:00:00-04:00"],
    ]);
    expect(times({ rrule: "FREQ=WEEKLY;COUNT=2" }, ["2030-10-28 10:00", "2030-10-28 11:00"], NEW_YORK)).toEqual([
      ["2030-10-28T10:00:00-04:00", "2030-10-28T11:00:00-04:00"],
      ["2030-11-04T10:00:00-05:00", "2030-11-04T11:00:00-05:00"],
    ]);
  });

  it("moves a wall time the spring change skips forward, as input datetimes are read", () => {
    expect(times({ rrule: "FREQ=DAILY;COUNT=3" }, ["2030-03-30 02:30", "2030-03-30 03:00"])).toEqual([
      ["2030-03-30T02:30:00+01:00", "2030-03-30T03:00:00+01:00"],
      ["2030-03-31T03:30:00+02:00", "2030-03-31T04:00:00+02:00"],
      ["2030-04-01T02:30:00+02:00", "2030-04-01T03:00:00+02:00"],
    ]);
  });
});

describe("expandRecurrence: COUNT and UNTIL", () => {
  it("gives COUNT occurrences including the first", () => {
    const result = times({ rrule: "FREQ=DAILY;INTERVAL=2;COUNT=3" }, ["2030-01-07 09:00", "2030-01-07 10:00"]);
    expect(result).toEqual([
      ["2030-01-07T09:00:00+01:00", "2030-01-07T10:00:00+01:00"],
      ["2030-01-09T09:00:00+01:00", "2030-01-09T10:00:00+01:00"],
      ["2030-01-11T09:00:00+01:00", "2030-01-11T10:00:00+01:00"],
    ]);
  });

  it("includes the whole UNTIL date when UNTIL is a date", () => {
    const result = times({ rrule: "FREQ=WEEKLY;UNTIL=20300121" }, ["2030-01-07 10:00", "2030-01-07 11:00"]) as string[][];
    expect(result.map(([from]) => from)).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-14T10:00:00+01:00", "2030-01-21T10:00:00+01:00"]);
  });

  it("reads a UTC UNTIL as an instant: 09:00Z is 10:00 Oslo, so an occurrence at 10:00 is the last", () => {
    const result = times({ rrule: "RRULE:FREQ=DAILY;UNTIL=20300109T090000Z" }, ["2030-01-07 10:00", "2030-01-07 11:00"]) as string[][];
    expect(result.map(([from]) => from)).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-08T10:00:00+01:00", "2030-01-09T10:00:00+01:00"]);
  });

  it("follows BYDAY within a week", () => {
    const result = times({ rrule: "freq=weekly;byday=MO,WE;count=4" }, ["2030-01-07 10:00", "2030-01-07 11:00"]) as string[][];
    expect(result.map(([from]) => from)).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-09T10:00:00+01:00", "2030-01-14T10:00:00+01:00", "2030-01-16T10:00:00+01:00"]);
  });

  it("keeps a multi-day length in wall-clock days and hours", () => {
    expect(times({ rrule: "FREQ=WEEKLY;COUNT=2" }, ["2030-03-29 18:00", "2030-03-31 12:00"])).toEqual([
      ["2030-03-29T18:00:00+01:00", "2030-03-31T12:00:00+02:00"],
      ["2030-04-05T18:00:00+02:00", "2030-04-07T12:00:00+02:00"],
    ]);
  });
});

describe("expandRecurrence: rdate and exdate", () => {
  const first: [string, string] = ["2030-01-07 10:00", "2030-01-07 11:00"];

  it("adds rdate dates at the first item's wall time and removes exdate dates", () => {
    const result = times(
      {
        rrule: "FREQ=WEEKLY;COUNT=4",
        rdate: "VALUE=DATE:20300110,20300301",
        exdate: "VALUE=DATE:20300114,20300128",
      },
      first,
    ) as string[][];
    expect(result.map(([from]) => from)).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-10T10:00:00+01:00", "2030-01-21T10:00:00+01:00", "2030-03-01T10:00:00+01:00"]);
  });

  it("takes date-times, UTC date-times, TZID and ISO forms", () => {
    const result = times(
      {
        rdate: "RDATE;VALUE=DATE-TIME:20300108T140000,20300109T130000Z",
        exdate: "",
      },
      first,
    ) as string[][];
    expect(result.map(([from]) => from)).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-08T14:00:00+01:00", "2030-01-09T14:00:00+01:00"]);
    const zoned = times({ rdate: "TZID=America/New_York:20300108T080000", exdate: "2030-01-07T10:00" }, first) as string[][];
    expect(zoned.map(([from]) => from)).toEqual(["2030-01-08T14:00:00+01:00"]);
  });

  it("removes only the exact occurrence for an exdate date-time", () => {
    const result = times({ rrule: "FREQ=DAILY;COUNT=3", exdate: "20300108T100000,20300109T120000" }, first) as string[][];
    expect(result.map(([from]) => from)).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-09T10:00:00+01:00"]);
  });

  it("gives each rdate value once, also when it repeats a rule occurrence", () => {
    const result = times({ rrule: "FREQ=DAILY;COUNT=2", rdate: "VALUE=DATE:20300108,20300108" }, first) as string[][];
    expect(result).toHaveLength(2);
  });
});

describe("expandRecurrence: limits and errors", () => {
  const first: [string, string] = ["2030-01-07 10:00", "2030-01-07 11:00"];

  it("allows exactly 731 occurrences", () => {
    const result = expand({ rrule: "FREQ=DAILY;COUNT=731" }, first);
    expect(result.ok && result.occurrences.length).toBe(731);
  });

  it("refuses 732 on collection_id, also when rdate pushes it over", () => {
    const message = ["has more than 731 occurrences: narrow the rule with COUNT or UNTIL"];
    expect(expand({ rrule: "FREQ=DAILY;COUNT=732" }, first)).toEqual({ ok: false, errors: { collection_id: message } });
    expect(expand({ rrule: "FREQ=DAILY;COUNT=731", rdate: "VALUE=DATE:20400101" }, first)).toEqual({ ok: false, errors: { collection_id: message } });
    expect(expand({ rrule: "FREQ=DAILY;COUNT=733", exdate: "VALUE=DATE:20300108,20300109" }, first).ok).toBe(true);
  });

  it("stops counting early for a rule with a far UNTIL", () => {
    expect(expand({ rrule: "FREQ=HOURLY;UNTIL=29991231" }, first).ok).toBe(false);
  });

  it("requires COUNT or UNTIL, and not both", () => {
    expect(expand({ rrule: "FREQ=WEEKLY" }, first)).toEqual({
      ok: false,
      errors: { rrule: ["needs COUNT or UNTIL: a rule without an end has no last occurrence"] },
    });
    expect(expand({ rrule: "FREQ=WEEKLY;COUNT=2;UNTIL=20300301" }, first)).toEqual({
      ok: false,
      errors: { rrule: ["can't have both COUNT and UNTIL (RFC 5545)"] },
    });
  });

  it("names what is wrong in a rule", () => {
    expect(expand({ rrule: "FREQ=BOGUS;COUNT=x;COLOR=red" }, first)).toEqual({
      ok: false,
      errors: { rrule: ["has an invalid FREQ: BOGUS", "has an invalid COUNT: X", "has an unknown part: COLOR=RED"] },
    });
    expect(expand({ rrule: "COUNT=2" }, first)).toEqual({ ok: false, errors: { rrule: ["needs FREQ, e.g. FREQ=WEEKLY;COUNT=10"] } });
    expect(expand({ rrule: "FREQ=MINUTELY;COUNT=2" }, first)).toEqual({ ok: false, errors: { rrule: ["can't repeat more often than HOURLY"] } });
    expect(expand({ rrule: "FREQ=DAILY;COUNT=2;BYDAY=XX" }, first).ok).toBe(false);
  });

  it("refuses unreadable rdate and exdate values and a recurrence with neither rrule nor rdate", () => {
    const message = (detail: string) => [`is invalid (${detail}): use VALUE=DATE:20300107,20300114 or date-times like 20300107T100000`];
    expect(expand({ rrule: "FREQ=DAILY;COUNT=2", rdate: "VALUE=DATE:20301301", exdate: "TZID=Mars/Base:20300101T100000" }, first)).toEqual({
      ok: false,
      errors: { rdate: message("20301301"), exdate: message("unsupported parameter TZID=Mars/Base") },
    });
    expect(expand({}, first)).toEqual({ ok: false, errors: { rrule: ["can't be blank: give rrule or rdate"] } });
  });
});
