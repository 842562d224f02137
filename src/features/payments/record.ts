// A payment taken outside the provider (cash at the desk, a terminal, the integrator's own
// checkout), recorded by the integrator on the private API (docs/decisions/payments.md): the
// amount is the booking's own, never the client's; a booking still waiting for its payment is
// confirmed through its guard, as a paid checkout would confirm it, and its checkout is ended.
import type { Booking } from "../../db/schema";
import { effectiveState } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { getBookingWithRelated } from "../bookings/queries";
import { endCheckout } from "./after-change";
import { setPaymentSql } from "./payment-sql";
import { settlePaid } from "./settle";
import { accountD1 } from "../../db/shards";

export async function recordPayment(deps: Deps, id: number, reference: string): Promise<Booking> {
  const booking = await getBookingWithRelated(deps, id);
  const payment = booking.payment;
  if (!payment) throw ApiError.invalid("payment", "is not asked of this booking: its service takes no payment online");
  if (payment.status !== "pending" && payment.status !== "expired") throw ApiError.invalid("payment", `is ${payment.status}: nothing is left to pay`);
  const session = payment.checkout_session_id;
  const settled = await settlePaid(deps, id, {
    sessionId: session ?? "", url: null, status: "complete", paid: true, paymentIntentId: null,
    amount: payment.amount, currency: payment.currency, reference: String(id),
  });
  if (settled !== "confirmed") throw ApiError.invalid("payment", `can't be recorded: the booking is ${effectiveState(booking, deps.now)} and its time is no longer free`);
  const set = setPaymentSql({ reference, checkout_session_id: session });
  await accountD1(deps).prepare(`UPDATE bookings SET payment = json_set(${set.sql}, '$.kind', 'external') WHERE id = ? AND account_id = ?`)
    .bind(...set.params, id, deps.account.id).run();
  // The checkout can no longer be paid as well.
  await endCheckout(deps, booking);
  return getBookingWithRelated(deps, id);
}
