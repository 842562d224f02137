// The refund policy (docs/decisions/payments.md): what a change of a paid booking decides to give
// back of its payment. A cancel at least `refund_until_hours` before the start is refunded in full, a
// later one not at all; the shop's decline or delete always in full, whatever was refunded before.
// The refund itself is settle.ts's: it gives back what the decision owes beyond what came back already.
import { sql } from "drizzle-orm";
import type { Booking } from "../../db/schema";
import type { BookingChange } from "../../domain/booking-states";
import type { Deps } from "../../env";

const HOUR_MS = 3_600_000;

/** How much of the booking's own payment the change decides to give back in all, in minor units (0: nothing). */
export function refundTarget(deps: Pick<Deps, "account" | "now">, booking: Booking, change: BookingChange): number {
  const payment = booking.payment;
  if (!payment || payment.paid_at === null || payment.payment_intent_id === null) return 0;
  if (change === "declined" || change === "deleted") return payment.amount;
  if (change !== "cancelled") return 0;
  const hours = deps.account.refund_until_hours;
  if (hours === null) return payment.amount;
  return deps.now <= booking.booked_from - hours * HOUR_MS ? payment.amount : 0;
}

export const refundReason = (change: BookingChange) =>
  change === "cancelled" ? "the booking was cancelled" : change === "declined" ? "the booking was declined" : "the booking was removed";

/** Exactly the partial index's condition (drizzle/0020), so the sweep reads that index. */
export const owedRefundsSql = sql`json_extract(payment, '$.refund_due') IS NOT NULL`;
