// How a booking's payment reads to its visitor, on the page (rendered on the server) and in the
// widget (in the browser): "450.00 NOK · paid", "Refunded 450.00 NOK", "Pay 450.00 NOK".
// Written twice, in TypeScript and in the widget's plain script, side by side so they stay one rule.
import type { Words } from "./words";

/** The payment as the booking site answers it (payments/serializer.ts, publicPaymentOut). */
export interface VisitorPayment {
  amount: string;
  currency: string;
  status: string;
  amount_refunded: string;
}

/**
 * Amounts as the API writes them (a decimal point, the currency's code), in every language. A
 * payment still pending on a booking that no longer waits for it lapsed with its window: the
 * booking reads as cancelled at once, its payment only once the sweep records it as expired.
 */
export function paymentLine(payment: VisitorPayment, bookingState: string, w: Words): string {
  const refunded = `${w.refunded} ${payment.amount_refunded} ${payment.currency}`;
  if (payment.status === "refunded") return refunded;
  const status = payment.status === "pending" && bookingState !== "awaiting_payment" ? "expired" : payment.status;
  const line = `${payment.amount} ${payment.currency} · ${w.paymentStates[status] ?? status}`;
  return payment.status === "partially_refunded" ? `${line} · ${refunded}` : line;
}

export const payText = (payment: VisitorPayment, w: Words) => `${w.pay} ${payment.amount} ${payment.currency}`;

// The same two for the widget (its `W` is in scope); plain ES5-style script like the script it joins.
export const PAYMENT_JS = String.raw`
  function paymentLine(p, bookingState) {
    var refunded = W.refunded + " " + p.amount_refunded + " " + p.currency;
    if (p.status === "refunded") return refunded;
    var status = p.status === "pending" && bookingState !== "awaiting_payment" ? "expired" : p.status;
    var line = p.amount + " " + p.currency + " · " + (W.paymentStates[status] || status);
    return p.status === "partially_refunded" ? line + " · " + refunded : line;
  }
  function payText(p) { return W.pay + " " + p.amount + " " + p.currency; }
`;
