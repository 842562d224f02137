// PUT /bookings/{id}: attribute changes; moving time, resource or count re-takes capacity through
// the target's guard, and an event booking's times and places stay the event's.
import type { Booking } from "../../db/schema";
import type { Written } from "../../db/written";
import { isActive } from "../../domain/booking-states";
import { buffersOf, occupiedSpan, type Buffers } from "../../domain/buffers";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import type { CapacityScope } from "./capacity-sql";
import { EVENT_FULL, FULLY_BOOKED } from "./placement";
import { runWrite, updateBookingStatement, type BookingColumns } from "./guarded-write";
import { holdOnUpdate } from "./hold";
import { applyPersonFill, createPlannedPerson, discardPlannedPerson, planPerson, type PersonPlan } from "./person-link";
import { getBooking } from "./queries";
import { eventOf, instantOf, reminderBefore, resourceOf, serviceOf } from "./references";
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

async function placementColumns(deps: Deps, booking: Booking, input: UpdateBookingBody["booking"], errors: ErrorCollector) {
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
  let resource = undefined;
  if (input.resource_id === null) errors.add("resource_id", "can't be blank");
  else if (input.resource_id !== undefined && input.resource_id !== booking.resource_id && !errors.fields.resource_id) {
    resource = await resourceOf(deps, input.resource_id);
    if (!resource) errors.add("resource_id", "does not exist");
    else if (!resource.active) errors.add("resource_id", "is not active");
  }
  const serviceId = input.service_id === undefined || errors.fields.service_id ? booking.service_id : input.service_id;
  const service = serviceId === null ? undefined : await serviceOf(deps, serviceId);
  if (serviceId !== null && !service && !errors.fields.service_id) errors.add("service_id", "does not exist");
  const count = input.count ?? booking.count;
  if (service?.booking_capacity && count > service.booking_capacity) errors.add("count", "More than maximum count per booking");
  // A booking keeps the buffers it was made with (a snapshot) until it changes service; an event
  // booking never has any (docs/decisions/buffers.md).
  const buffers: Buffers = serviceId === booking.service_id || booking.event_id !== null
    ? { buffer_before: booking.buffer_before, buffer_after: booking.buffer_after }
    : buffersOf(service);
  return { from, to, resourceId: input.resource_id ?? booking.resource_id, serviceId, count, buffers };
}

/** The guard a changed placement must pass, or undefined when it takes no new capacity. */
async function guardFor(deps: Deps, booking: Booking, placed: { from: number; to: number; resourceId: number; count: number; buffers: Buffers }) {
  const moved = placed.from !== booking.booked_from || placed.to !== booking.booked_to
    || placed.resourceId !== booking.resource_id || placed.count !== booking.count
    || placed.buffers.buffer_before !== booking.buffer_before || placed.buffers.buffer_after !== booking.buffer_after;
  // An inactive booking holds no capacity, so changing it cannot overbook anything.
  if (!moved || !isActive(booking, deps.now)) return undefined;
  let scope: CapacityScope;
  if (booking.event_id !== null) {
    const event = await eventOf(deps, booking.event_id);
    if (!event) return undefined;
    scope = { kind: "event", id: event.id, capacity: event.capacity };
  } else {
    const resource = await resourceOf(deps, placed.resourceId);
    scope = { kind: "resource", id: placed.resourceId, capacity: resource?.capacity ?? 0 };
  }
  const occupied = occupiedSpan(placed.from, placed.to, placed.buffers);
  return { scope, window: { from: occupied.from, to: occupied.to, count: placed.count, now: deps.now } };
}

export async function updateBooking(deps: Deps, id: number, body: UpdateBookingBody): Promise<Written<Booking>> {
  const booking = await getBooking(deps, id);
  const input = body.booking;
  const errors = new ErrorCollector();
  const placed = await placementColumns(deps, booking, input, errors);
  const reminderAt = body.add_reminder_sms ? reminderBefore(deps, placed.from) : instantOf(deps, errors, "reminder_at", input.reminder_at);
  const paidAt = instantOf(deps, errors, "paid_at", input.paid_at);
  const expiresAt = holdOnUpdate(deps, errors, booking, input.expires_at);
  errors.throwIfAny();

  const wantsPerson = input.person_id !== undefined || input.person_attributes !== undefined;
  const plan: PersonPlan = wantsPerson && input.person_id !== null
    ? await planPerson(deps, { person_id: input.person_id, person_attributes: input.person_attributes })
    : { kind: "none" };
  const personId = await createPlannedPerson(deps, plan);

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
    ...(wantsPerson ? { person_id: personId } : {}),
    ...(reminderAt !== undefined ? { reminder_at: reminderAt } : {}),
    ...(paidAt !== undefined ? { paid_at: paidAt } : {}),
    ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
    ...(Object.keys(flags).length > 0 ? { message_flags: { ...booking.message_flags, ...flags } } : {}),
    updated_at: deps.now,
  };
  const guard = body.ignore_capacity ? undefined : await guardFor(deps, booking, placed);
  const target = { id, accountId: deps.account.id, expectedState: booking.state };
  const written = await runWrite(deps, updateBookingStatement(target, columns, guard), guard?.scope);
  if (written === null) {
    await discardPlannedPerson(deps, plan, personId);
    const current = await getBooking(deps, id);
    if (current.state !== booking.state) throw stateError(current, deps.now, "updated");
    throw booking.event_id !== null ? ApiError.invalid("count", EVENT_FULL) : ApiError.invalid("booked_from", FULLY_BOOKED);
  }
  await applyPersonFill(deps, plan);
  return { row: await getBooking(deps, id), changed: true };
}
