// A booking's payment brought in line with what the provider knows (docs/decisions/payments.md,
// "One source of truth"). Whatever told us (an event, the sweep's question, the answer to an expire
// or a refund), the facts are recorded first and this derives the rest from all of them together:
//  1. a payment the booking has not taken yet takes its seat through the capacity guard (or, where
//     the booking ended or its seat is gone, is owed back in full);
//  2. whatever is owed back (the refund policy's target, any second payment) is refunded, with an
//     idempotency key that names what was already refunded, so a repeat never refunds twice;
//  3. the booking's payment shows the ledger, written only over a derivation from fewer facts;
//  4. the change is announced as every booking change is.
import { nationalIdKeys } from "../../config";
import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { bookings, events, resources, type Booking } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import { followBookmark } from "../../db/request-scope";
import { ledgerOf, moneyStatus, ownPayment, refundDue, type Ledger, type LedgerFact, type PaymentTaken } from "../../domain/payment-ledger";
import type { Deps } from "../../env";
import { fitsCondition, type CapacityScope } from "../bookings/capacity-sql";
import { bookingOfAccount, getBookingWithRelated, loadRelated } from "../bookings/queries";
import { toBookingJson, type Related } from "../bookings/serializer";
import { enqueueBookingMessages } from "../messages/booking-messages";
import { emitEvent, performedByOf, type WebhookEventName } from "../webhooks/emit";
import type { BookingPayment, PaymentStatus } from "./booking-payment";
import { answeredCheckout, answeredRefund, factsOfBooking, factWrites, recordFact, type NewFact, type PaymentFact } from "./facts";
import { enqueuePaymentMessage } from "./messages";
import { setPaymentSql } from "./payment-sql";
import { paymentProvider } from "./provider-of";
import type { CheckoutState } from "./provider";

/** How long the sweep waits before it asks the provider again about money not settled. */
export const RECONCILE_AGAIN_MS = 60_000;

/** The scope whose guard a booking's seat belongs to (its event's, or its resource's). */
async function scopeOf(deps: Deps, booking: Booking): Promise<CapacityScope | null> {
  if (booking.event_id !== null) {
    const event = await deps.db.query.events.findFirst({ where: and(eq(events.id, booking.event_id), eq(events.account_id, deps.account.id)) });
    return event ? { kind: "event", id: event.id, capacity: event.capacity } : null;
  }
  const resource = await deps.db.query.resources.findFirst({ where: and(eq(resources.id, booking.resource_id), eq(resources.account_id, deps.account.id)) });
  return resource ? { kind: "resource", id: resource.id, capacity: resource.capacity } : null;
}

/** Payment statuses from which a payment confirms the booking: waiting, or lapsed by the sweep (not paid in time). */
const CONFIRMABLE: readonly PaymentStatus[] = ["pending", "expired"];

const paidFields = (deps: Deps, payment: PaymentTaken) =>
  setPaymentSql({
    status: "paid",
    paid_at: deps.now,
    payment_intent_id: payment.paymentIntentId,
    checkout_url: null,
    reconcile_at: null,
    ...(payment.sessionId ? { checkout_session_id: payment.sessionId } : {}),
  });

/**
 * The booking confirmed by its payment, in one guarded statement: while its window lasts it holds
 * its seat already; after it (a late payment, the booking lapsed or swept to cancelled) only if its
 * seat still fits. A booking its visitor or the shop ended is never revived; a payment already
 * taken is never taken twice (`paid_at`).
 */
function confirmStatement(deps: Deps, booking: Booking, payment: PaymentTaken, scope: CapacityScope) {
  const next = deps.account.confirm_manually ? "awaiting_confirmation" : "confirmed";
  const fits = fitsCondition(scope, {
    from: booking.occupied_from ?? booking.booked_from,
    to: booking.occupied_to ?? booking.booked_to,
    count: booking.count,
    now: deps.now,
    excludeBookingId: booking.id,
  });
  const paid = paidFields(deps, payment);
  return {
    sql: `UPDATE bookings SET state = ?, active = 1, expires_at = NULL, paid_at = ?, payment = ${paid.sql}, updated_at = ?
          WHERE id = ? AND account_id = ? AND json_extract(payment, '$.paid_at') IS NULL
            AND json_extract(payment, '$.status') IN (${CONFIRMABLE.map(() => "?").join(", ")})
            AND ((state = 'awaiting_payment' AND expires_at > ?)
              OR ((state = 'awaiting_payment' OR (state = 'cancelled' AND json_extract(payment, '$.status') = 'expired')) AND ${fits.sql}))
          RETURNING id`,
    params: [next, deps.now, ...paid.params, deps.now, booking.id, deps.account.id, ...CONFIRMABLE, deps.now, ...fits.params],
  };
}

/**
 * The payment recorded on a booking that keeps no seat by it: one the shop confirmed by hand keeps
 * its state; one still waiting ends as cancelled; either way, unless the shop confirmed it, it is
 * owed back in full. False when another delivery recorded it first.
 */
async function recordWithoutSeat(deps: Deps, booking: Booking, payment: PaymentTaken, why: string): Promise<boolean> {
  const keepsSeat = booking.state === "confirmed" || booking.state === "awaiting_confirmation";
  const paid = paidFields(deps, payment);
  const owed = keepsSeat ? "" : `, '$.refund_target', ?, '$.refund_reason', ?`;
  const row = await accountD1(deps)
    .prepare(
      `UPDATE bookings SET payment = json_set(${paid.sql}${owed}), updated_at = ?,
            active = CASE WHEN state = 'awaiting_payment' THEN 0 ELSE active END,
            state = CASE WHEN state = 'awaiting_payment' THEN 'cancelled' ELSE state END
      WHERE id = ? AND account_id = ? AND json_extract(payment, '$.paid_at') IS NULL RETURNING id`,
    )
    .bind(...paid.params, ...(keepsSeat ? [] : [payment.amount, why]), deps.now, booking.id, deps.account.id)
    .first<{ id: number }>();
  return row !== null;
}

type Taken = "confirmed" | "kept" | "owed" | "already" | "refused";

/**
 * Step 1: the booking takes the payment the ledger shows it has not taken yet. With `onlyWithSeat`
 * (a payment the integrator records), nothing is written when the booking cannot take it.
 */
export async function takePayment(deps: Deps, booking: Booking, payment: PaymentTaken, opts: { onlyWithSeat?: boolean } = {}): Promise<Taken> {
  if (booking.state === "confirmed" || booking.state === "awaiting_confirmation") {
    // The shop confirmed it by hand before the payment came: the payment is kept, the state stays.
    return (await recordWithoutSeat(deps, booking, payment, "")) ? "kept" : "already";
  }
  const scope = await scopeOf(deps, booking);
  if (scope) {
    const result = await deps.capacityGuard.apply(scope, { statements: [confirmStatement(deps, booking, payment, scope)] });
    followBookmark(result.shard, result.bookmark);
    if (result.applied) return "confirmed";
  }
  if (opts.onlyWithSeat) return "refused";
  const why =
    booking.state === "awaiting_payment" || booking.payment?.status === "expired"
      ? "the time was no longer free when the payment arrived"
      : "the booking had ended when the payment arrived";
  return (await recordWithoutSeat(deps, booking, payment, why)) ? "owed" : "already";
}

/** A payment recorded before facts were kept (a booking paid under the earlier model) reads as the facts it implies. */
function impliedFacts(payment: BookingPayment): LedgerFact[] {
  if (payment.paid_at === null) return [];
  const pi = payment.payment_intent_id;
  const paid: LedgerFact = {
    id: 0,
    kind: pi ? "checkout" : "external",
    object_id: payment.checkout_session_id ?? `external`,
    payment_intent_id: pi,
    status: "complete",
    paid: true,
    amount: payment.amount,
    observed_at: payment.paid_at,
  };
  const refunded: LedgerFact[] =
    pi && payment.amount_refunded > 0
      ? [
          {
            id: 0,
            kind: "charge",
            object_id: `implied:${pi}`,
            payment_intent_id: pi,
            status: "refunded",
            paid: false,
            amount: payment.amount_refunded,
            observed_at: payment.paid_at,
          },
        ]
      : [];
  return [paid, ...refunded];
}

/** The booking's facts, with those its payment implies when it was paid before facts were kept (none of its own shows the payment). */
function ledgerFrom(booking: Booking, facts: PaymentFact[]): Ledger {
  const legacy = !facts.some((fact) => fact.paid);
  return ledgerOf([...(legacy ? impliedFacts(booking.payment!) : []), ...facts]);
}

/** The booking and its facts, in one batch after the writes that record `record` (a new fact) and `more` (the caller's). */
async function readWithFacts(deps: Deps, bookingId: number, record?: NewFact, more: BatchItem<"sqlite">[] = []) {
  const writes: BatchItem<"sqlite">[] = [...(record ? factWrites(deps, bookingId, record) : []), ...more];
  const reads = [deps.db.select().from(bookings).where(bookingOfAccount(deps, bookingId)).limit(1), factsOfBooking(deps, bookingId)] as const;
  const results =
    writes.length > 0
      ? (await deps.db.batch([...writes, ...reads] as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])).slice(writes.length)
      : await deps.db.batch(reads);
  const [rows, facts] = results as [Booking[], PaymentFact[]];
  return { booking: rows[0], facts };
}

const refundKey = (deps: Deps, bookingId: number, payment: PaymentTaken) =>
  // What was refunded and what failed before are part of the key: the same owed refund asked twice is
  // one refund; a new one (more owed after a partial refund, or after a failed one) is a new request.
  `booking-refund:${deps.account.id}:${bookingId}:${payment.paymentIntentId}:${payment.refunded}:${payment.failedRefunds}`;

/** What is still owed back of each payment the provider can refund (a payment recorded outside it is the integrator's). */
function owedBack(ledger: Ledger, payment: BookingPayment) {
  const own = ownPayment(ledger, payment.payment_intent_id);
  return ledger.payments
    .filter((taken) => taken.paymentIntentId !== null)
    .map((taken) => ({ taken, own, due: refundDue(taken, own, payment.refund_target ?? 0) }))
    .filter(({ due }) => due > 0);
}

/** Step 2: what is owed back, refunded. False when the provider could not be asked (the sweep asks again). */
async function refundOwed(deps: Deps, booking: Booking, ledger: Ledger): Promise<boolean> {
  const payment = booking.payment!;
  let reached = true;
  for (const { taken, own, due } of owedBack(ledger, payment)) {
    if (!taken.paymentIntentId || !deps.account.stripe_account_id) continue;
    const reason = taken === own ? (payment.refund_reason ?? "") : "paid twice";
    try {
      const provider = await paymentProvider(deps.env);
      const refund = await provider.refund(deps.account.stripe_account_id, taken.paymentIntentId, due, refundKey(deps, booking.id, taken));
      const fresh = await recordFact(deps, booking.id, answeredRefund(refund, deps.now));
      if (fresh && refund.status !== "failed" && refund.status !== "canceled") {
        await enqueuePaymentMessage(deps, booking.id, "refund", { refunded: refund.amount, reason });
      }
    } catch (error) {
      reached = false;
      console.error(JSON.stringify({ payment_refund: "failed", account_id: deps.account.id, booking_id: booking.id, error: String(error) }));
    }
  }
  return reached;
}

/** What the booking's payment shows, derived from its ledger and its own state. */
function projection(deps: Deps, booking: Booking, ledger: Ledger, reached: boolean): Partial<BookingPayment> {
  const payment = booking.payment!;
  const own = ownPayment(ledger, payment.payment_intent_id);
  const due = owedBack(ledger, payment).reduce((sum, owed) => sum + owed.due, 0);
  const session = payment.checkout_session_id ? ledger.sessions.get(payment.checkout_session_id) : undefined;
  // An unpaid booking that ended is settled only once its checkout is known to be over at the provider.
  const unpaidEnding =
    !own && booking.state !== "awaiting_payment" && payment.checkout_session_id !== null && session?.status !== "expired" && session?.status !== "failed";
  const fields: Partial<BookingPayment> = {
    refund_due: due > 0 ? due : null,
    reconcile_at: unpaidEnding || (due > 0 && !reached) ? (payment.reconcile_at ?? deps.now + RECONCILE_AGAIN_MS) : null,
    facts_seen: ledger.seen,
  };
  if (own) {
    Object.assign(fields, {
      status: moneyStatus(own),
      amount_refunded: own.refunded,
      payment_intent_id: own.paymentIntentId,
      refund_id: own.lastRefundId ?? payment.refund_id,
    });
  } else if (ledger.failed && payment.status === "pending") {
    fields.status = "failed";
  }
  return fields;
}

const differs = (payment: BookingPayment, fields: Partial<BookingPayment>) =>
  Object.entries(fields).some(([name, value]) => (payment[name as keyof BookingPayment] ?? null) !== (value ?? null));

/** Step 3: the projection, to be written unless a derivation from more facts is already there. */
function projectionWrite(deps: Deps, bookingId: number, fields: Partial<BookingPayment>) {
  const changes = Object.entries(fields).map(([name, value]) => sql`${`$.${name}`}, ${value ?? null}`);
  return deps.db
    .update(bookings)
    .set({ payment: sql`json_set(${bookings.payment}, ${sql.join(changes, sql`, `)})`, updated_at: deps.now })
    .where(
      and(
        bookingOfAccount(deps, bookingId),
        sql`${bookings.payment} IS NOT NULL`,
        sql`COALESCE(json_extract(${bookings.payment}, '$.facts_seen'), 0) <= ${fields.facts_seen ?? 0}`,
      ),
    );
}

/** The booking's event for a change of its money, with its payment as it is now. */
async function announce(deps: Deps, event: WebhookEventName, booking: Booking, preloaded?: Related): Promise<void> {
  const related = preloaded ?? (await loadRelated(deps, [booking]));
  const json = toBookingJson(booking, related, { timeZone: deps.account.time_zone, now: deps.now, extended: false, keys: nationalIdKeys(deps.env) });
  await emitEvent(deps.env, deps.account, event, { kind: "booking", id: booking.id, json }, performedByOf("system"), deps.now);
}

export type Settled = "confirmed" | "refunded" | "kept" | "already";

/**
 * Brings booking `bookingId`'s payment in line with its facts, after recording `record` (what the
 * provider just told) and the caller's `also` in the same batch as the first read. With `announce: false` the caller
 * announces the booking itself (a cancel, decline or delete whose own event carries the refund).
 */
export async function settlePayment(deps: Deps, bookingId: number, opts: { record?: NewFact; also?: BatchItem<"sqlite">[]; announce?: boolean } = {}): Promise<Settled> {
  let { booking, facts } = await readWithFacts(deps, bookingId, opts.record, opts.also);
  if (!booking?.payment) return "already";
  const before = booking;
  let ledger = ledgerFrom(booking, facts);
  const own = ownPayment(ledger, booking.payment.payment_intent_id);
  let taken: Taken = "already";
  if (own && booking.payment.paid_at === null) {
    taken = await takePayment(deps, booking, own);
    if (taken === "confirmed") {
      // A payment that confirms is announced as a verification's confirmation is: booking.modified
      // and the confirmation message (as bookings/effects.ts would, which calls back into payments).
      const row = await getBookingWithRelated(deps, booking.id);
      const related = await loadRelated(deps, [row]);
      await announce(deps, "booking.modified", row, related);
      await enqueueBookingMessages(deps, "paid", row, related);
      booking = row;
    } else {
      ({ booking, facts } = await readWithFacts(deps, bookingId));
      if (!booking?.payment) return "already";
    }
  }
  const owes = owedBack(ledger, booking.payment!).length > 0;
  let reached = true;
  if (owes) {
    reached = await refundOwed(deps, booking, ledger);
    ({ booking, facts } = await readWithFacts(deps, bookingId));
    if (!booking?.payment) return "already";
  }
  ledger = ledgerFrom(booking, facts);
  const fields = projection(deps, booking, ledger, reached);
  const changed = differs(booking.payment!, fields);
  if (opts.announce !== false && taken !== "confirmed" && (changed || taken !== "already")) {
    // The projection written in the same batch as the read the announcement needs.
    const now = await getBookingWithRelated(deps, bookingId, changed ? projectionWrite(deps, bookingId, fields) : undefined);
    const event: WebhookEventName = before.state === "awaiting_payment" && now.state === "cancelled" ? "booking.cancelled" : "booking.modified";
    await announce(deps, event, now);
  } else if (changed) {
    await projectionWrite(deps, bookingId, fields);
  }
  if (taken === "confirmed") return "confirmed";
  if (taken === "kept") return "kept";
  return owes || taken === "owed" ? "refunded" : "already";
}

/** A checkout the provider answered (a read, an expire), recorded as a fact of the booking, then settled. */
export function observeCheckout(deps: Deps, bookingId: number, checkout: CheckoutState, opts: { announce?: boolean } = {}): Promise<Settled> {
  return settlePayment(deps, bookingId, { ...opts, record: answeredCheckout(checkout, deps.now) });
}

/** Exactly the partial index's condition (drizzle/0023), so the sweep reads that index. */
export const reconcileDueSql = sql`json_extract(payment, '$.reconcile_at') IS NOT NULL`;
