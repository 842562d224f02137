// formatInstant builds its text from cached day and offset texts (domain/time.ts): it must say
// exactly what Temporal says for the instant in the zone, seconds truncated, offsets of any kind.
import { Temporal } from "@js-temporal/polyfill";
import { describe, expect, it } from "vitest";
import { formatInstant } from "../../src/domain/time";

const ZONES = ["Europe/Oslo", "UTC", "America/St_Johns", "Asia/Kolkata", "Pacific/Chatham", "America/Los_Angeles", "Australia/Lord_Howe"];

function byTemporal(epochMs: number, timeZone: string): string {
  const zoned = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone);
  return `${zoned.toPlainDateTime().toString({ smallestUnit: "second" })}${zoned.offset}`;
}

describe("formatInstant", () => {
  // 56,000 comparisons through the Temporal polyfill: seconds on a loaded machine, so not the default 5 s.
  it("agrees with Temporal across DST changes, odd offsets, fractions of a second and before 1970", { timeout: 60_000 }, () => {
    const instants = [
      Date.UTC(2030, 2, 31, 0, 59, 59, 999),
      Date.UTC(2030, 2, 31, 1, 0, 0),
      Date.UTC(2030, 9, 27, 0, 59, 59),
      Date.UTC(2030, 9, 27, 1, 0, 0, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59, 500),
      Date.UTC(1950, 5, 1, 12, 30, 15),
      0,
      Date.UTC(2099, 11, 31, 23, 59, 59),
    ];
    // Every 7,919 s over two years: every hour and minute of the day, both DST changes each year.
    for (let t = Date.UTC(2029, 0, 1); t < Date.UTC(2031, 0, 1); t += 7_919_001) instants.push(t);
    const disagreements: string[] = [];
    for (const zone of ZONES) {
      for (const t of instants) {
        const ours = formatInstant(t, zone);
        const temporal = byTemporal(t, zone);
        if (ours !== temporal) disagreements.push(`${zone} ${t}: ${ours} != ${temporal}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
