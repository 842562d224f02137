// A waitlist entry as answered: its time in the account zone and its place's state; never its
// token's hash. The person's attributes are the account's (private API) or the visitor's own.
import type { WaitlistEntry } from "../../db/schema";
import { formatInstant } from "../../domain/time";

export function toWaitlistJson(entry: WaitlistEntry, timeZone: string) {
  return {
    id: entry.id,
    service_id: entry.service_id,
    resource_id: entry.resource_id,
    event_id: entry.event_id,
    booked_from: formatInstant(entry.booked_from, timeZone),
    booked_to: formatInstant(entry.booked_to, timeZone),
    count: entry.count,
    state: entry.state,
    offer_expires_at: entry.offer_expires_at === null ? null : formatInstant(entry.offer_expires_at, timeZone),
    booking_id: entry.booking_id,
    person_attributes: entry.person_attributes,
    created_at: formatInstant(entry.created_at, timeZone),
    updated_at: formatInstant(entry.updated_at, timeZone),
  };
}
