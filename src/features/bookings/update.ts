// PUT /bookings/{id}: attribute changes; moving time, resource or count re-takes capacity through
// the target's guard, and an event booking's times and places stay the event's. Two waits: the
// booking with every row its change could need in one batch, then one write that reads it back
// (docs/decisions/latency.md, "Updates at distance").
import type { Booking, Event, Resource, Service } from "../../db/schema";
import type { Written } from "../../db/written";
import { isActive } from "../../domain/booking-states";
import { buffersOf, occupiedSpan, type Buffers } from "../../domain/buffers";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import type { CapacityScope, CapacityWindow } from "./capacity-sql";
import { EVENT_FULL, FULLY_BOOKED } from "./placement";
import { runUpdate, type BookingColumns } from "./guarded-write";
import { holdOnUpdate } from "./hold";
import { isUniqueViolation, lookUpPerson, newPersonColumns, personFillAfterWrite, personTakenMeanwhile, type PersonLookup } from "./person-link";
import { bookingFromReads, bookingReads, getBooking } from "./queries";
import { instantOf, reminderBefore, updateReferences } from "./references";
import { UPDATE_MESSAGE_FLAGS, type UpdateBookingBody } from "./schema";
import { stateError } from "./transitions";

const EVENT_OWNED = ["booked_from", "booked_to", "resource_id", "service_id"] as const;
const EVENT_OWNED_MESSAGE = "can't be changed on an event booking: change the event";

/** Only the attributes the request sent, as columns; absent attributes stay as they are. */
function plainColumns(input: UpdateBookingBody["booking"]): BookingColumns {
  const columns: BookingColumns = {};
  for (const key of ["title", "notes", "external_id", "gateway_order_number", "custom_data", "status"] as const) {
    if (input[key] !== undefined) Object.assign(columns, { [key]: input[key] });
  }
  return columns;
}

/** The rows `updateReferences` read: the named and the booking's own resource and service, its event. */
interface Found {
  resources: Map<number, Resource>;
  services: Map<number, Service>;
  event?: Event;
}

function placementColumns(deps: Deps, booking: Booking, input: UpdateBookingBody["booking"], found: Found, errors: ErrorCollector) {
  const from = instantOf(deps, errors, "booked_from", input.booked_from) ?? booking.booked_from;
  const to = instantOf(deps, errors, "booked_to", input.booked_to) ?? booking.booked_to;
  if (to <= from) errors.add("booked_to", "must be after booked_from");
  if (booking.event_id !== null) {
    const sent = { booked_from: from, booked_to: to, resource_id: input.resource_id, service_id: input.service_id };
    // Sending the values it already has back is not a change (clients often PUT the whole object).
    for (const key of EVENT_OWNED) {
      if (sent[key] !== undefined && sent[key] !== booking[key]) errors.add(key, EVENT_OWNED_MESSAGE);
    }
  }
  if (input.resource_id === null) errors.add("resource_id", "can't be blank");
  else if (input.resource_id !== undefined && input.resource_id !== booking.resource_id && !errors.fields.resource_id) {
    const resource = found.resources.get(input.resource_id);
    if (!resource) errors.add("resource_id", "does not exist");
    else if (!resource.active) errors.add("resource_id", "is not active");
  }
  const serviceId = input.service_id === undefined || errors.fields.service_id ? booking.service_id : input.service_id;
  const service = serviceId === null ? undefined : found.services.get(serviceId);
  if (serviceId !== null && !service && !errors.fields.service_id) errors.add("service_id", "does not exist");
  const count = input.count ?? booking.count;
  if (service?.booking_capacity && count > service.booking_capacity) errors.add("count", "More than maximum count per booking");
  // A booking keeps the buffers it was made with (a snapshot) until it changes service; an event
  // booking never has any (docs/decisions/buffers.md).
  const buffers: Buffers =
    serviceId === booking.service_id || booking.event_id !== null ? { buffer_before: booking.buffer_before, buffer_after: booking.buffer_after } : buffersOf(service);
  return { from, to, resourceId: input.resource_id ?? booking.resource_id, serviceId, count, buffers };
}

/** The guard a changed placement must pass, or undefined when it takes no new capacity. */
function guardFor(
  deps: Deps,
  booking: Booking,
  found: Found,
  placed: { from: number; to: number; resourceId: number; count: number; buffers: Buffers },
): { scope: CapacityScope; window: CapacityWindow } | undefined {
  const moved =
    placed.from !== booking.booked_from ||
    placed.to !== booking.booked_to ||
    placed.resourceId !== booking.resource_id ||
    placed.count !== booking.count ||
    placed.buffers.buffer_before !== booking.buffer_before ||
    placed.buffers.buffer_after !== booking.buffer_after;
  // An inactive booking holds no capacity, so changing it cannot overbook anything.
  if (!moved || !isActive(booking, deps.now)) return undefined;
  let scope: CapacityScope;
  if (booking.event_id !== null) {
    if (!found.event) return undefined;
    scope = { kind: "event", id: found.event.id, capacity: found.event.capacity };
  } else {
    scope = { kind: "resource", id: placed.resourceId, capacity: found.resources.get(placed.resourceId)?.capacity ?? 0 };
  }
  const occupied = occupiedSpan(placed.from, placed.to, placed.buffers);
  return { scope, window: { from: occupied.from, to: occupied.to, count: placed.count, now: deps.now } };
}

const NO_PERSON: PersonLookup = { reads: () => [], decide: () => ({ kind: "none" }) };

export async function updateBooking(deps: Deps, id: number, body: UpdateBookingBody): Promise<Written<Booking>> {
  const input = body.booking;
  const wantsPerson = input.person_id !== undefined || input.person_attributes !== undefined;
  // `person_id: null` unlinks, whatever else is sent; nothing is read for it.
  const person = wantsPerson && input.person_id !== null ? lookUpPerson(deps, { person_id: input.person_id, person_attributes: input.person_attributes }) : NO_PERSON;
  // The named resource and service besides the booking's own: what a change of either is checked against.
  const named = { resourceId: input.resource_id ?? null, serviceId: input.service_id ?? null };
  const {
    booking,
    more: [personResults],
    ...found
  } = await updateReferences(deps, id, named, [person.reads]);
  if (!booking) throw ApiError.notFound("booking");

  const errors = new ErrorCollector();
  const placed = placementColumns(deps, booking, input, found, errors);
  const reminderAt = body.add_reminder_sms ? reminderBefore(deps, placed.from) : instantOf(deps, errors, "reminder_at", input.reminder_at);
  const paidAt = instantOf(deps, errors, "paid_at", input.paid_at);
  const expiresAt = holdOnUpdate(deps, errors, booking, input.expires_at);
  errors.throwIfAny();
  // The person's errors come after the booking's own, as when the person was read on its own.
  const plan = person.decide(personResults);

  const flags = Object.fromEntries(UPDATE_MESSAGE_FLAGS.filter((n) => body[n] !== undefined).map((n) => [n, body[n]!]));
  const columns: BookingColumns = {
    ...plainColumns(input),
    booked_from: placed.from,
    booked_to: placed.to,
    ...(placed.buffers.buffer_before !== booking.buffer_before ? { buffer_before: placed.buffers.buffer_before } : {}),
    ...(placed.buffers.buffer_after !== booking.buffer_after ? { buffer_after: placed.buffers.buffer_after } : {}),
    resource_id: placed.resourceId,
    service_id: placed.serviceId,
    count: placed.count,
    // A new person's id is taken in the write itself (guarded-write.ts, `personInserted`).
    ...(wantsPerson ? { person_id: plan.kind === "existing" ? plan.person.id : null } : {}),
    ...(reminderAt !== undefined ? { reminder_at: reminderAt } : {}),
    ...(paidAt !== undefined ? { paid_at: paidAt } : {}),
    ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
    ...(Object.keys(flags).length > 0 ? { message_flags: { ...booking.message_flags, ...flags } } : {}),
    updated_at: deps.now,
  };
  const guard = body.ignore_capacity ? undefined : guardFor(deps, booking, found, placed);
  let written: Awaited<ReturnType<typeof runUpdate>>;
  try {
    written = await runUpdate(deps, {
      target: { id, accountId: deps.account.id, expectedState: booking.state },
      booking: columns,
      guard,
      person: newPersonColumns(deps, plan),
      after: personFillAfterWrite(deps, plan),
      reads: bookingReads(deps, id),
    });
  } catch (error) {
    // Another request took one of the new person's identifiers between the check and the insert.
    if (plan.kind === "new" && isUniqueViolation(error)) throw personTakenMeanwhile();
    throw error;
  }
  // Read in the write's own batch, changed or not: a refusal's reason needs no round trip more.
  const row = bookingFromReads(id, written.reads) ?? (await getBooking(deps, id));
  if (!written.applied) {
    if (row.state !== booking.state) throw stateError(row, deps.now, "updated");
    throw booking.event_id !== null ? ApiError.invalid("count", EVENT_FULL) : ApiError.invalid("booked_from", FULLY_BOOKED);
  }
  return { row, changed: true };
}
