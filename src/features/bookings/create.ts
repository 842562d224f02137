// POST /bookings on the private API and the booking site: where the booking goes (event, resource
// or a free provider of the service), who it is for, its first state (the draft), and the guarded insert.
import type { Booking, Resource, Service } from "../../db/schema";
import type { SqlStatement } from "../../db/sql-statement";
import type { Written } from "../../db/written";
import { initialState } from "../../domain/booking-states";
import { buffersOf, NO_BUFFERS, occupiedSpan, type Buffers } from "../../domain/buffers";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import type { CapacityScope } from "./capacity-sql";
import { runCreate, type BookingColumns, type CreateResult } from "./guarded-write";
import {
  applyPersonFill, isUniqueViolation, lookUpPerson, newPersonColumns, personError, personFillStatement, personTakenMeanwhile, plannedPerson,
  type PersonPlan,
} from "./person-link";
import { bookingDate, checkPublicTimes, closedForHoliday, exceptionHoursByResource, exceptionHoursOfDate, isInsideOpeningHours } from "./public-rules";
import { getBookingWithRelated, insertedBookingFrom, insertedBookingReads } from "./queries";
import { bookingReferences, eventWithReferences, instantOf, reminderBefore, type CurrentVersion, type MoreReads } from "./references";
import { knownFull, type MemoSlot } from "./refusal-memo";
import { CREATE_MESSAGE_FLAGS, type CreateBookingBody } from "./schema";
import { holdOnCreate } from "./hold";
import { heldSeatsFor, holdByIdReads, holdBySecretReads, holdFromReads, type Conversion } from "../holds/conversion";
import { checkVerificationContact, newVerificationCode, verificationRequired } from "./verification";

export const FULLY_BOOKED = "is not available: the resource is fully booked at this time";
export const EVENT_FULL = "is fully booked";

export interface Placement {
  from: number;
  to: number;
  service: Service | null;
  eventId: number | null;
  /** Held around the times on a resource; none on an event, whose capacity is its own (buffers.md). */
  buffers: Buffers;
  /** Where the booking may go, in the order they are tried. */
  candidates: Candidate[];
  /** The availability version read with the references, when read on the primary (refusal-memo.ts). */
  version: CurrentVersion;
  /** The results of the caller's reads (`MoreReads` groups, in order), made in the references batch. */
  moreReads: D1Result[][];
}

export interface Candidate {
  resource: Resource;
  scope: CapacityScope;
}

const resourceScope = (resource: Resource): CapacityScope => ({ kind: "resource", id: resource.id, capacity: resource.capacity });

/** An event booking takes the event's times, resource and service, and the event's capacity. */
async function placeOnEvent(deps: Deps, eventId: number, isPublic: boolean, moreReads: MoreReads[]): Promise<Placement> {
  const { event, resource, service, version, more } = await eventWithReferences(deps, eventId, moreReads);
  if (!event) throw ApiError.invalid("event_id", "does not exist");
  if (!event.active || (isPublic && !event.published)) throw ApiError.invalid("event_id", "is not open for booking");
  if (isPublic && event.starts_at < deps.now) throw ApiError.invalid("event_id", "has already started");
  if (!resource) throw ApiError.invalid("event_id", "has no resource");
  return {
    from: event.starts_at, to: event.ends_at, service: service ?? null, eventId: event.id, buffers: NO_BUFFERS,
    candidates: [{ resource, scope: { kind: "event", id: event.id, capacity: event.capacity } }],
    version, moreReads: more,
  };
}

async function placeOnResource(
  deps: Deps, input: SlotInput, isPublic: boolean, moreReads: MoreReads[],
): Promise<Placement> {
  const errors = new ErrorCollector();
  const from = instantOf(deps, errors, "booked_from", input.booked_from);
  const to = instantOf(deps, errors, "booked_to", input.booked_to);
  if (input.booked_from === undefined) errors.add("booked_from", "can't be blank");
  if (input.booked_to === undefined) errors.add("booked_to", "can't be blank");
  if (typeof from === "number" && typeof to === "number" && to <= from) errors.add("booked_to", "must be after booked_from");

  // Service, resource, the service's providers (only when used), the person's reads and, for a
  // public booking, the candidates' exception hours of its date, in one round trip.
  const named = { serviceId: input.service_id ?? undefined, resourceId: input.resource_id ?? undefined };
  const date = isPublic && typeof from === "number" ? bookingDate(deps, from) : undefined;
  const exceptionReads: MoreReads = (d1) => (date === undefined ? [] : [exceptionHoursOfDate(d1, deps, date, named)]);
  const refs = await bookingReferences(deps, { ...named, withProviders: !input.resource_id || isPublic }, [...moreReads, exceptionReads]);
  const [exceptionRows] = refs.more[moreReads.length];
  let service: Service | null = null;
  if (input.service_id) {
    service = refs.service ?? null;
    if (!service) errors.add("service_id", "does not exist");
    else if (isPublic && !service.active) errors.add("service_id", "is not active");
  }
  let resources: Resource[] = [];
  if (input.resource_id) {
    const resource = refs.resource;
    if (!resource) errors.add("resource_id", "does not exist");
    else if (!resource.active) errors.add("resource_id", "is not active");
    else resources = [resource];
    if (resource && service && isPublic && !refs.providers.some((r) => r.id === resource.id)) {
      errors.add("resource_id", "does not provide this service");
    }
  } else if (service) {
    resources = refs.providers;
    if (resources.length === 0) errors.add("resource_id", "can't be assigned: no active resource provides this service");
  } else if (!input.service_id) {
    errors.add("resource_id", "can't be blank");
  }
  if (isPublic && typeof from === "number" && typeof to === "number" && to > from) {
    checkPublicTimes(errors, { from, to, now: deps.now }, deps.account, service);
  }
  errors.throwIfAny();

  if (isPublic) {
    const exceptions = exceptionHoursByResource(exceptionRows);
    const holiday = await closedForHoliday(deps, bookingDate(deps, from!));
    // Buffers reach into closed hours unless the account keeps them inside (docs/decisions/buffers.md).
    const inside = deps.account.buffers_within_opening_hours ? occupiedSpan(from!, to!, buffersOf(service)) : { from: from!, to: to! };
    const open = resources.filter((resource) => isInsideOpeningHours(deps, resource, inside.from, inside.to, exceptions, holiday));
    if (open.length === 0) throw ApiError.invalid("booked_from", "is outside the resource's opening hours");
    resources = open;
  }
  return {
    from: from!, to: to!, service, eventId: null, buffers: buffersOf(service),
    candidates: resources.map((resource) => ({ resource, scope: resourceScope(resource) })),
    version: refs.version, moreReads: refs.more.slice(0, moreReads.length),
  };
}

/** What places a booking or a hold: a service's time, or an event (domain of `placeSlot`). */
type SlotInput = Pick<CreateBookingBody["booking"], "service_id" | "event_id" | "resource_id" | "booked_from" | "booked_to">;

/**
 * Where a booking (or a slot hold: features/holds) of `input` may go, under the public rules when
 * `isPublic`, with the caller's `moreReads` in the same round trip as the references.
 */
export const placeSlot = (deps: Deps, input: SlotInput, isPublic: boolean, moreReads: MoreReads[] = []): Promise<Placement> =>
  input.event_id ? placeOnEvent(deps, input.event_id, isPublic, moreReads) : placeOnResource(deps, input, isPublic, moreReads);

function messageFlags(body: Record<string, unknown>, names: readonly string[]): Record<string, boolean> | null {
  const given = names.filter((n) => typeof body[n] === "boolean").map((n) => [n, body[n] as boolean]);
  return given.length > 0 ? Object.fromEntries(given) : null;
}

/** A booking that passed every check a create makes, ready to be written. */
interface BookingDraft {
  placement: Placement;
  plan: PersonPlan;
  ignoreCapacity: boolean;
  count: number;
  values: (resourceId: number, personId: number | null) => BookingColumns;
  /** The live hold whose seats the booking takes over (docs/decisions/holds.md), when a hold_secret named one. */
  conversion?: Conversion;
}

/**
 * Every check POST /bookings makes, in its order, without writing anything: recurring creates
 * validate their first booking with it and create each occurrence from it.
 */
export async function draftBooking(deps: Deps, body: CreateBookingBody, opts: { heldBy?: number } = {}): Promise<BookingDraft> {
  const input = body.booking;
  const onSite = deps.surface === "public_api";
  // The booking site always books under the public rules, and always through verification.
  const isPublic = onSite || input.public_booking === true;
  const confirm = onSite ? false : body.confirm ?? true;
  const ignoreCapacity = !isPublic && body.ignore_capacity === true;

  // A visitor may not attach a booking to a stored person by id: only by who they say they are.
  // The person's reads go into the references batch; its errors still come after the booking's own.
  const person = lookUpPerson(deps, { person_id: onSite ? undefined : input.person_id, person_attributes: input.person_attributes });
  const holdSecret = body.hold_secret ?? undefined;
  // `heldBy`: a hold the caller already proved it may take (a waitlist offer its holder accepts).
  const holdReads = holdSecret ? await holdBySecretReads(deps, holdSecret) : opts.heldBy ? holdByIdReads(deps, opts.heldBy) : () => [];
  const placement = await placeSlot(deps, input, isPublic, [person.reads, holdReads]);
  const [personResults, holdResults] = placement.moreReads;
  const count = input.count ?? 1;
  if (placement.service?.booking_capacity && count > placement.service.booking_capacity) {
    throw ApiError.invalid("count", "More than maximum count per booking");
  }
  const errors = new ErrorCollector();
  // The account's reminder_sms is the default when the request neither asks nor gives a time.
  const addReminder = body.add_reminder_sms ?? (deps.account.reminder_sms && input.reminder_at === undefined);
  const reminderAt = addReminder ? reminderBefore(deps, placement.from) : instantOf(deps, errors, "reminder_at", input.reminder_at);
  const paidAt = instantOf(deps, errors, "paid_at", input.paid_at);
  const verify = verificationRequired(deps.account, confirm);
  // A visitor does not choose how long their unverified booking holds the slot.
  const expiresAt = holdOnCreate(deps, errors, onSite ? undefined : input.expires_at, verify);
  errors.throwIfAny();

  // Checked after the booking's own errors: a hold only matters for a booking that could be made.
  const conversion = holdSecret || opts.heldBy ? heldSeatsFor(deps, holdFromReads(holdResults), placement, count) : undefined;
  const plan = person.decide(personResults);
  // The site needs someone to verify; public_booking on the private API applies only the spec's
  // time rules (inside opening hours, not past, not beyond the horizon), so no person is needed.
  if (onSite && plan.kind === "none") throw personError(["can't be blank"]);
  if (verify) checkVerificationContact(deps.account, plannedPerson(plan));
  const state = initialState({ confirm, verificationRequired: verify, confirmManually: deps.account.confirm_manually });

  const values = (resourceId: number, personId: number | null): BookingColumns => ({
    account_id: deps.account.id,
    service_id: placement.service?.id ?? null,
    event_id: placement.eventId,
    resource_id: resourceId,
    person_id: personId,
    booked_from: placement.from,
    booked_to: placement.to,
    buffer_before: placement.buffers.buffer_before,
    buffer_after: placement.buffers.buffer_after,
    expires_at: expiresAt,
    title: input.title ?? null,
    notes: input.notes ?? null,
    reminder_at: reminderAt ?? null,
    paid_at: paidAt ?? null,
    external_id: input.external_id ?? null,
    gateway_order_number: input.gateway_order_number ?? null,
    custom_data: input.custom_data ?? null,
    state,
    active: true,
    count,
    status: input.status ?? null,
    verification_code: verify ? newVerificationCode() : null,
    message_flags: messageFlags(body, [...CREATE_MESSAGE_FLAGS, "add_reminder_sms"]),
    created_at: deps.now,
    updated_at: deps.now,
  });
  return { placement, plan, ignoreCapacity, count, values, conversion };
}

const fullyBooked = (placement: Placement) =>
  placement.eventId ? ApiError.invalid("event_id", EVENT_FULL) : ApiError.invalid("booked_from", FULLY_BOOKED);

/**
 * Writes the draft: the guarded insert on each candidate in turn, with a new person in the same
 * transaction (guarded-write.ts, `runCreate`: the person goes in only when the booking does, so a
 * refused booking leaves no person behind and the person's insert costs no round trip of its own).
 * `extra` columns (a recurring occurrence's collection_id) go into the same insert. With `reads`,
 * the booking and its related rows are read in that transaction too. Candidates this isolate saw
 * refused under the version the references read are still full (refusal-memo.ts) and are not
 * tried; when none is left the refusal comes before anything is written. A matched person's fill
 * is the caller's (`insertDraft`, `insertDraftAndRead`): only once the booking is in.
 */
async function writeDraft(deps: Deps, draft: BookingDraft, extra: BookingColumns, reads?: SqlStatement[]): Promise<CreateResult> {
  const { placement, plan, ignoreCapacity, conversion } = draft;
  const occupied = occupiedSpan(placement.from, placement.to, placement.buffers);
  const slotOf = ({ scope }: Candidate): MemoSlot => ({
    shard: deps.account.shard, accountId: deps.account.id, scope,
    window: { from: occupied.from, to: occupied.to, count: draft.count, now: deps.now, excludeHoldId: conversion?.holdId },
  });
  // A converted hold's seats are the booking's: only its candidate, and never refused from memory
  // (the memo saw the slot full of this very hold).
  const candidates = conversion ? [conversion.candidate]
    : ignoreCapacity ? placement.candidates : placement.candidates.filter((c) => !knownFull(slotOf(c), placement.version));
  if (candidates.length === 0) throw fullyBooked(placement);
  const person = newPersonColumns(deps, plan);
  for (const candidate of candidates) {
    const booking = { ...draft.values(candidate.resource.id, plan.kind === "existing" ? plan.person.id : null), ...extra };
    let written: CreateResult | null;
    try {
      written = await runCreate(deps, {
        booking, person, slot: ignoreCapacity && !conversion ? undefined : slotOf(candidate), reads,
        convertsHold: conversion ? { id: conversion.holdId, now: deps.now } : undefined,
      });
    } catch (error) {
      // Another request took one of the new person's identifiers between the check and the insert.
      if (person && isUniqueViolation(error)) throw personTakenMeanwhile();
      throw error;
    }
    if (written) return written;
  }
  throw fullyBooked(placement);
}

/** The draft written (`writeDraft`), then a matched person's empty attributes filled. */
export async function insertDraft(deps: Deps, draft: BookingDraft, extra: BookingColumns = {}): Promise<number> {
  const { id } = await writeDraft(deps, draft, extra);
  await applyPersonFill(deps, draft.plan);
  return id;
}

/**
 * The draft written with the booking and its related rows read in the write's own transaction
 * (no round trip after it). A matched person's empty attributes are filled first in a batch that
 * then reads the booking with its related rows (so the answer shows them): the fill and the read
 * cost one round trip after the write.
 */
export async function insertDraftAndRead(deps: Deps, draft: BookingDraft, extra: BookingColumns = {}): Promise<Booking> {
  const fill = personFillStatement(deps, draft.plan);
  const { id, reads } = await writeDraft(deps, draft, extra, fill ? undefined : insertedBookingReads(deps));
  if (!fill) return insertedBookingFrom(id, reads) ?? getBookingWithRelated(deps, id);
  try {
    return await getBookingWithRelated(deps, id, fill);
  } catch (error) {
    // The batch is one transaction: a fill another request's identifier blocked undid only itself.
    if (!isUniqueViolation(error)) throw error;
    return getBookingWithRelated(deps, id);
  }
}

export async function createBooking(deps: Deps, body: CreateBookingBody): Promise<Written<Booking>> {
  return { row: await insertDraftAndRead(deps, await draftBooking(deps, body)), changed: true };
}
