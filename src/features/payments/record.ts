// A payment taken outside the provider (cash at the desk, a terminal, the integrator's own
// checkout), recorded by the integrator on the private API (docs/decisions/payments.md): the
// amount is the booking's own, never the client's; a booking still waiting for its payment is
// confirmed through its guard, as a paid checkout would confirm it, and its checkout is ended.
import { sql } from "drizzle-orm";
import { bookings, type Booking } from "../../db/schema";
import { effectiveState } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { bookingOfAccount, getBookingWithRelated } from "../bookings/queries";
import { afterBookingChange } from "../bookings/effects";
import { endCheckout } from "./after-change";
import { factWrites } from "./facts";
import { takePayment } from "./settle";

export async function recordPayment(deps: Deps, id: number, reference: string): Promise<Booking> {
  const booking = await getBookingWithRelated(deps, id);
  const payment = booking.payment;
  if (!payment) throw ApiError.invalid("payment", "is not asked of this booking: its service takes no payment online");
  if (payment.paid_at !== null || (payment.status !== "pending" && payment.status !== "expired")) {
    throw ApiError.invalid("payment", `is ${payment.status}: nothing is left to pay`);
  }
  const external = {
    key: "external",
    paymentIntentId: null,
    sessionId: null,
    amount: payment.amount,
    refunded: 0,
    failedRefunds: 0,
    lastRefundId: null,
    firstSeen: 0,
    paidAt: deps.now,
  };
  const taken = await takePayment(deps, booking, external, { onlyWithSeat: true });
  if (taken === "refused") throw ApiError.invalid("payment", `can't be recorded: the booking is ${effectiveState(booking, deps.now)} and its time is no longer free`);
  const recorded = factWrites(deps, id, {
    source: `external:${id}`,
    kind: "external",
    objectId: `external:${id}`,
    paymentIntentId: null,
    status: "complete",
    paid: true,
    amount: payment.amount,
    currency: payment.currency,
    observedAt: deps.now,
  });
  const marked = deps.db
    .update(bookings)
    .set({ payment: sql`json_set(${bookings.payment}, '$.kind', 'external', '$.reference', ${reference})` })
    .where(bookingOfAccount(deps, id));
  const row = await getBookingWithRelated(deps, id, [...recorded, marked]);
  if (taken === "confirmed") await afterBookingChange(deps, "paid", row);
  // The checkout can no longer be paid as well; a payment made there meanwhile is a second one, given back.
  await endCheckout(deps, booking, { announce: false });
  return getBookingWithRelated(deps, id);
}
