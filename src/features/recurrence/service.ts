// Recurring bookings and events: accepting a request (validate the first item and the
// recurrence, store the collection, queue it), reading a collection and deleting its bookings.
import { and, eq, exists, ne, sql } from "drizzle-orm";
import { bookings, events, type RecurringCollection } from "../../db/schema";
import { expandRecurrence, type RecurrenceInput } from "../../domain/recurrence";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { afterBookingChange } from "../bookings/effects";
import { draftBooking } from "../bookings/create";
import { loadRelated, pageOfBookings } from "../bookings/queries";
import { pageOfEvents } from "../events/queries";
import { draftEvent } from "../events/service";
import { collectionIdRow, getCollection, markCollection, storeAndEnqueue } from "./collections";
import { recurrenceParameters, type RecurringBookingBody, type RecurringEventBody } from "./schema";

/** The recurrence parameters, expanded around the first item; 400s keyed rrule/rdate/exdate/collection_id. */
function occurrencesOf(deps: Deps, raw: Record<string, unknown>, first: { from: number; to: number }) {
  const parsed = recurrenceParameters.safeParse(raw);
  if (!parsed.success) throw ApiError.fromZod(parsed.error);
  const recurrence: RecurrenceInput = parsed.data;
  const expansion = expandRecurrence({ recurrence, first, timeZone: deps.account.time_zone });
  if (!expansion.ok) throw new ApiError(400, expansion.errors);
  return { recurrence, occurrences: expansion.occurrences };
}

/** POST /bookings/recurring: answers the collection id once the work is queued, before any booking exists. */
export async function startRecurringBookings(deps: Deps, body: RecurringBookingBody): Promise<string> {
  const { recurring, extended: _extended, ...template } = body;
  // Every occurrence would take the event's one time: an event recurs through POST /events/recurring.
  if (template.booking.event_id) throw ApiError.invalid("event_id", "can't recur: create the event as recurring (POST /events/recurring)");
  const first = (await draftBooking(deps, template)).placement;
  const { recurrence, occurrences } = occurrencesOf(deps, recurring, first);
  return storeAndEnqueue(deps, "booking", template, recurrence, occurrences);
}

/** POST /events/recurring: as for bookings, the recurrence under `recurrence`. */
export async function startRecurringEvents(deps: Deps, body: RecurringEventBody): Promise<string> {
  const first = await draftEvent(deps, body.event);
  const { recurrence, occurrences } = occurrencesOf(deps, body.recurrence, { from: first.starts_at, to: first.ends_at });
  const { starts_at: _s, ends_at: _e, ...template } = body.event;
  return storeAndEnqueue(deps, "event", template, recurrence, occurrences);
}

const noCollection = () => ApiError.notFound("recurring collection");

/** Every booking of the collection in every state, oldest first; whether the collection is the account's is read in the page's batch. */
export async function collectionBookings(deps: Deps, id: string, request: PageRequest) {
  const owner = exists(collectionIdRow(deps, id, "booking"));
  const page = await pageOfBookings(deps, [eq(bookings.collection_id, id)], "booked_from", request, { owner, endsWithTime: false });
  if (!page.freshness.ownerFound) throw noCollection();
  return page;
}

/** Every event of the collection, deleted ones included (they show `active: false`), read as the bookings are. */
export async function collectionEvents(deps: Deps, id: string, request: PageRequest) {
  const {
    extra: [collection],
    ...page
  } = await pageOfEvents(deps, [eq(events.collection_id, id)], "starts_at", request, [collectionIdRow(deps, id, "event")]);
  if ((collection as unknown[]).length === 0) throw noCollection();
  return page;
}

export const collectionStatus = (deps: Deps, id: string, kind: "booking" | "event") => getCollection(deps, id, kind);

/**
 * Sets every booking of the collection `deleted` and announces each; bookings already deleted
 * change nothing. Message parameters given are merged into each booking's `message_flags`.
 */
export async function deleteOccurrences(deps: Deps, collection: RecurringCollection, flags: Record<string, boolean | undefined> = {}) {
  const given = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  const rows = await deps.db
    .update(bookings)
    .set({
      state: "deleted",
      active: false,
      updated_at: deps.now,
      ...(Object.keys(given).length > 0 ? { message_flags: sql`json_patch(COALESCE(${bookings.message_flags}, '{}'), ${JSON.stringify(given)})` } : {}),
    })
    .where(and(eq(bookings.account_id, deps.account.id), eq(bookings.collection_id, collection.id), ne(bookings.state, "deleted")))
    .returning();
  const related = await loadRelated(deps, rows);
  for (const row of rows) await afterBookingChange(deps, "deleted", row, undefined, { preloaded: related, messages: false });
}

/** DELETE /bookings/recurring/{id}: stops the collection first, so the consumer creates no more. */
export async function deleteRecurringBookings(deps: Deps, id: string, flags: Record<string, boolean | undefined>) {
  const collection = await getCollection(deps, id, "booking");
  await markCollection(deps, collection, "deleted");
  await deleteOccurrences(deps, collection, flags);
}
