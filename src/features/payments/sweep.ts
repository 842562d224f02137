// The payments sweep (docs/decisions/payments.md), every minute per shard, so nothing paid is
// ever lost and nothing unpaid blocks a seat for good. It asks the provider about every booking
// whose money is not settled, and settles what the provider answers (settle.ts):
//  1. bookings whose payment window ended: their checkout ended at the provider (a payment that
//     completed meanwhile takes the late-payment path), then the booking persisted as cancelled;
//  2. payments still pending a few minutes after their booking: their checkout read back (a lost
//     event delays a confirmation, never loses a payment), and the "complete your payment"
//     reminder sent once to whoever has really not paid;
//  3. bookings ended before their payment was known (cancelled, declined, deleted) whose checkout
//     the provider has not yet confirmed over: ended there, and a payment made anyway owed back;
//  4. refunds owed that the provider could not take before, or that it failed: asked again.
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { openDb } from "../../db/client";
import { bookings, type Booking } from "../../db/schema";
import { accountD1, shardD1 } from "../../db/shards";
import type { Deps, Env } from "../../env";
import { afterBookingChange } from "../bookings/effects";
import { byAccount } from "../system-deps";
import { answeredCheckout, recordFact } from "./facts";
import { RECONCILE_AFTER_MS, REMINDER_AFTER_MS } from "./limits";
import { enqueuePaymentMessage } from "./messages";
import { updatePaymentStatement } from "./payment-sql";
import { paymentProvider } from "./provider-of";
import type { CheckoutState } from "./provider";
import { owedRefundsSql } from "./refunds";
import { observeCheckout, reconcileDueSql, settlePayment } from "./settle";

const BATCH = 100;

/** What the provider says of the booking's checkout now; null when it cannot be asked. */
async function checkoutNow(deps: Deps, booking: Booking, end: boolean): Promise<CheckoutState | null> {
  const session = booking.payment?.checkout_session_id;
  if (!session || !deps.account.stripe_account_id) return null;
  try {
    const provider = await paymentProvider(deps.env);
    return end ? await provider.expireCheckout(deps.account.stripe_account_id, session) : await provider.readCheckout(deps.account.stripe_account_id, session);
  } catch (error) {
    console.error(JSON.stringify({ payment_sweep: end ? "expire failed" : "read failed", account_id: deps.account.id, booking_id: booking.id, error: String(error) }));
    return null;
  }
}

/** 1. A window that ended: the checkout ended first, so no payment can land after the booking is cancelled unseen. */
async function endLapsed(deps: Deps, booking: Booking): Promise<void> {
  const checkout = await checkoutNow(deps, booking, true);
  if (checkout?.paid) {
    await observeCheckout(deps, booking.id, checkout);
    return;
  }
  // Not ended at the provider (unreachable): the next run tries again; the seat is free meanwhile anyway.
  if (booking.payment?.checkout_session_id && checkout === null) return;
  const expired = updatePaymentStatement({ id: booking.id, accountId: deps.account.id, from: ["pending"] }, { status: "expired", checkout_url: null }, deps.now);
  const [row] = await deps.db
    .update(bookings)
    .set({ state: "cancelled", active: false, updated_at: deps.now })
    .where(and(eq(bookings.id, booking.id), eq(bookings.account_id, deps.account.id), eq(bookings.state, "awaiting_payment"), lte(bookings.expires_at, deps.now)))
    .returning();
  if (!row) return;
  await accountD1(deps)
    .prepare(expired.sql)
    .bind(...expired.params)
    .run();
  if (checkout) {
    await recordFact(deps, booking.id, answeredCheckout(checkout, deps.now));
  }
  const ended = (await deps.db.query.bookings.findFirst({ where: and(eq(bookings.id, booking.id), eq(bookings.account_id, deps.account.id)) })) ?? row;
  await afterBookingChange(deps, "cancelled", ended, undefined, { messages: false });
}

/** 2. A payment pending for a while: paid after all (settled), or reminded once. */
async function reconcile(deps: Deps, booking: Booking): Promise<void> {
  const checkout = await checkoutNow(deps, booking, false);
  if (checkout === null) return;
  if (checkout.paid) {
    await observeCheckout(deps, booking.id, checkout);
    return;
  }
  const payment = booking.payment!;
  if (payment.reminded_at !== null || booking.created_at > deps.now - REMINDER_AFTER_MS || checkout.status !== "open") return;
  const reminded = updatePaymentStatement({ id: booking.id, accountId: deps.account.id, from: ["pending"] }, { reminded_at: deps.now }, deps.now);
  const marked = await accountD1(deps)
    .prepare(`${reminded.sql.replace(" RETURNING id", "")} AND json_extract(payment, '$.reminded_at') IS NULL RETURNING id`)
    .bind(...reminded.params)
    .first();
  if (marked) await enqueuePaymentMessage(deps, booking.id, "payment_reminder", { url: checkout.url });
}

/** 3. An ending whose checkout the provider has not confirmed over: ended now, and what it answers settled. */
async function confirmEnded(deps: Deps, booking: Booking): Promise<void> {
  const checkout = await checkoutNow(deps, booking, true);
  if (checkout) await observeCheckout(deps, booking.id, checkout);
  else await settlePayment(deps, booking.id);
}

export async function sweepPayments(env: Env, now: number, shard: string): Promise<void> {
  const db = openDb(shardD1(env, shard));
  const unpaid = and(eq(bookings.state, "awaiting_payment"), sql`${bookings.payment} IS NOT NULL`);
  const [lapsed, pending, unsettled, owed] = await db.batch([
    db
      .select()
      .from(bookings)
      .where(and(unpaid, lte(bookings.expires_at, now)))
      .limit(BATCH),
    db
      .select()
      .from(bookings)
      .where(
        and(unpaid, gt(bookings.expires_at, now), lte(bookings.created_at, now - RECONCILE_AFTER_MS), sql`json_extract(${bookings.payment}, '$.status') = 'pending'`),
      )
      .limit(BATCH),
    db
      .select()
      .from(bookings)
      .where(and(sql`${bookings.payment} IS NOT NULL`, reconcileDueSql, sql`json_extract(${bookings.payment}, '$.reconcile_at') <= ${now}`))
      .limit(BATCH),
    db
      .select()
      .from(bookings)
      .where(and(sql`${bookings.payment} IS NOT NULL`, owedRefundsSql))
      .limit(BATCH),
  ]);
  await byAccount(shard, env, now, lapsed, async (deps, rows) => {
    for (const booking of rows) await endLapsed(deps, booking);
  });
  await byAccount(shard, env, now, pending, async (deps, rows) => {
    for (const booking of rows) await reconcile(deps, booking);
  });
  await byAccount(shard, env, now, unsettled, async (deps, rows) => {
    for (const booking of rows) await confirmEnded(deps, booking);
  });
  const asked = new Set(unsettled.map((b) => b.id));
  await byAccount(
    shard,
    env,
    now,
    owed.filter((b) => !asked.has(b.id)),
    async (deps, rows) => {
      for (const booking of rows) await settlePayment(deps, booking.id);
    },
  );
}
