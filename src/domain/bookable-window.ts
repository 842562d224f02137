// When public booking is open relative to now: the account's minimum notice, horizon and the service's span limits.
import type { Temporal } from "@js-temporal/polyfill";
import { dateInZone, daysBetween } from "./time";
import { addPeriod, parsePeriod } from "./periods";

export interface BookablePeriods {
  first_bookable_period: string | null;
  future_bookable_period: string | null;
}

export interface BookableWindow {
  /** Nothing starts before this: now, or now plus the minimum notice. */
  earliest: number;
  /** Nothing starts after this (inclusive); Infinity without a horizon. */
  latest: number;
}

/**
 * spec: Account, first/future_bookable_period. Unreadable periods count as unset: the account
 * form rejects them when saved, so one here predates that rule and must not hide every slot.
 */
export function bookableWindow(nowMs: number, periods: BookablePeriods, timeZone: string): BookableWindow {
  const shifted = (text: string | null, fallback: number) => {
    const period = text ? cachedPeriod(text) : null;
    if (!period) return fallback;
    // Hours and smaller are exact durations; only calendar units need the zone (and the slow polyfill).
    const calendar = period.years || period.months || period.weeks || period.days;
    return calendar ? addPeriod(nowMs, period, timeZone) : nowMs + period.total({ unit: "milliseconds" });
  };
  return {
    earliest: Math.max(nowMs, shifted(periods.first_bookable_period, nowMs)),
    latest: shifted(periods.future_bookable_period, Infinity),
  };
}

const periods = new Map<string, Temporal.Duration | null>();
function cachedPeriod(text: string): Temporal.Duration | null {
  let period = periods.get(text);
  if (period === undefined) {
    period = parsePeriod(text);
    if (periods.size > 1000) periods.clear();
    periods.set(text, period);
  }
  return period;
}

export interface SpanRules {
  now: number;
  timeZone: string;
  account: BookablePeriods;
  service: { interval: number; max_slots: number; has_day_booking: boolean; same_day: boolean };
}

type PublicRuleViolation = "empty" | "past" | "too_soon" | "too_far" | "too_long" | "not_same_day";

/**
 * The time rules a public booking must meet besides opening hours and capacity (docs/decisions/bookings.md,
 * public_booking): not in the past, within the bookable window, at most `max_slots` intervals
 * (days, for day bookings), and on one date when the service is `same_day`. Null when it fits.
 */
export function publicRuleViolation(span: { from: number; to: number }, rules: SpanRules): PublicRuleViolation | null {
  const { service, timeZone } = rules;
  if (!(span.to > span.from)) return "empty";
  if (span.from < rules.now) return "past";
  const window = bookableWindow(rules.now, rules.account, timeZone);
  if (span.from < window.earliest) return "too_soon";
  if (span.from > window.latest) return "too_far";
  const maxSlots = Math.max(1, service.max_slots);
  if (service.has_day_booking) {
    const days = daysBetween(dateInZone(span.from, timeZone), dateInZone(span.to - 1, timeZone)) + 1;
    if (service.same_day && days > 1) return "not_same_day";
    if (days > maxSlots) return "too_long";
  } else if (span.to - span.from > maxSlots * service.interval * 60_000) return "too_long";
  return null;
}
