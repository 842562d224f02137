// What a change of a booking that pays does to its payment (docs/decisions/payments.md): a paid
// booking cancelled, declined or deleted owes back what the refund policy decides; an unpaid one
// ended by its visitor or the shop has its checkout ended at the provider, so it can no longer be
// paid, and whatever the provider answers (paid after all, an event lost) is settled at once.
import type { Booking } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import type { BookingChange } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { getBookingWithRelated } from "../bookings/queries";
import { updatePaymentStatement } from "./payment-sql";
import { paymentProvider } from "./provider-of";
import { refundReason, refundTarget } from "./refunds";
import { observeCheckout, settlePayment } from "./settle";

const ENDS = new Set<BookingChange>(["cancelled", "declined", "deleted"]);

/**
 * Answers the booking as it is afterwards (refunded, its checkout ended), with its related rows.
 * The caller announces the change, with the payment as it is then.
 */
export async function paymentAfterChange(deps: Deps, change: BookingChange, booking: Booking): Promise<Booking> {
  const payment = booking.payment;
  if (!ENDS.has(change) || !payment) return booking;
  if (payment.paid_at !== null) await owePerPolicy(deps, booking, change);
  else if (payment.status === "pending") await cancelCheckout(deps, booking);
  else return booking;
  return getBookingWithRelated(deps, booking.id).catch(() => booking);
}

/** The policy's refund target, never lowered (a late cancel, then the shop's delete, owes everything). */
async function owePerPolicy(deps: Deps, booking: Booking, change: BookingChange): Promise<void> {
  const target = refundTarget(deps, booking, change);
  if (target > 0) {
    await accountD1(deps)
      .prepare(
        `UPDATE bookings SET payment = json_set(payment, '$.refund_target', MAX(COALESCE(json_extract(payment, '$.refund_target'), 0), ?), '$.refund_reason', ?)
        WHERE id = ? AND account_id = ? AND payment IS NOT NULL`,
      )
      .bind(target, refundReason(change), booking.id, deps.account.id)
      .run();
  }
  await settlePayment(deps, booking.id, { announce: false });
}

async function cancelCheckout(deps: Deps, booking: Booking): Promise<void> {
  // Marked first, so a payment landing meanwhile finds the booking ended and is refunded (settle.ts).
  const canceled = updatePaymentStatement({ id: booking.id, accountId: deps.account.id, from: ["pending"] }, { status: "canceled", checkout_url: null }, deps.now);
  await accountD1(deps)
    .prepare(canceled.sql)
    .bind(...canceled.params)
    .run();
  await endCheckout(deps, booking, { announce: false });
}

/**
 * Ends the booking's checkout at the provider, so it can no longer be paid, and settles what the
 * provider answered: a session paid meanwhile (its event late or lost) is owed back or takes its
 * seat. When the provider cannot be reached, the sweep asks again (the payment's reconcile_at).
 */
export async function endCheckout(deps: Deps, booking: Booking, opts: { announce?: boolean } = {}): Promise<void> {
  const session = booking.payment?.checkout_session_id;
  if (!session || !deps.account.stripe_account_id) return;
  try {
    const provider = await paymentProvider(deps.env);
    const answered = await provider.expireCheckout(deps.account.stripe_account_id, session);
    await observeCheckout(deps, booking.id, answered, opts);
  } catch (error) {
    console.error(JSON.stringify({ payment_expire: "failed", account_id: deps.account.id, booking_id: booking.id, error: String(error) }));
    await settlePayment(deps, booking.id, opts);
  }
}
