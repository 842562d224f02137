// parseDateTimeInput and isIsoDate check dates, times and offsets without the Temporal polyfill
// where they can (domain/time.ts): they must accept, reject and place instants exactly as the
// Temporal-only reading did. That reading is restated here as the reference.
import { describe, expect, it } from "vitest";
import { Temporal } from "@js-temporal/polyfill";
import { isIsoDate, parseDateTimeInput } from "../../src/domain/time";

const DATE_TIME_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function temporalReading(text: string, timeZone: string): number | null {
  const match = DATE_TIME_INPUT.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone] = match;
  try {
    const wall = Temporal.PlainDateTime.from(
      {
        year: Number(y),
        month: Number(mo),
        day: Number(d),
        hour: Number(h),
        minute: Number(mi),
        second: Number(s),
        millisecond: Number(frac.padEnd(3, "0").slice(0, 3)),
      },
      { overflow: "reject" },
    );
    if (!zone) return wall.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds;
    const digits = zone.slice(1).replace(":", "");
    const offset = zone.toUpperCase() === "Z" ? "+00:00" : `${zone[0]}${digits.slice(0, 2)}:${(digits.slice(2) || "00").padEnd(2, "0")}`;
    return Temporal.Instant.from(`${wall.toString()}${offset}`).epochMilliseconds;
  } catch {
    return null;
  }
}

function temporalIsDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  try {
    Temporal.PlainDate.from(text, { overflow: "reject" });
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const YEARS = [0, 4, 99, 100, 1582, 1900, 1970, 2000, 2023, 2024, 2100, 9999];

describe("isIsoDate", () => {
  it("agrees with Temporal's ISO calendar on every month and day 00-39 of leap, century and ordinary years", () => {
    for (const year of YEARS) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 39; day++) {
          const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
          expect(isIsoDate(text), text).toBe(temporalIsDate(text));
        }
      }
    }
    for (const text of ["2024-2-29", "2024-02-29 ", "20240229", "2024-02-29T00:00"]) expect(isIsoDate(text), text).toBe(false);
  });
});

describe("parseDateTimeInput", () => {
  const zones = ["UTC", "Europe/Oslo", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Africa/Monrovia", "Not/AZone"];
  const offsets = ["", "Z", "z", "+00:00", "-00:00", "+01", "+0530", "-05:45", "+23:59", "-23:59", "+24:00", "+01:60", "+9999", " +02:00"];
  const times = [
    "",
    "T00:00",
    " 23:59",
    "T24:00",
    "T10:60",
    "T10:00:59",
    "T10:00:60",
    "T10:00:05.1",
    "T10:00:05.123456789",
    "T02:30",
    "T01:30",
    "T01:59:59.999",
    "T00:44:30",
    "T00:20",
  ];
  const dates = [
    "0000-01-01",
    "0004-02-29",
    "0099-12-31",
    "1900-02-29",
    "2000-02-29",
    "2023-02-29",
    "2024-02-29",
    "2024-03-31",
    "2024-04-31",
    "2024-10-27",
    "2024-11-03",
    "2024-03-10",
    "2024-04-07",
    "2024-10-06",
    "1890-06-01",
    "1972-01-07",
    "1972-01-06",
    "2030-13-01",
    "2030-00-10",
    "9999-12-31",
  ];

  it("places and refuses every combination of date, time, offset and zone as the Temporal reading does", () => {
    for (const date of dates)
      for (const time of times)
        for (const offset of offsets)
          for (const zone of zones) {
            const text = `${date}${time}${offset}`;
            expect(parseDateTimeInput(text, zone), `${text} in ${zone}`).toBe(temporalReading(text, zone));
          }
  });

  it("reads the forms clients send", () => {
    expect(parseDateTimeInput("2030-01-07T10:00:00Z", "Europe/Oslo")).toBe(Date.UTC(2030, 0, 7, 10));
    expect(parseDateTimeInput("2030-01-07T10:00:00+01:00", "UTC")).toBe(Date.UTC(2030, 0, 7, 9));
    expect(parseDateTimeInput("2030-01-07 10:00", "Europe/Oslo")).toBe(Date.UTC(2030, 0, 7, 9));
    expect(parseDateTimeInput("0050-06-01T00:00:00Z", "UTC")).toBe(new Date("0050-06-01T00:00:00Z").getTime());
    expect(parseDateTimeInput("2030-02-30 10:00", "UTC")).toBeNull();
  });
});
