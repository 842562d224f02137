// Relative periods written in natural language (`2 hours`, `+3 days`, `1 month`, `1 day 2 hours`)
// or ISO 8601 (`PT2H`), as the account's bookable and cancellation periods are given.
import { Temporal } from "@js-temporal/polyfill";

const UNITS: Record<string, keyof Temporal.DurationLike> = {
  minute: "minutes",
  minutes: "minutes",
  min: "minutes",
  mins: "minutes",
  hour: "hours",
  hours: "hours",
  h: "hours",
  day: "days",
  days: "days",
  d: "days",
  week: "weeks",
  weeks: "weeks",
  w: "weeks",
  month: "months",
  months: "months",
  year: "years",
  years: "years",
};

/** Longest accepted period: anything longer is a typo, and would overflow date arithmetic later. */
const MAX_YEARS = 100;
const REFERENCE = Temporal.PlainDateTime.from("2000-01-01T00:00");

/** The period as a Temporal duration, or null when the text is not one. */
export function parsePeriod(text: string): Temporal.Duration | null {
  const trimmed = text.trim();
  const duration = /^[+-]?P/i.test(trimmed) ? parseIso(trimmed) : parseWords(trimmed);
  return duration && withinBounds(duration) ? duration : null;
}

function parseIso(text: string): Temporal.Duration | null {
  try {
    return Temporal.Duration.from(text.toUpperCase());
  } catch {
    return null;
  }
}

function parseWords(text: string): Temporal.Duration | null {
  const body = text.replace(/^\+\s*/, "").toLowerCase();
  const parts = body.split(/\s*(?:,|\band\b)\s*|\s+(?=\d)/).filter(Boolean);
  if (parts.length === 0) return null;
  const fields: Partial<Record<keyof Temporal.DurationLike, number>> = {};
  for (const part of parts) {
    const match = /^(\d{1,4})\s*([a-z]+)$/.exec(part.trim());
    if (!match) return null;
    const unit = UNITS[match[2]];
    if (!unit || fields[unit] !== undefined) return null;
    fields[unit] = Number(match[1]);
  }
  return Temporal.Duration.from(fields);
}

/** Periods point forward from now (or from a booking's start) and stay within MAX_YEARS. */
function withinBounds(duration: Temporal.Duration): boolean {
  if (duration.sign < 0) return false;
  try {
    return Temporal.PlainDateTime.compare(REFERENCE.add(duration), REFERENCE.add({ years: MAX_YEARS })) <= 0;
  } catch {
    return false;
  }
}

/** `now` moved forward by the period in the zone (months and days follow the calendar). */
export function addPeriod(nowMs: number, period: Temporal.Duration, timeZone: string): number {
  return Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(timeZone).add(period).epochMilliseconds;
}

/** `instantMs` moved back by the period in the zone: the last moment before a booking's start it allows. */
export function subtractPeriod(instantMs: number, period: Temporal.Duration, timeZone: string): number {
  return Temporal.Instant.fromEpochMilliseconds(instantMs).toZonedDateTimeISO(timeZone).subtract(period).epochMilliseconds;
}
