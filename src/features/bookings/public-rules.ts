// The rules of a public booking (docs/decisions/bookings.md, public_booking): inside the resource's opening
// hours on the date (closed on public holidays when the account says so), not in the past, within the account's bookable periods, at most max_slots long.
import { hoursFromColumn, type Account, type OpeningHours, type Resource, type Service } from "../../db/schema";
import { loadHolidays } from "../../domain/load-holidays";
import { hoursOn, weeklyHoursOf } from "../../domain/opening-hours";
import { addPeriod, parsePeriod } from "../../domain/periods";
import { dateInZone, formatInstant } from "../../domain/time";
import type { Deps } from "../../env";
import type { ErrorCollector } from "../../http/errors";

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const wallMinutes = (ms: number, tz: string) => minutesOf(formatInstant(ms, tz).slice(11, 16));

/** The date a public booking must lie within: the day of its start in the account's zone. */
export const bookingDate = (deps: Pick<Deps, "account">, from: number) => dateInZone(from, deps.account.time_zone);

/**
 * Holidays close every resource when the account has closed_for_holidays. Asked only then, so
 * the holiday engine loads only for such accounts (domain/load-holidays.ts).
 */
export async function closedForHoliday(deps: Pick<Deps, "account">, date: string): Promise<boolean> {
  if (!deps.account.closed_for_holidays) return false;
  return (await loadHolidays()).isPublicHoliday(deps.account.country_code, date);
}

/**
 * The exception hours of that date of the resource named, or of the service's providers, read in
 * the create's references batch (references.ts) rather than one round trip per candidate.
 */
export function exceptionHoursOfDate(d1: D1Database, deps: Pick<Deps, "account">, date: string, of: { resourceId?: number; serviceId?: number }): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT resource_id, opening_hours FROM resource_exception_dates
     WHERE account_id = ?1 AND exception_date = ?2
       AND (resource_id = ?3 OR resource_id IN (SELECT resource_id FROM providers WHERE account_id = ?1 AND service_id = ?4))`,
    )
    .bind(deps.account.id, date, of.resourceId ?? null, of.serviceId ?? null);
}

/** `exceptionHoursOfDate` for the providers of a booking's service, found through the booking (a visitor's move). */
export function exceptionHoursOfBookingService(d1: D1Database, deps: Pick<Deps, "account">, date: string, bookingId: number): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT resource_id, opening_hours FROM resource_exception_dates
     WHERE account_id = ?1 AND exception_date = ?2
       AND resource_id IN (SELECT resource_id FROM providers WHERE account_id = ?1
         AND service_id = (SELECT service_id FROM bookings WHERE id = ?3 AND account_id = ?1))`,
    )
    .bind(deps.account.id, date, bookingId);
}

/** The rows of `exceptionHoursOfDate` by resource; a resource mapped to null is closed that day. */
export function exceptionHoursByResource(result: D1Result | undefined): Map<number, OpeningHours> {
  const rows = (result?.results ?? []) as { resource_id: number; opening_hours: string | null }[];
  return new Map(rows.map((r) => [r.resource_id, hoursFromColumn(r.opening_hours)]));
}

/**
 * True when the whole booking lies inside one opening interval of its date (exception date first,
 * then weekday hours). A booking that runs past midnight is outside, except one ending at 24:00.
 * `exceptions` holds the resource's exception hours of that date (exceptionHoursByResource);
 * `holiday` says the date is a public holiday of the account's country (closedForHoliday).
 */
export function isInsideOpeningHours(deps: Deps, resource: Resource, from: number, to: number, exceptions: Map<number, OpeningHours>, holiday: boolean): boolean {
  const tz = deps.account.time_zone;
  const date = dateInZone(from, tz);
  if (dateInZone(to - 1, tz) !== date) return false;
  // docs/decisions/account.md: holidays close every resource when the account has closed_for_holidays.
  if (holiday) return false;
  const hours = hoursOn(date, weeklyHoursOf(resource), exceptions.has(resource.id) ? exceptions.get(resource.id) : undefined);
  if (!hours) return false;
  const start = wallMinutes(from, tz);
  const end = dateInZone(to, tz) === date ? wallMinutes(to, tz) : 24 * 60;
  for (let i = 0; i < hours.length; i += 2) {
    if (minutesOf(hours[i]) <= start && end <= minutesOf(hours[i + 1])) return true;
  }
  return false;
}

/** The time rules that do not depend on the resource; errors go on booked_from / booked_to. */
export function checkPublicTimes(
  errors: ErrorCollector,
  span: { from: number; to: number; now: number },
  account: Pick<Account, "time_zone" | "first_bookable_period" | "future_bookable_period">,
  service: Pick<Service, "interval" | "max_slots" | "has_day_booking"> | null,
): void {
  const { from, to, now } = span;
  const shifted = (text: string | null) => {
    const period = text ? parsePeriod(text) : null;
    return period ? addPeriod(now, period, account.time_zone) : null;
  };
  const earliest = shifted(account.first_bookable_period);
  const latest = shifted(account.future_bookable_period);
  if (from < now) errors.add("booked_from", "can't be in the past");
  else if (earliest !== null && from < earliest) errors.add("booked_from", `is too soon: book at least ${account.first_bookable_period} ahead`);
  if (latest !== null && from > latest) errors.add("booked_from", `is too far ahead: book at most ${account.future_bookable_period} ahead`);
  if (service) {
    const slotMinutes = service.has_day_booking ? 24 * 60 : service.interval;
    const maxMinutes = Math.max(1, service.max_slots) * slotMinutes;
    if (to - from > maxMinutes * 60_000) errors.add("booked_to", `is too late: a booking may last at most ${maxMinutes} minutes`);
  }
}
