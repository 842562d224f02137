// Where an RRULE's walk may start instead of DTSTART: ical.js cannot start a rule midway, and a
// weekly series from years back costs thousands of steps (about 10 µs each; 130 µs for a monthly
// BYDAY rule) before it reaches the window.
import { Temporal } from "@js-temporal/polyfill";
import type ICAL from "ical.js";

/**
 * A DTSTART a whole number of the rule's periods (FREQ × INTERVAL) later, on or before `notAfter`
 * (a wall date; the caller leaves margin for zone offsets and event length), or `start` itself.
 * The walk from there gives the same occurrences from that point on: each period's set is built
 * from the BY-parts and from DTSTART's fields (time of day, weekday for WEEKLY, day for MONTHLY,
 * month and day for YEARLY), which a shift by whole periods keeps. ical.js may build the first
 * period from the days at or after DTSTART only (which matters to BYSETPOS), so the new start stays
 * one whole period clear of `notAfter`. The shift is refused when a
 * field would not survive it (a MONTHLY day after the 28th, a YEARLY 29 February) and for COUNT,
 * which counts from the true DTSTART. Sub-daily rules are left alone: past the per-event step
 * limit they are cut anyway.
 */
export function skipAhead(rule: ICAL.Recur, start: ICAL.Time, notAfter: Temporal.PlainDate): ICAL.Time {
  if (rule.count) return start;
  const from = new Temporal.PlainDate(start.year, start.month, start.day);
  const interval = Math.max(1, rule.interval || 1);
  let later: Temporal.PlainDate;
  switch (rule.freq) {
    case "DAILY":
    case "WEEKLY": {
      const days = from.until(notAfter, { largestUnit: "days" }).days;
      later = from.add({ days: wholePeriods(days, interval * (rule.freq === "WEEKLY" ? 7 : 1)) });
      break;
    }
    case "MONTHLY": {
      if (start.day > 28) return start;
      const months = from.until(notAfter, { largestUnit: "months" }).months;
      later = from.add({ months: wholePeriods(months, interval) });
      break;
    }
    case "YEARLY": {
      if (start.month === 2 && start.day === 29) return start;
      const years = from.until(notAfter, { largestUnit: "years" }).years;
      later = from.add({ years: wholePeriods(years, interval) });
      break;
    }
    default:
      return start;
  }
  if (Temporal.PlainDate.compare(later, from) <= 0) return start;
  const shifted = start.clone();
  shifted.year = later.year;
  shifted.month = later.month;
  shifted.day = later.day;
  return shifted;
}

/** Whole periods of `size` units within `units`, less one: the period the walk starts in may be partial. */
const wholePeriods = (units: number, size: number) => Math.max(0, Math.floor(units / size) - 1) * size;
