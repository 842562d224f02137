// Public holidays of a country for a date range, from the maintained `date-holidays` data.
// The package's exports map does not name its types, so they are included by path.
/// <reference path="../../node_modules/date-holidays-parser/types/index.d.ts" />
import Holidays from "date-holidays-parser";
import { Temporal } from "@js-temporal/polyfill";
// date-holidays' data trimmed to what an account can ask for (scripts/holiday-rules.mjs): every
// country, a third of the bundle's share (docs/decisions/deploy.md).
import holidayRules from "./holiday-rules.json";
import { HOLIDAY_YEARS } from "./holiday-years";

export { HOLIDAY_YEARS };

export interface Holiday {
  date: string;
  name: string;
}

const DAY_MS = 86_400_000;

/**
 * The library's language codes for an account locale; English is the fallback name. The trimmed
 * data keeps names in these languages (scripts/holiday-rules.mjs NAME_LANGUAGES).
 */
export const HOLIDAY_NAME_LANGUAGES: Record<string, string[]> = { en: ["en"], sv: ["sv", "en"], nb: ["no", "nb", "en"] };

const MAX_CACHED_YEARS = 2_000;
const calendars = new Map<string, Holidays>();
const years = new Map<string, Holiday[]>();

/**
 * One instance per country and locale: building one parses the country's rules, and the
 * library's `getHolidays(year, lang)` grows the instance's language list on every call, so
 * the language is fixed at construction instead.
 */
function calendarFor(country: string, locale: string): Holidays {
  const key = `${country}|${locale}`;
  let calendar = calendars.get(key);
  if (!calendar) {
    calendar = new Holidays(holidayRules, country, { languages: HOLIDAY_NAME_LANGUAGES[locale] ?? ["en"], types: ["public"] });
    calendars.set(key, calendar);
  }
  return calendar;
}

/** One element per day: a holiday of several days (Eid in many countries) closes each of them. */
function publicHolidaysOfYear(country: string, locale: string, year: number): Holiday[] {
  const key = `${country}|${locale}|${year}`;
  let list = years.get(key);
  if (!list) {
    list = [];
    for (const holiday of calendarFor(country, locale).getHolidays(year)) {
      if (holiday.type !== "public") continue;
      const first = Temporal.PlainDate.from(holiday.date.slice(0, 10));
      const days = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / DAY_MS));
      for (let i = 0; i < days; i += 1) list.push({ date: first.add({ days: i }).toString(), name: holiday.name });
    }
    if (years.size >= MAX_CACHED_YEARS) years.clear();
    years.set(key, list);
  }
  return list;
}

/**
 * Public holidays (not observances or bank days) of `country` (ISO 3166-1 alpha-2) between
 * `from` and `to` inclusive (`YYYY-MM-DD`), sorted by date, named in `locale` when the
 * library has that name, else in English. A country the library does not know has none.
 */
export function publicHolidays(country: string, locale: string, from: string, to: string): Holiday[] {
  const firstYear = Math.max(HOLIDAY_YEARS.min, Number(from.slice(0, 4)) - 1); // a holiday may run into the new year
  const lastYear = Math.min(HOLIDAY_YEARS.max, Number(to.slice(0, 4)));
  const result: Holiday[] = [];
  for (let year = firstYear; year <= lastYear; year += 1) {
    for (const holiday of publicHolidaysOfYear(country.toUpperCase(), locale, year)) {
      if (holiday.date >= from && holiday.date <= to) result.push({ ...holiday });
    }
  }
  // Stable: holidays sharing a date keep the library's order.
  return result.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** True when `date` is a public holiday of the country: the slot engine closes such days. */
export const isPublicHoliday = (country: string, date: string): boolean => publicHolidays(country, "en", date, date).length > 0;
