// A booking's payment as answered (docs/decisions/payments.md): amounts as decimals in the
// currency's digits; the private API sees the provider's references, the visitor only what is
// theirs (what it costs, where to pay while they may, what came back).
import { effectiveState } from "../../domain/booking-states";
import { fromMinorUnits } from "../../domain/money";
import { formatNullableInstant } from "../../domain/time";
import type { BookingPayment } from "./booking-payment";

interface Paying {
  state: string;
  expires_at: number | null;
  payment: BookingPayment | null;
}

/** The checkout page, only while paying it can still hold the seat. */
const payableUrl = (booking: Paying, now: number) =>
  booking.payment?.status === "pending" && effectiveState(booking, now) === "awaiting_payment" ? booking.payment.checkout_url : null;

/** Spread into a booking's JSON: nothing at all for a booking that pays nothing, so its answer is as it always was. */
export function paymentOut(booking: Paying, timeZone: string, now: number) {
  const payment = booking.payment;
  if (!payment) return {};
  return {
    payment: {
      provider: payment.provider,
      kind: payment.kind,
      amount: fromMinorUnits(payment.amount, payment.currency),
      currency: payment.currency,
      status: payment.status,
      amount_refunded: fromMinorUnits(payment.amount_refunded, payment.currency),
      checkout_url: payableUrl(booking, now),
      checkout_session_id: payment.checkout_session_id,
      payment_intent_id: payment.payment_intent_id,
      refund_id: payment.refund_id,
      reference: payment.reference,
      paid_at: formatNullableInstant(payment.paid_at, timeZone),
    },
  };
}

/** The visitor's view of their booking's payment. */
export function publicPaymentOut(booking: Paying, now: number) {
  const payment = booking.payment;
  if (!payment) return {};
  return {
    payment: {
      amount: fromMinorUnits(payment.amount, payment.currency),
      currency: payment.currency,
      status: payment.status,
      amount_refunded: fromMinorUnits(payment.amount_refunded, payment.currency),
      checkout_url: payableUrl(booking, now),
    },
  };
}
