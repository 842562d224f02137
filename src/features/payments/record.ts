// A payment taken outside the provider (cash at the desk, a terminal, the integrator's own
// checkout), recorded by the integrator on the private API (docs/decisions/payments.md): the
// amount is the booking's own, never the client's; a booking still waiting for its payment is
// confirmed through its guard, as a paid checkout would confirm it, and its checkout is ended.
import type { Booking } from "../../db/schema";
import { effectiveState } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { getBookingWithRelated } from "../bookings/queries";
import { afterBookingChange } from "../bookings/effects";
import { endCheckout } from "./after-change";
import { recordFact } from "./facts";
import { setPaymentSql } from "./payment-sql";
import { takePayment } from "./settle";
import { accountD1 } from "../../db/shards";

export async function recordPayment(deps: Deps, id: number, reference: string): Promise<Booking> {
  const booking = await getBookingWithRelated(deps, id);
  const payment = booking.payment;
  if (!payment) throw ApiError.invalid("payment", "is not asked of this booking: its service takes no payment online");
  if (payment.paid_at !== null || (payment.status !== "pending" && payment.status !== "expired")) {
    throw ApiError.invalid("payment", `is ${payment.status}: nothing is left to pay`);
  }
  const external = {
    key: "external", paymentIntentId: null, sessionId: null, amount: payment.amount, refunded: 0, failedRefunds: 0, lastRefundId: null, firstSeen: 0, paidAt: deps.now,
  };
  const taken = await takePayment(deps, booking, external, { onlyWithSeat: true });
  if (taken === "refused") throw ApiError.invalid("payment", `can't be recorded: the booking is ${effectiveState(booking, deps.now)} and its time is no longer free`);
  await recordFact(deps, id, { source: `external:${id}`, kind: "external", objectId: `external:${id}`, paymentIntentId: null, status: "complete", paid: true, amount: payment.amount, currency: payment.currency, observedAt: deps.now });
  const set = setPaymentSql({ reference, checkout_session_id: payment.checkout_session_id });
  await accountD1(deps).prepare(`UPDATE bookings SET payment = json_set(${set.sql}, '$.kind', 'external') WHERE id = ? AND account_id = ?`)
    .bind(...set.params, id, deps.account.id).run();
  if (taken === "confirmed") await afterBookingChange(deps, "paid", await getBookingWithRelated(deps, id));
  // The checkout can no longer be paid as well; a payment made there meanwhile is a second one, given back.
  await endCheckout(deps, booking);
  return getBookingWithRelated(deps, id);
}
