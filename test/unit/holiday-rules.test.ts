// The Worker's trimmed holiday data (scripts/holiday-rules.mjs) answers as date-holidays' full data does.
import { readFileSync } from "node:fs";
import Holidays from "date-holidays";
import { data } from "date-holidays/data";
import HolidaysParser from "date-holidays-parser";
import { describe, expect, it } from "vitest";
import { NAME_LANGUAGES, RULES_FILE, trimHolidayData } from "../../scripts/holiday-rules.mjs";
import { HOLIDAY_NAME_LANGUAGES } from "../../src/domain/holidays";

const committed = JSON.parse(readFileSync(RULES_FILE, "utf8"));
/**
 * What src/domain/holidays.ts asks the library for, per account locale, and the years compared:
 * dates do not depend on the language, so English gets the spread of years (past, leap, far
 * future) and the other lists two years of names.
 */
const CASES: [string[], number[]][] = Object.values(HOLIDAY_NAME_LANGUAGES).map((languages) => [
  languages,
  languages[0] === "en" ? [1950, 2000, 2024, 2026, 2031, 2100] : [2026, 2027],
]);
const countries = Object.keys(data.holidays);

const answer = (calendar: { getHolidays(year: number): { date: string; start: Date; end: Date; name: string; type: string }[] }, year: number) =>
  calendar.getHolidays(year).map(({ date, start, end, name, type }) => ({ date, start: +start, end: +end, name, type }));

describe("src/domain/holiday-rules.json", () => {
  it("is what npm run holidays:generate makes of the installed date-holidays (regenerate after an upgrade)", () =>
    expect(committed).toEqual(JSON.parse(JSON.stringify(trimHolidayData(data)))));

  it("keeps names in every language an account locale asks for", () =>
    expect(NAME_LANGUAGES).toEqual(expect.arrayContaining(Object.values(HOLIDAY_NAME_LANGUAGES).flat())));

  it("keeps every country of the library", () => expect(Object.keys(committed.holidays).sort()).toEqual([...countries].sort()));

  it.each(CASES)(
    "lists the same public holidays, named alike, as the full data for every country (%s)",
    (languages, years) => {
      const differences: string[] = [];
      for (const country of countries) {
        const options = { languages, types: ["public" as const] };
        const full = new Holidays(country, options);
        const trimmed = new HolidaysParser(committed, country, options);
        for (const year of years) {
          if (JSON.stringify(answer(full, year)) !== JSON.stringify(answer(trimmed, year))) differences.push(`${country} ${year}`);
        }
      }
      expect(differences).toEqual([]);
    },
    120_000,
  );
});
