// Events: single (non-recurring) events people book seats on. Deletion is soft (active=false)
// and cancels the bookings still holding seats; moving an event moves its bookings.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { events, type Event } from "../../db/schema";
import { inIds } from "../../db/id-list";
import { changedSince } from "../../db/sync-order";
import { parseDateTimeInput } from "../../domain/time";
import type { Deps } from "../../env";
import { afterEventChange } from "./effects";
import { ApiError, ErrorCollector } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { resourceOf, serviceOf } from "../bookings/references";
import { bookedCounts, bookedCountsQuery, getEvent, pageOfEvents, syncPageOfEvents, toBookedMap } from "./queries";
import type { EventInput, EventsQuery, EventUpdate } from "./schema";
import { writeEventDelete, writeEventUpdate, type EventColumns } from "./writes";

type NewEvent = typeof events.$inferInsert;

const BAD_DATETIME = "is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601";

function instant(deps: Deps, errors: ErrorCollector, attribute: string, text: string): number | null {
  const value = parseDateTimeInput(text, deps.account.time_zone);
  if (value === null) errors.add(attribute, BAD_DATETIME);
  return value;
}

/** The event's times after the input, with `ends_at` after `starts_at`. */
function timesOf(deps: Deps, errors: ErrorCollector, input: EventUpdate, current?: Event) {
  const starts = input.starts_at !== undefined ? instant(deps, errors, "starts_at", input.starts_at) : (current?.starts_at ?? null);
  const ends = input.ends_at !== undefined ? instant(deps, errors, "ends_at", input.ends_at) : (current?.ends_at ?? null);
  if (starts !== null && ends !== null && ends <= starts) errors.add("ends_at", "must be after starts_at");
  return { starts: starts!, ends: ends! };
}

/**
 * The resource and service an event names must be the account's and active. Any booking type
 * will do: the spec does not limit events to attendance services (docs/decisions/compat.md).
 */
async function checkReferences(deps: Deps, errors: ErrorCollector, ids: { resource_id?: number; service_id?: number }) {
  const [resource, service] = await Promise.all([
    ids.resource_id === undefined ? undefined : resourceOf(deps, ids.resource_id),
    ids.service_id === undefined ? undefined : serviceOf(deps, ids.service_id),
  ]);
  if (ids.resource_id !== undefined) {
    if (!resource) errors.add("resource_id", "does not exist");
    else if (!resource.active) errors.add("resource_id", "is not active");
  }
  if (ids.service_id !== undefined) {
    if (!service) errors.add("service_id", "does not exist");
    else if (!service.active) errors.add("service_id", "is not active");
  }
}

export async function listEvents(
  deps: Deps,
  query: EventsQuery,
  request: PageRequest,
): Promise<{ rows: Event[]; total: number; booked: Map<number, number>; nextCursor?: string | null }> {
  const errors = new ErrorCollector();
  const sync = query.since !== undefined && query.order === undefined;
  // A sync client must learn of deletions too: a since listing shows deleted events (active false).
  const conditions: SQL[] = query.since !== undefined ? [] : [eq(events.active, true)];
  if (query.service_id) conditions.push(inIds(events.service_id, query.service_id));
  if (query.resource_id) conditions.push(inIds(events.resource_id, query.resource_id));
  const bound = (attribute: string, text: string | undefined, condition: (at: number) => SQL) => {
    const at = text === undefined ? null : instant(deps, errors, attribute, text);
    if (at !== null) conditions.push(condition(at));
  };
  bound("start", query.start, (at) => sql`${events.starts_at} >= ${at}`);
  bound("end", query.end, (at) => sql`${events.ends_at} <= ${at}`);
  bound("since", query.since, (at) => changedSince(events.updated_at, at));
  if (request.cursor && !sync) errors.add("cursor", "applies only to since listings without an order");
  errors.throwIfAny();
  return sync ? syncPageOfEvents(deps, conditions, request) : pageOfEvents(deps, conditions, query.order === "starts_at_desc" ? "starts_at_desc" : "starts_at", request);
}

/** One event with the seats its active bookings hold, read in one batch (one wait at distance). */
export async function getEventWithBooked(deps: Deps, id: number): Promise<{ event: Event; booked: number }> {
  const [[event], counts] = await deps.db.batch([
    deps.db
      .select()
      .from(events)
      .where(and(eq(events.id, id), eq(events.account_id, deps.account.id)))
      .limit(1),
    bookedCountsQuery(deps.db, deps.account.id, [id], deps.now),
  ]);
  if (!event) throw ApiError.notFound("event");
  return { event, booked: toBookedMap(counts).get(id) ?? 0 };
}

/** The new event's row after every check a create makes, without writing: recurring creates reuse it. */
export async function draftEvent(deps: Deps, input: EventInput): Promise<NewEvent> {
  const errors = new ErrorCollector();
  const { starts, ends } = timesOf(deps, errors, input);
  await checkReferences(deps, errors, input);
  errors.throwIfAny();
  return { ...input, starts_at: starts, ends_at: ends, account_id: deps.account.id, created_at: deps.now, updated_at: deps.now };
}

export async function createEvent(deps: Deps, input: EventInput) {
  const [event] = await deps.db
    .insert(events)
    .values(await draftEvent(deps, input))
    .returning();
  return afterEventChange(deps, "created", { event, booked: 0 });
}

export async function updateEvent(deps: Deps, id: number, input: EventUpdate) {
  const event = await getEvent(deps, id);
  const errors = new ErrorCollector();
  const { starts, ends } = timesOf(deps, errors, input, event);
  // Only a changed reference is checked, so an event on a since-deactivated resource stays editable.
  await checkReferences(deps, errors, {
    resource_id: input.resource_id !== event.resource_id ? input.resource_id : undefined,
    service_id: input.service_id !== event.service_id ? input.service_id : undefined,
  });
  errors.throwIfAny();

  const { starts_at: _s, ends_at: _e, ...plain } = input;
  const values: EventColumns = { ...plain, starts_at: starts, ends_at: ends, updated_at: deps.now };
  const moved =
    starts !== event.starts_at ||
    ends !== event.ends_at ||
    (input.resource_id ?? event.resource_id) !== event.resource_id ||
    (input.service_id ?? event.service_id) !== event.service_id;
  const lowered = input.capacity !== undefined && input.capacity < event.capacity;
  const target = { id, accountId: deps.account.id };
  const capacityCheck = lowered ? { capacity: input.capacity!, now: deps.now } : undefined;
  if (!(await writeEventUpdate(deps, target, values, { capacityCheck, moved }))) {
    const booked = (await bookedCounts(deps, [id])).get(id) ?? 0;
    throw ApiError.invalid("capacity", `is less than the seats already booked (${booked})`);
  }
  return afterEventChange(deps, "modified", await getEventWithBooked(deps, id));
}

/** Deleting a deleted event changes nothing, not even updated_at. */
export async function deleteEvent(deps: Deps, id: number) {
  const before = await getEvent(deps, id);
  await writeEventDelete(deps, { id, accountId: deps.account.id }, deps.now);
  const after = await getEventWithBooked(deps, id);
  return before.active ? afterEventChange(deps, "deleted", after) : after;
}
