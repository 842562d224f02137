// A visitor moves their own booking to another time of its service (issue 34, docs/decisions/
// booking-site.md, "Moving by the visitor"): the rules of the booking site, then the integrator's
// move (guarded-write.ts `runUpdate`), so the new time is taken and the old one released in one
// guarded statement. Two waits: the booking and everything the new time needs in one batch, then
// the write that reads the booking back.
import type { Booking, Resource } from "../../db/schema";
import type { SqlStatement } from "../../db/sql-statement";
import { effectiveState, isActive } from "../../domain/booking-states";
import { occupiedSpan } from "../../domain/buffers";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import { heldSeatsFor, holdBySecretReads, holdFromReads, type Conversion } from "../holds/conversion";
import { runUpdate, type BookingColumns } from "./guarded-write";
import { EVENT_FULL, FULLY_BOOKED, type Candidate, type Placement } from "./placement";
import { bookingDate, checkPublicTimes, closedForHoliday, exceptionHoursByResource, exceptionHoursOfBookingService, isInsideOpeningHours } from "./public-rules";
import { bookingFromReads, bookingReads, getBooking } from "./queries";
import { instantOf, moveReferences, reminderBefore, type MoreReads, type MoveReferences } from "./references";
import type { SiteMoveBody } from "./schema";
import { followed } from "./service";
import { bookingPageLink, bookingWithTokenOf, changeableUntil, deadlineText, visitorMayMove } from "./site";
import { stateError } from "./transitions";

const notFound = () => ApiError.notFound("booking");

/**
 * The refusals that depend on the booking alone, in the order a visitor meets them: the account's
 * switch, the booking's state, the cancellation period before its present start.
 */
function checkMovable(deps: Deps, booking: Booking): void {
  const { account } = deps;
  if (!visitorMayMove(account)) throw ApiError.invalid("state", `can't be moved online: contact ${account.name} to change the time`);
  // A booking waiting for its payment pays for the time it has: it moves once paid.
  if (!isActive(booking, deps.now) || effectiveState(booking, deps.now) === "awaiting_payment") throw stateError(booking, deps.now, "moved");
  const until = changeableUntil(deps, booking.booked_from);
  if (deps.now > until) throw ApiError.invalid("state", `could be moved online until ${deadlineText(deps, until)}`);
}

/** Where the booking may go: the new event, or the new times on the open providers of its service. */
async function placeMove(
  deps: Deps,
  booking: Booking,
  refs: MoveReferences,
  times: { from: number; to: number },
  exceptionRows: D1Result | undefined,
): Promise<Placement> {
  const base = { version: undefined, moreReads: [] };
  if (booking.event_id !== null) {
    const event = refs.event;
    if (!event || !refs.eventResource || !event.active || !event.published || event.service_id !== booking.service_id) {
      throw ApiError.invalid("event_id", "is not an event of this booking's service open for booking");
    }
    if (event.id === booking.event_id) throw ApiError.invalid("event_id", "is the booking's own event");
    if (event.starts_at < deps.now) throw ApiError.invalid("event_id", "has already started");
    return {
      ...base,
      from: event.starts_at,
      to: event.ends_at,
      service: refs.service ?? null,
      eventId: event.id,
      buffers: { buffer_before: 0, buffer_after: 0 },
      candidates: [{ resource: refs.eventResource, scope: { kind: "event", id: event.id, capacity: event.capacity } }],
    };
  }
  const service = refs.service;
  if (!service?.active) throw ApiError.invalid("service_id", "is not booked online any more: contact the shop to change the time");
  const errors = new ErrorCollector();
  checkPublicTimes(errors, { ...times, now: deps.now }, deps.account, service);
  errors.throwIfAny();
  // A booking keeps the buffers it was made with (docs/decisions/buffers.md); they move with it.
  const buffers = { buffer_before: booking.buffer_before, buffer_after: booking.buffer_after };
  const holiday = await closedForHoliday(deps, bookingDate(deps, times.from));
  const exceptions = exceptionHoursByResource(exceptionRows);
  const inside = deps.account.buffers_within_opening_hours ? occupiedSpan(times.from, times.to, buffers) : times;
  const open = refs.providers.filter((r) => isInsideOpeningHours(deps, r, inside.from, inside.to, exceptions, holiday));
  if (open.length === 0) throw ApiError.invalid("booked_from", "is outside the resource's opening hours");
  // The booking's own resource first: a move that can stay with the same person does.
  const ordered = [...open.filter((r) => r.id === booking.resource_id), ...open.filter((r) => r.id !== booking.resource_id)];
  const candidates: Candidate[] = ordered.map((resource: Resource) => ({ resource, scope: { kind: "resource", id: resource.id, capacity: resource.capacity } }));
  return { ...base, ...times, service, eventId: null, buffers, candidates };
}

/** Ends the hold the move took the seats of, right after the booking's change and only when it applied (`changes()`). */
const convertHold = (conversion: Conversion, bookingId: number, now: number): SqlStatement => ({
  sql: `UPDATE slot_holds SET ended_at = ?, ended_by = 'converted', booking_id = ?
        WHERE id = ? AND ended_at IS NULL AND changes() = 1`,
  params: [now, bookingId, conversion.holdId],
});

export async function moveOnSite(deps: Deps, id: number, token: string | undefined, body: SiteMoveBody, siteOrigin: string): Promise<Booking> {
  if (!token) throw notFound();
  const input = body.booking;
  const errors = new ErrorCollector();
  const eventId = input.event_id ?? null;
  const from = eventId === null ? instantOf(deps, errors, "booked_from", input.booked_from) : undefined;
  const to = eventId === null ? instantOf(deps, errors, "booked_to", input.booked_to) : undefined;
  const date = typeof from === "number" ? bookingDate(deps, from) : undefined;
  const holdReads: MoreReads = body.hold_secret ? await holdBySecretReads(deps, body.hold_secret) : () => [];
  const exceptionReads: MoreReads = (d1) => (date === undefined ? [] : [exceptionHoursOfBookingService(d1, deps, date, id)]);
  // One round trip: the booking, its service and providers, the event named, the hold, the date's exceptions.
  const refs = await moveReferences(deps, id, eventId, [holdReads, exceptionReads]);
  const booking = await bookingWithTokenOf(refs.booking, token);
  checkMovable(deps, booking);

  // The input, now that the booking says which kind of time it moves to.
  if (booking.event_id !== null && eventId === null) errors.add("event_id", "can't be blank: an event booking moves to another event");
  if (booking.event_id === null) {
    if (eventId !== null) errors.add("event_id", "can't be given: this booking moves to another time of its service");
    else {
      if (input.booked_from === undefined) errors.add("booked_from", "can't be blank");
      if (input.booked_to === undefined) errors.add("booked_to", "can't be blank");
      if (typeof from === "number" && typeof to === "number" && to <= from) errors.add("booked_to", "must be after booked_from");
    }
  }
  errors.throwIfAny();
  const placement = await placeMove(deps, booking, refs, { from: from ?? 0, to: to ?? 0 }, refs.more[1]?.[0]);
  if (placement.eventId === null && placement.from === booking.booked_from && placement.to === booking.booked_to) {
    throw ApiError.invalid("booked_from", "is the booking's time already");
  }
  // "Nor moved to": the new time must itself be outside the cancellation period.
  if (changeableUntil(deps, placement.from) < deps.now) {
    throw ApiError.invalid(placement.eventId === null ? "booked_from" : "event_id", `is too soon: move to a time at least ${deps.account.cancellation_period} ahead`);
  }
  const hold = body.hold_secret ? holdFromReads(refs.more[0]) : undefined;
  const conversion = body.hold_secret ? heldSeatsFor(deps, hold, placement, booking.count) : undefined;

  const row = await writeMove(deps, booking, placement, conversion);
  return followed(deps, "modified", { row, changed: true }, { link: bookingPageLink(siteOrigin, id, token) });
}

/**
 * The guarded update on each candidate in turn (the hold's only, when one is converted). The
 * first that fits takes the new time and releases the old in the same statement; a refusal
 * changes nothing.
 */
async function writeMove(deps: Deps, booking: Booking, placement: Placement, conversion: Conversion | undefined): Promise<Booking> {
  const occupied = occupiedSpan(placement.from, placement.to, placement.buffers);
  const columns: BookingColumns = {
    booked_from: placement.from,
    booked_to: placement.to,
    ...(placement.eventId !== null ? { event_id: placement.eventId } : {}),
    ...(booking.reminder_at !== null ? { reminder_at: reminderBefore(deps, placement.from) } : {}),
    updated_at: deps.now,
  };
  for (const candidate of conversion ? [conversion.candidate] : placement.candidates) {
    const written = await runUpdate(deps, {
      target: { id: booking.id, accountId: deps.account.id, expectedState: booking.state },
      booking: { ...columns, resource_id: candidate.resource.id },
      guard: { scope: candidate.scope, window: { ...occupied, count: booking.count, now: deps.now, excludeHoldId: conversion?.holdId } },
      after: conversion ? convertHold(conversion, booking.id, deps.now) : undefined,
      reads: bookingReads(deps, booking.id),
    });
    const row = bookingFromReads(booking.id, written.reads) ?? (await getBooking(deps, booking.id));
    if (written.applied) return row;
    // Cancelled (or otherwise changed) meanwhile: the move loses, and says what the booking is now.
    if (row.state !== booking.state) throw stateError(row, deps.now, "moved");
  }
  throw placement.eventId !== null ? ApiError.invalid("event_id", EVENT_FULL) : ApiError.invalid("booked_from", FULLY_BOOKED);
}
