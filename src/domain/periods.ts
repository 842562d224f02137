// Relative periods written in natural language (`2 hours`, `+3 days`, `1 month`, `1 day 2 hours`)
// or ISO 8601 (`PT2H`), as the account's bookable and cancellation periods are given.
import { Temporal } from "@js-temporal/polyfill";

const UNITS: Record<string, keyof Temporal.DurationLike> = {
  minute: "minutes", minutes: "minutes", min: "minutes", mins: "minutes",
  hour: "hours", hours: "hours", h: "hours",
  day: "days", days: "days", d: "days",
  week: "weeks", weeks: "weeks", w: "weeks",
  month: "months", months: "months",
  year: "years", years: "years",
};

/** The period as a Temporal duration, or null when the text is not one. */
export function parsePeriod(text: string): Temporal.Duration | null {
  const trimmed = text.trim();
  if (/^-?P/i.test(trimmed)) {
    try {
      return Temporal.Duration.from(trimmed.toUpperCase());
    } catch {
      return null;
    }
  }
  const body = trimmed.replace(/^\+\s*/, "").toLowerCase();
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

/** `now` moved forward by the period in the zone (months and days follow the calendar). */
export function addPeriod(nowMs: number, period: Temporal.Duration, timeZone: string): number {
  return Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(timeZone).add(period).epochMilliseconds;
}
