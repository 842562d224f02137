// What a change of a booking that pays does to its payment (docs/decisions/payments.md): a paid
// booking cancelled, declined or deleted is refunded by the policy; an unpaid one ended by its
// visitor or the shop has its checkout ended at the provider, so it can no longer be paid.
import type { Booking } from "../../db/schema";
import type { BookingChange } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { updatePaymentStatement } from "./payment-sql";
import { paymentProvider } from "./provider-of";
import { refundAfterChange } from "./refunds";
import { accountD1 } from "../../db/shards";
import { getBookingWithRelated } from "../bookings/queries";

const ENDS = new Set<BookingChange>(["cancelled", "declined", "deleted"]);

/** Answers the booking as it is afterwards (refunded, its checkout ended), with its related rows. */
export async function paymentAfterChange(deps: Deps, change: BookingChange, booking: Booking): Promise<Booking> {
  if (!ENDS.has(change) || (booking.payment?.status !== "paid" && booking.payment?.status !== "pending")) return booking;
  if (booking.payment.status === "paid") await refundAfterChange(deps, booking, change);
  else await cancelCheckout(deps, booking);
  return getBookingWithRelated(deps, booking.id).catch(() => booking);
}

async function cancelCheckout(deps: Deps, booking: Booking): Promise<void> {
  // Marked first, so a payment landing meanwhile finds the booking ended and is refunded (settle.ts).
  const canceled = updatePaymentStatement({ id: booking.id, accountId: deps.account.id, from: ["pending"] }, { status: "canceled", checkout_url: null }, deps.now);
  await accountD1(deps).prepare(canceled.sql).bind(...canceled.params).run();
  await endCheckout(deps, booking);
}

/** Ends the booking's checkout at the provider, so it can no longer be paid. */
export async function endCheckout(deps: Deps, booking: Booking): Promise<void> {
  const session = booking.payment?.checkout_session_id;
  if (!session || !deps.account.stripe_account_id) return;
  try {
    const provider = await paymentProvider(deps.env);
    await provider.expireCheckout(deps.account.stripe_account_id, session);
  } catch (error) {
    // The sweep's reconciliation reads the session again: a payment made anyway is refunded then.
    console.error(JSON.stringify({ payment_expire: "failed", account_id: deps.account.id, booking_id: booking.id, error: String(error) }));
  }
}
