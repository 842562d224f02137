// Bookings made before a busy time arrived that now overlap it (issue 32): never touched (the
// booking came first), but listed, so the integrator can move or cancel them with the person.
import { sql } from "drizzle-orm";
import { bookings, busyTimes } from "../../db/schema";
import type { Deps } from "../../env";
import { isActiveSql } from "../bookings/active-sql";

export interface CalendarConflict {
  booking_id: number;
  resource_id: number;
  booked_from: number;
  booked_to: number;
  subscription_id: number;
  busy_from: number;
  busy_to: number;
}

/** Active, not yet ended bookings of a resource overlapping one of its busy times, soonest first. */
export async function calendarConflicts(deps: Deps, resourceId?: number): Promise<CalendarConflict[]> {
  const ofResource = resourceId === undefined ? sql`` : sql` AND ${bookings.resource_id} = ${resourceId}`;
  return deps.db.all<CalendarConflict>(sql`
    SELECT ${bookings.id} AS booking_id, ${bookings.resource_id} AS resource_id, ${bookings.booked_from} AS booked_from, ${bookings.booked_to} AS booked_to,
           ${busyTimes.subscription_id} AS subscription_id, ${busyTimes.occupied_from} AS busy_from, ${busyTimes.occupied_to} AS busy_to
      FROM ${bookings} JOIN ${busyTimes}
        ON ${busyTimes.resource_id} = ${bookings.resource_id} AND ${busyTimes.account_id} = ${bookings.account_id}
       AND ${busyTimes.occupied_from} < ${bookings.occupied_to} AND ${busyTimes.occupied_to} > ${bookings.occupied_from}
     WHERE ${bookings.account_id} = ${deps.account.id} AND ${bookings.event_id} IS NULL AND ${isActiveSql(deps.now)}
       AND ${bookings.occupied_to} > ${deps.now}${ofResource}
     ORDER BY ${bookings.booked_from}, ${bookings.id}
     LIMIT 1000`);
}
