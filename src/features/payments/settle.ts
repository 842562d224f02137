// What a payment the provider reports does to its booking (docs/decisions/payments.md). Every step
// is a compare-and-swap on the payment's status, so a duplicate or concurrent event changes nothing
// twice; the confirm goes through the booking's capacity guard, so a late payment takes the seat
// only if nobody else has it.
import { and, eq } from "drizzle-orm";
import { events, resources, type Booking } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import { followBookmark } from "../../db/request-scope";
import type { Deps } from "../../env";
import { fitsCondition, type CapacityScope } from "../bookings/capacity-sql";
import { afterBookingChange } from "../bookings/effects";
import { bookingOfAccount, getBookingWithRelated } from "../bookings/queries";
import type { PaymentStatus } from "./booking-payment";
import { setPaymentSql } from "./payment-sql";
import type { CheckoutState } from "./provider";
import { refundInFull } from "./refunds";

/** The scope whose guard a booking's seat belongs to (its event's, or its resource's). */
async function scopeOf(deps: Deps, booking: Booking): Promise<CapacityScope | null> {
  if (booking.event_id !== null) {
    const event = await deps.db.query.events.findFirst({ where: and(eq(events.id, booking.event_id), eq(events.account_id, deps.account.id)) });
    return event ? { kind: "event", id: event.id, capacity: event.capacity } : null;
  }
  const resource = await deps.db.query.resources.findFirst({ where: and(eq(resources.id, booking.resource_id), eq(resources.account_id, deps.account.id)) });
  return resource ? { kind: "resource", id: resource.id, capacity: resource.capacity } : null;
}

/** Payment statuses from which a paid checkout confirms the booking: waiting, or lapsed by the sweep (not paid in time). */
const CONFIRMABLE: readonly PaymentStatus[] = ["pending", "expired"];

/**
 * The booking confirmed by its paid checkout, in one guarded statement: while its window lasts it
 * holds its seat already; after it (a late payment, the booking lapsed or swept to cancelled) only
 * if its seat still fits. A booking its visitor or the shop ended is never revived.
 */
function confirmStatement(deps: Deps, booking: Booking, checkout: CheckoutState, scope: CapacityScope) {
  const next = deps.account.confirm_manually ? "awaiting_confirmation" : "confirmed";
  const fits = fitsCondition(scope, { from: booking.occupied_from ?? booking.booked_from, to: booking.occupied_to ?? booking.booked_to, count: booking.count, now: deps.now, excludeBookingId: booking.id });
  const paid = setPaymentSql({ status: "paid", paid_at: deps.now, payment_intent_id: checkout.paymentIntentId, checkout_session_id: checkout.sessionId, checkout_url: null });
  return {
    sql: `UPDATE bookings SET state = ?, active = 1, expires_at = NULL, paid_at = ?, payment = ${paid.sql}, updated_at = ?
          WHERE id = ? AND account_id = ? AND json_extract(payment, '$.status') IN (${CONFIRMABLE.map(() => "?").join(", ")})
            AND ((state = 'awaiting_payment' AND expires_at > ?)
              OR ((state = 'awaiting_payment' OR (state = 'cancelled' AND json_extract(payment, '$.status') = 'expired')) AND ${fits.sql}))
          RETURNING id`,
    params: [next, deps.now, ...paid.params, deps.now, booking.id, deps.account.id, ...CONFIRMABLE, deps.now, ...fits.params],
  };
}

export type Settled = "confirmed" | "already" | "refunded";

/**
 * A checkout the provider says is paid, for booking `bookingId` of this account. Confirmed (or
 * awaiting_confirmation where the shop confirms by hand) with its message and `booking.modified`
 * webhook; or, when its seat is gone or the booking was ended meanwhile, the payment refunded in
 * full at once and the person told. A second payment for a paid booking is refunded too.
 */
export async function settlePaid(deps: Deps, bookingId: number, checkout: CheckoutState): Promise<Settled> {
  const booking = await deps.db.query.bookings.findFirst({ where: bookingOfAccount(deps, bookingId) });
  if (!booking?.payment) return "already";
  const payment = booking.payment;
  if (payment.status === "paid" || payment.status === "refunded" || payment.status === "partially_refunded") {
    if (payment.payment_intent_id === checkout.paymentIntentId) return "already";
    // Paid twice (two checkouts of one booking): the second payment goes back.
    await refundInFull(deps, booking, { paymentIntentId: checkout.paymentIntentId, amount: checkout.amount ?? payment.amount, reason: "paid twice", record: false });
    return "refunded";
  }
  if ((booking.state === "confirmed" || booking.state === "awaiting_confirmation") && payment.status === "pending") {
    // The shop confirmed it by hand before the payment came: the payment is kept, the state stays.
    const marked = await recordPaid(deps, booking, checkout);
    if (marked) await afterBookingChange(deps, "modified", marked, undefined, { messages: false });
    return "confirmed";
  }
  const scope = await scopeOf(deps, booking);
  if (scope) {
    const result = await deps.capacityGuard.apply(scope, { statements: [confirmStatement(deps, booking, checkout, scope)] });
    followBookmark(result.shard, result.bookmark);
    if (result.applied) {
      const row = await getBookingWithRelated(deps, booking.id);
      await afterBookingChange(deps, "paid", row);
      return "confirmed";
    }
  }
  // Not confirmable: record the payment (once), then give it back in full.
  const marked = await recordPaid(deps, booking, checkout);
  if (!marked) return "already";
  await refundInFull(deps, marked, { paymentIntentId: checkout.paymentIntentId, amount: marked.payment!.amount, reason: "the time was no longer free when the payment arrived", record: true });
  return "refunded";
}

/**
 * The payment recorded as paid on a booking that did not get its seat, which ends as cancelled if
 * it was still waiting (its window over): null when another delivery recorded it first.
 */
async function recordPaid(deps: Deps, booking: Booking, checkout: CheckoutState): Promise<Booking | null> {
  const paid = setPaymentSql({ status: "paid", paid_at: deps.now, payment_intent_id: checkout.paymentIntentId, checkout_session_id: checkout.sessionId, checkout_url: null });
  const row = await accountD1(deps).prepare(
    `UPDATE bookings SET payment = ${paid.sql}, updated_at = ?,
            active = CASE WHEN state = 'awaiting_payment' THEN 0 ELSE active END,
            state = CASE WHEN state = 'awaiting_payment' THEN 'cancelled' ELSE state END
      WHERE id = ? AND account_id = ? AND json_extract(payment, '$.status') IN ('pending', 'expired', 'canceled') RETURNING id`,
  ).bind(...paid.params, deps.now, booking.id, deps.account.id).first<{ id: number }>();
  if (!row) return null;
  return (await deps.db.query.bookings.findFirst({ where: bookingOfAccount(deps, booking.id) })) ?? null;
}
