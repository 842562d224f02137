// Refunds (docs/decisions/payments.md): by the account's policy when a paid booking is cancelled,
// in full when the shop declines or deletes it, and in full at once when a payment cannot have the
// seat it paid for. Through the provider with one idempotency key per payment, so a repeat (a
// duplicate event, a retry by the sweep) never refunds twice; the refund's own events update it.
import { sql } from "drizzle-orm";
import type { Booking } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import type { BookingChange } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { enqueuePaymentMessage } from "./messages";
import { writePaymentStatement, type setPaymentSql } from "./payment-sql";
import { paymentProvider } from "./provider-of";

const HOUR_MS = 3_600_000;

/** What a change of a paid booking gives back, in minor units: by the policy for a cancel, everything for the shop's decline or delete. */
export function refundOwed(deps: Pick<Deps, "account" | "now">, booking: Booking, change: BookingChange): number {
  const payment = booking.payment;
  if (!payment || payment.status !== "paid" || payment.payment_intent_id === null) return 0;
  const remaining = payment.amount - payment.amount_refunded;
  if (change === "declined" || change === "deleted") return remaining;
  if (change !== "cancelled") return 0;
  const hours = deps.account.refund_until_hours;
  if (hours === null) return remaining;
  return deps.now <= booking.booked_from - hours * HOUR_MS ? remaining : 0;
}

const refundKey = (deps: Deps, booking: Booking, paymentIntentId: string) => `booking-refund:${deps.account.id}:${booking.id}:${paymentIntentId}`;

/** Writes what the provider answered (or that the refund is still owed) on the booking's payment. */
async function recordRefund(deps: Deps, booking: Booking, fields: Parameters<typeof setPaymentSql>[0]): Promise<void> {
  const write = writePaymentStatement({ id: booking.id, accountId: deps.account.id }, fields, deps.now);
  await accountD1(deps).prepare(write.sql).bind(...write.params).run();
}

/**
 * Gives `amount` of the booking's payment back. With `record`, the booking's payment shows it
 * (refunded, or the refund still owed when the provider cannot be reached: the sweep asks again);
 * without (a second payment of one booking), only the provider knows. The person is told either way.
 */
export async function refundInFull(
  deps: Deps, booking: Booking, refund: { paymentIntentId: string | null; amount: number; reason: string; record: boolean },
): Promise<void> {
  const payment = booking.payment!;
  if (!refund.paymentIntentId || refund.amount <= 0) return;
  try {
    const provider = await paymentProvider(deps.env);
    const done = await provider.refund(deps.account.stripe_account_id!, refund.paymentIntentId, refund.amount, refundKey(deps, booking, refund.paymentIntentId));
    if (refund.record) {
      const refunded = payment.amount_refunded + (done.status === "failed" || done.status === "canceled" ? 0 : done.amount);
      await recordRefund(deps, booking, {
        refund_id: done.refundId, amount_refunded: refunded, refund_due: null, refund_reason: refund.reason,
        status: done.status === "failed" || done.status === "canceled" ? "paid" : refunded >= payment.amount ? "refunded" : "partially_refunded",
      });
    }
    await enqueuePaymentMessage(deps, booking.id, "refund", { refunded: done.amount, reason: refund.reason });
  } catch (error) {
    console.error(JSON.stringify({ payment_refund: "failed", account_id: deps.account.id, booking_id: booking.id, error: String(error) }));
    if (refund.record) await recordRefund(deps, booking, { refund_due: refund.amount, refund_reason: refund.reason });
  }
}

/** After a paid booking is cancelled, declined or deleted: its refund by the policy, if it owes one. */
export async function refundAfterChange(deps: Deps, booking: Booking, change: BookingChange): Promise<void> {
  const owed = refundOwed(deps, booking, change);
  if (owed <= 0) return;
  const reason = change === "cancelled" ? "the booking was cancelled" : change === "declined" ? "the booking was declined" : "the booking was removed";
  await refundInFull(deps, booking, { paymentIntentId: booking.payment!.payment_intent_id, amount: owed, reason, record: true });
}

/** Refunds owed but not yet taken by the provider, asked again (the sweep). */
export async function retryOwedRefund(deps: Deps, booking: Booking): Promise<void> {
  const payment = booking.payment;
  if (!payment?.refund_due) return;
  await refundInFull(deps, booking, { paymentIntentId: payment.payment_intent_id, amount: payment.refund_due, reason: payment.refund_reason ?? "", record: true });
}

/** Exactly the partial index's condition (drizzle/0020), so the sweep reads that index. */
export const owedRefundsSql = sql`json_extract(payment, '$.refund_due') IS NOT NULL`;
