import { describe, expect, it } from "vitest";
import { addPeriod, parsePeriod } from "../../src/domain/periods";

const fields = (text: string) => {
  const d = parsePeriod(text);
  return d && { years: d.years, months: d.months, weeks: d.weeks, days: d.days, hours: d.hours, minutes: d.minutes };
};
const zero = { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0 };

describe("parsePeriod", () => {
  it.each([
    ["2 hours", { hours: 2 }],
    ["+3 days", { days: 3 }],
    ["1 month", { months: 1 }],
    ["1 hour", { hours: 1 }],
    ["30 minutes", { minutes: 30 }],
    ["2 weeks", { weeks: 2 }],
    ["1 year", { years: 1 }],
    ["2h", { hours: 2 }],
    ["  4 Days  ", { days: 4 }],
    ["1 day 2 hours", { days: 1, hours: 2 }],
    ["1 day, 2 hours", { days: 1, hours: 2 }],
    ["1 day and 30 minutes", { days: 1, minutes: 30 }],
    ["0 minutes", {}],
  ])("reads %j", (text, expected) => expect(fields(text)).toEqual({ ...zero, ...expected }));

  it("reads ISO 8601 durations, in either case", () => {
    expect(fields("PT2H")).toEqual({ ...zero, hours: 2 });
    expect(fields("p1m")).toEqual({ ...zero, months: 1 });
    expect(fields("P1DT12H")).toEqual({ ...zero, days: 1, hours: 12 });
  });

  it.each([
    "soon",
    "",
    "   ",
    "2",
    "hours",
    "2 fortnights",
    "1.5 hours",
    "2 hours ago",
    "-1 day",
    "-PT2H",
    "1 day 1 day",
    "P",
    "PT",
    "12345 days",
    "101 years",
    "P200Y",
    "P999999999Y",
  ])("refuses %j", (text) => expect(parsePeriod(text)).toBeNull());

  it("accepts exactly the 100-year limit", () => expect(fields("100 years")).toEqual({ ...zero, years: 100 }));
});

describe("addPeriod", () => {
  const oslo = "Europe/Oslo";
  const at = (iso: string) => Date.parse(iso);

  it("adds hours as elapsed time", () => expect(addPeriod(at("2030-01-07T09:00:00Z"), parsePeriod("2 hours")!, oslo)).toBe(at("2030-01-07T11:00:00Z")));

  it("adds days on the wall clock across a DST change", () =>
    // 2030-03-31 02:00 Oslo jumps to 03:00: one calendar day later is 23 hours later.
    expect(addPeriod(at("2030-03-30T09:00:00Z"), parsePeriod("1 day")!, oslo)).toBe(at("2030-03-31T08:00:00Z")));

  it("adds months on the calendar, clamping to the month's end", () =>
    expect(addPeriod(at("2030-01-31T11:00:00Z"), parsePeriod("1 month")!, oslo)).toBe(at("2030-02-28T11:00:00Z")));
});
