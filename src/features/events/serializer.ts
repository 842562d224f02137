// Event output: every spec field in the account zone, plus `availability` (docs/decisions/events.md).
import type { Event } from "../../db/schema";
import { formatInstant } from "../../domain/time";
import { customDataOut } from "../../http/custom-data";
import { timestampsOut } from "../../http/serialize";

/** `booked` is the count the event's active bookings hold (queries.ts, bookedCounts). */
export function toEventJson(event: Event, booked: number, timeZone: string) {
  const { account_id: _account, custom_data, starts_at, ends_at, created_at: _c, updated_at: _u, ...rest } = event;
  return {
    ...rest,
    starts_at: formatInstant(starts_at, timeZone),
    ends_at: formatInstant(ends_at, timeZone),
    // Never below 0, even when bookings forced past capacity (ignore_capacity) hold more.
    availability: Math.max(0, event.capacity - booked),
    custom_data: customDataOut(custom_data, timeZone),
    ...timestampsOut(event, timeZone),
  };
}
