// A hold as answered: its times in the account zone, as a booking's; never its secret's hash or
// its visitor's. The secret itself is answered once, next to it, by the create.
import type { SlotHold } from "../../db/schema";
import { formatInstant } from "../../domain/time";
import { holdEnding } from "./ending";

export function toHoldJson(hold: SlotHold, timeZone: string, now: number) {
  return {
    id: hold.id,
    service_id: hold.service_id,
    resource_id: hold.resource_id,
    event_id: hold.event_id,
    booked_from: formatInstant(hold.booked_from, timeZone),
    booked_to: formatInstant(hold.booked_to, timeZone),
    count: hold.count,
    expires_at: formatInstant(hold.expires_at, timeZone),
    ended: holdEnding(hold, now),
    booking_id: hold.booking_id,
    created_at: formatInstant(hold.created_at, timeZone),
  };
}
