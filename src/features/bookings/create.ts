// POST /bookings on the private API and the booking site, in its stages: where the booking goes
// (placement.ts), who it is for (person-link.ts), whether it waits for a payment (payments/stage.ts),
// its first state (the draft), and the guarded insert (guarded-write.ts).
import type { Booking } from "../../db/schema";
import type { SqlStatement } from "../../db/sql-statement";
import type { Written } from "../../db/written";
import { initialState } from "../../domain/booking-states";
import { occupiedSpan } from "../../domain/buffers";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import { runCreate, type BookingColumns, type CreateResult } from "./guarded-write";
import {
  applyPersonFill,
  isUniqueViolation,
  lookUpPerson,
  newPersonColumns,
  personError,
  personFillAfterWrite,
  personTakenMeanwhile,
  plannedPerson,
  type PersonPlan,
} from "./person-link";
import { bookingFromReads, getBookingWithRelated, insertedBookingReads } from "./queries";
import { EVENT_FULL, FULLY_BOOKED, placeSlot, type Candidate, type Placement } from "./placement";
import { instantOf, reminderBefore } from "./references";
import { knownFull, type MemoSlot } from "./refusal-memo";
import { CREATE_MESSAGE_FLAGS, visitorAttributes, type CreateBookingBody } from "./schema";
import { holdOnCreate } from "./hold";
import { heldSeatsFor, holdByIdReads, holdBySecretReads, holdFromReads, type Conversion } from "../holds/conversion";
import { checkVerificationContact, newVerificationCode, verificationRequired } from "./verification";
import { checkUnpaidLimits, visitorHash } from "../payments/unpaid-limits";
import { paymentStage, paymentWindowEnd, pendingPayment, type PaymentPlan } from "../payments/stage";
import { integratorReturnPages, openCheckout } from "../payments/checkout";
import { pendingOfSameVisitor } from "../payments/retry";

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
  /** What the booking pays before it holds its seat for good (payments/stage.ts); null: nothing, as before payments. */
  payment: PaymentPlan | null;
  /** The visitor's own booking of the same time still waiting for its payment: answered again instead of a new one. */
  retryOf?: Booking;
}

/**
 * Every check POST /bookings makes, in its order, without writing anything: recurring creates
 * validate their first booking with it and create each occurrence from it.
 */
export async function draftBooking(deps: Deps, body: CreateBookingBody, opts: { heldBy?: number } = {}): Promise<BookingDraft> {
  const onSite = deps.surface === "public_api";
  // What only the product or the shop may set is not the visitor's to send (schema.ts, SITE_ATTRIBUTES).
  const input = onSite ? visitorAttributes(body.booking) : body.booking;
  // The booking site always books under the public rules, and always through verification.
  const isPublic = onSite || input.public_booking === true;
  const confirm = onSite ? false : (body.confirm ?? true);
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
  // The payment stage: a booking that pays waits for its payment (not for a code), for the account's window.
  const payment = paymentStage(deps, placement.service, count, { onSite, checkout: Boolean(body.checkout) });
  const verify = !payment && verificationRequired(deps.account, confirm);
  // A visitor does not choose how long their unverified booking holds the slot.
  const givenHold = holdOnCreate(deps, errors, onSite ? undefined : input.expires_at, verify);
  const expiresAt = payment ? paymentWindowEnd(deps) : givenHold;
  errors.throwIfAny();
  const clientHash = payment && onSite && deps.visitor !== undefined ? await visitorHash(deps, deps.visitor) : null;

  // Checked after the booking's own errors: a hold only matters for a booking that could be made.
  const conversion = holdSecret || opts.heldBy ? heldSeatsFor(deps, holdFromReads(holdResults), placement, count) : undefined;
  const plan = person.decide(personResults);
  // The site needs someone to verify; public_booking on the private API applies only the spec's
  // time rules (inside opening hours, not past, not beyond the horizon), so no person is needed.
  if (onSite && plan.kind === "none") throw personError(["can't be blank"]);
  if (verify) checkVerificationContact(deps.account, plannedPerson(plan));
  const state = payment ? "awaiting_payment" : initialState({ confirm, verificationRequired: verify, confirmManually: deps.account.confirm_manually });

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
    ...(payment ? { payment: pendingPayment(payment, clientHash) } : {}),
    created_at: deps.now,
    updated_at: deps.now,
  });
  // Abandon and retry: the visitor's own pending booking of this time is theirs again, before any
  // limit on unpaid bookings counts it against them (payments/retry.ts).
  const retryOf = payment ? await pendingRetry(deps, placement, plan, values) : undefined;
  if (payment && !retryOf) await checkUnpaidLimits(deps, clientHash);
  return { placement, plan, ignoreCapacity, count, values, conversion, payment, retryOf };
}

function pendingRetry(deps: Deps, placement: Placement, plan: PersonPlan, values: BookingDraft["values"]) {
  const someone = plan.kind === "existing" ? plan.person.id : null;
  const candidate = placement.candidates[0];
  return candidate ? pendingOfSameVisitor(deps, values(candidate.resource.id, someone), someone) : Promise.resolve(undefined);
}

const fullyBooked = (placement: Placement) => (placement.eventId ? ApiError.invalid("event_id", EVENT_FULL) : ApiError.invalid("booked_from", FULLY_BOOKED));

/**
 * Writes the draft: the guarded insert on each candidate in turn, with a new person in the same
 * transaction (guarded-write.ts, `runCreate`: the person goes in only when the booking does, so a
 * refused booking leaves no person behind and the person's insert costs no round trip of its own).
 * `extra` columns (a recurring occurrence's collection_id) go into the same insert. With `reads`,
 * the booking and its related rows are read in that transaction too. Candidates this isolate saw
 * refused under the version the references read are still full (refusal-memo.ts) and are not
 * tried; when none is left the refusal comes before anything is written. A matched person's fill
 * is the caller's (`insertDraft` after the write, `insertDraftAndRead` as `after` in its batch).
 */
async function writeDraft(deps: Deps, draft: BookingDraft, extra: BookingColumns, reads?: SqlStatement[], after?: SqlStatement): Promise<CreateResult> {
  const { placement, plan, ignoreCapacity, conversion } = draft;
  const occupied = occupiedSpan(placement.from, placement.to, placement.buffers);
  const slotOf = ({ scope }: Candidate): MemoSlot => ({
    shard: deps.account.shard,
    accountId: deps.account.id,
    scope,
    window: { from: occupied.from, to: occupied.to, count: draft.count, now: deps.now, excludeHoldId: conversion?.holdId },
  });
  // A converted hold's seats are the booking's: only its candidate, and never refused from memory
  // (the memo saw the slot full of this very hold).
  const candidates = conversion
    ? [conversion.candidate]
    : ignoreCapacity
      ? placement.candidates
      : placement.candidates.filter((c) => !knownFull(slotOf(c), placement.version));
  if (candidates.length === 0) throw fullyBooked(placement);
  const person = newPersonColumns(deps, plan);
  for (const candidate of candidates) {
    const booking = { ...draft.values(candidate.resource.id, plan.kind === "existing" ? plan.person.id : null), ...extra };
    let written: CreateResult | null;
    try {
      written = await runCreate(deps, {
        booking,
        person,
        slot: ignoreCapacity && !conversion ? undefined : slotOf(candidate),
        reads,
        after,
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
 * (no round trip after it). A matched person's empty attributes are filled in that transaction too,
 * right after the insert and only when it went in (`personFillAfterWrite`: an identifier another
 * request took meanwhile leaves the attribute empty, the booking made), so the answer shows them.
 */
export async function insertDraftAndRead(deps: Deps, draft: BookingDraft, extra: BookingColumns = {}): Promise<Booking> {
  const { id, reads } = await writeDraft(deps, draft, extra, insertedBookingReads(deps), personFillAfterWrite(deps, draft.plan));
  return bookingFromReads(id, reads) ?? getBookingWithRelated(deps, id);
}

export async function createBooking(deps: Deps, body: CreateBookingBody): Promise<Written<Booking>> {
  const draft = await draftBooking(deps, body);
  const row = await insertDraftAndRead(deps, draft);
  // The payment stage's second half: a booking that waits for its payment gets its checkout.
  if (!draft.payment) return { row, changed: true };
  return { row: await openCheckout(deps, row, integratorReturnPages(deps, body.checkout)), changed: true };
}
