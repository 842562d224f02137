// The Worker's holiday time zones (src/domain/holiday-zones.json, what wrangler.toml's alias of
// moment-timezone loads) give the same holidays as moment-timezone's data for every zone.
import { readFileSync } from "node:fs";
import HolidaysParser from "date-holidays-parser";
import moment from "moment-timezone";
import packed from "moment-timezone/data/packed/latest.json";
import { describe, expect, it, vi } from "vitest";
import { RULES_FILE, ZONES_FILE, holidayZones, trimZoneData } from "../../scripts/holiday-rules.mjs";
import { HOLIDAY_YEARS } from "../../src/domain/holiday-years";

const rules = JSON.parse(readFileSync(RULES_FILE, "utf8"));
const committed = JSON.parse(readFileSync(ZONES_FILE, "utf8"));
const countries = Object.keys(rules.holidays);
/** The ends of what an account can ask, DST rule changes, the last year of tz transitions and after, the "since 2022" rule. */
const YEARS = [HOLIDAY_YEARS.min, 1950, 1980, 2000, 2011, 2021, 2022, 2026, 2037, 2038, 2100, HOLIDAY_YEARS.max];

/** Dates, names and the instants each holiday starts and ends: the instants are where a zone shows. */
function answers(years: number[]) {
  return countries.flatMap((country) => {
    const calendar = new HolidaysParser(rules, country, { languages: ["en"], types: ["public"] });
    return years.map((year) => `${country} ${year} ${JSON.stringify(calendar.getHolidays(year).map(({ date, start, end, name }) => [date, +start, +end, name]))}`);
  });
}

/** moment-timezone has no unload: its tables are emptied so only what is loaded next is known. */
function loadOnly(data: object) {
  const tz = moment.tz as unknown as Record<"_zones" | "_links" | "_names", Record<string, unknown>>;
  for (const table of [tz._zones, tz._links, tz._names]) for (const key of Object.keys(table)) delete table[key];
  moment.tz.load(data as Parameters<typeof moment.tz.load>[0]);
}

describe("src/domain/holiday-zones.json", () => {
  it("is what npm run holidays:generate makes of the installed moment-timezone (regenerate after an upgrade)", () =>
    expect(committed).toEqual(trimZoneData(packed, holidayZones(rules))));

  it("gives every country the same holidays, to the instant, as every zone's data", () => {
    const full = answers(YEARS);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // The control: without a country's zone the answers change, so the comparison below can fail.
      loadOnly({ version: packed.version, zones: [], links: [], countries: [] });
      expect(answers([2026])).not.toEqual(full.filter((line) => line.includes(" 2026 ")));
      expect(errors).toHaveBeenCalled();
      errors.mockClear();

      loadOnly(committed);
      const trimmed = answers(YEARS);
      expect(trimmed.filter((line, i) => line !== full[i])).toEqual([]);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      loadOnly(packed);
    }
  }, 120_000);
});
