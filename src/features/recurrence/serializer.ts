// Output of a recurring collection's progress: GET /bookings|events/recurring/{id}/status.
import type { RecurringCollection } from "../../db/schema";
import { formatInstant } from "../../domain/time";
import { timestampsOut } from "../../http/serialize";

export function toCollectionJson(collection: RecurringCollection, timeZone: string) {
  // Skipped occurrences name their times as the items do: booked_* for bookings, *_at for events.
  const [fromKey, toKey] = collection.kind === "booking" ? ["booked_from", "booked_to"] : ["starts_at", "ends_at"];
  return {
    id: collection.id,
    kind: collection.kind,
    status: collection.status,
    rrule: collection.rrule,
    rdate: collection.rdate,
    exdate: collection.exdate,
    occurrences: collection.occurrences.length,
    processed: collection.next_index,
    created: collection.created_count,
    skipped: collection.skipped.map((s) => ({
      [fromKey]: formatInstant(s.from, timeZone),
      [toKey]: formatInstant(s.to, timeZone),
      errors: s.errors,
    })),
    ...timestampsOut(collection, timeZone),
  };
}
