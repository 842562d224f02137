// The reads behind a slot answer, at most four statements whatever the range: the service, its
// provider resources, then their exception dates and active bookings in one batch.
import { and, asc, eq, gt, gte, isNull, lt, lte } from "drizzle-orm";
import { bookings, events, resourceExceptionDates, type Service } from "../../db/schema";
import { inIds } from "../../db/id-list";
import type { Deps } from "../../env";
import { isActiveSql } from "../bookings/active-sql";

export { providerResources } from "../providers/queries";

/** Exception dates of the range and the bookings holding capacity in it, in one round trip. */
export function exceptionsAndBookings(
  { db, account, now }: Deps,
  resourceIds: number[],
  dates: { from: string; to: string },
  instants: { from: number; to: number },
) {
  return db.batch([
    db
      .select({ resource_id: resourceExceptionDates.resource_id, exception_date: resourceExceptionDates.exception_date, opening_hours: resourceExceptionDates.opening_hours })
      .from(resourceExceptionDates)
      .where(and(
        eq(resourceExceptionDates.account_id, account.id),
        inIds(resourceExceptionDates.resource_id, resourceIds),
        gte(resourceExceptionDates.exception_date, dates.from),
        lte(resourceExceptionDates.exception_date, dates.to),
      )),
    db
      .select({ resource_id: bookings.resource_id, from: bookings.booked_from, to: bookings.booked_to, count: bookings.count })
      .from(bookings)
      .where(and(
        eq(bookings.account_id, account.id),
        inIds(bookings.resource_id, resourceIds),
        isNull(bookings.event_id), // event bookings count against the event, not the resource
        isActiveSql(now),
        lt(bookings.booked_from, instants.to),
        gt(bookings.booked_to, instants.from),
      )),
  ]);
}

/** Active events of an attendance service starting in the range (published only on the site). */
export function eventsInRange({ db, account }: Deps, service: Service, instants: { from: number; to: number }, publicOnly: boolean) {
  const conditions = [
    eq(events.account_id, account.id),
    eq(events.service_id, service.id),
    eq(events.active, true),
    gte(events.starts_at, instants.from),
    lt(events.starts_at, instants.to),
  ];
  if (publicOnly) conditions.push(eq(events.published, true));
  return db.select().from(events).where(and(...conditions)).orderBy(asc(events.starts_at), asc(events.id));
}
