// "Active" and the effective state as SQL over the bookings table, shared by the booking
// listings and the events feature's availability, so both agree with the capacity check.
import { sql, type SQL } from "drizzle-orm";
import { bookings } from "../../db/schema";
import type { BookingState } from "../../domain/booking-states";

/** State as readers see it: an unverified booking past `expires_at` reads as verification_expired. */
const effectiveStateSql = (now: number) =>
  sql`(CASE WHEN ${bookings.state} = 'awaiting_verification' AND ${bookings.expires_at} IS NOT NULL AND ${bookings.expires_at} <= ${now}
       THEN 'verification_expired' ELSE ${bookings.state} END)`;

export const inEffectiveStates = (states: readonly BookingState[], now: number): SQL =>
  sql`${effectiveStateSql(now)} IN (select value from json_each(${JSON.stringify(states)}))`;

/** Active as the capacity check counts it (capacity-sql.ts), so lists and capacity agree. */
export const isActiveSql = (now: number): SQL =>
  sql`(${bookings.active} = 1 AND NOT (${bookings.state} = 'awaiting_verification' AND ${bookings.expires_at} IS NOT NULL AND ${bookings.expires_at} <= ${now}))`;
