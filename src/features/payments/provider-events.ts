// Applying the payment provider's events (docs/decisions/payments.md). An event names the shop's
// connected account: the account is found by it, and the booking only among that account's, so
// one shop's events can never touch another's bookings. Each event is applied once (its id is
// recorded); applying is a compare-and-swap anyway, so concurrent deliveries change nothing twice.
import { and, eq, sql } from "drizzle-orm";
import { openDb } from "../../db/client";
import { directoryDb } from "../../db/directory";
import { accounts, bookings, paymentEvents, type Booking } from "../../db/schema";
import { accountD1, shardD1 } from "../../db/shards";
import type { Deps, Env } from "../../env";
import { ApiError } from "../../http/errors";
import { systemDeps } from "../system-deps";
import { writePaymentStatement, type setPaymentSql } from "./payment-sql";
import type { PaymentEvent, RefundState } from "./provider";
import { settlePaid } from "./settle";

const refused = (why: string) => new ApiError(400, { error: why });

/** The account the event's connected account belongs to, as background work sees it. */
async function depsOfConnectedAccount(env: Env, connectedAccount: string | null, now: number): Promise<Deps> {
  if (!connectedAccount) throw refused("The event names no connected account: it belongs to no shop here.");
  const [account] = await directoryDb(env).select().from(accounts).where(eq(accounts.stripe_account_id, connectedAccount)).limit(1);
  if (!account) throw refused("The event's connected account is not linked to any account here.");
  return systemDeps(openDb(shardD1(env, account.shard)), env, account, now);
}

async function alreadyApplied(deps: Deps, event: PaymentEvent): Promise<boolean> {
  const seen = await deps.db.select({ id: paymentEvents.id }).from(paymentEvents)
    .where(and(eq(paymentEvents.provider, "stripe"), eq(paymentEvents.event_id, event.id))).limit(1);
  return seen.length > 0;
}

async function recordApplied(deps: Deps, event: PaymentEvent, bookingId: number | null): Promise<void> {
  await deps.db.insert(paymentEvents).values({
    account_id: deps.account.id, provider: "stripe", event_id: event.id, kind: event.kind, booking_id: bookingId, received_at: deps.now,
  }).onConflictDoNothing();
}

/** The booking a checkout names (its reference), among this account's only; its amount must be the one the booking asked. */
async function bookingOfCheckout(deps: Deps, reference: string | null, amount: number | null, currency: string | null): Promise<Booking> {
  const id = Number(reference);
  const booking = Number.isSafeInteger(id) && id > 0
    ? await deps.db.query.bookings.findFirst({ where: and(eq(bookings.id, id), eq(bookings.account_id, deps.account.id)) })
    : undefined;
  if (!booking?.payment) throw refused("The event's checkout names no booking of this account that pays.");
  if (amount !== booking.payment.amount || currency?.toUpperCase() !== booking.payment.currency.toUpperCase()) {
    throw refused("The event's amount is not what the booking asked: nothing was changed.");
  }
  return booking;
}

/** A refund's own news: the booking's payment shows what has come back. */
async function applyRefund(deps: Deps, refund: RefundState): Promise<number | null> {
  const booking = await deps.db.query.bookings.findFirst({
    where: and(eq(bookings.account_id, deps.account.id), sql`json_extract(${bookings.payment}, '$.payment_intent_id') = ${refund.paymentIntentId}`),
  });
  if (!booking?.payment) return null;
  const payment = booking.payment;
  if (refund.status !== "succeeded") {
    if (refund.status === "failed" && payment.refund_id === refund.refundId) await setPayment(deps, booking, { status: "paid" });
    return booking.id;
  }
  const refunded = Math.min(payment.amount, refund.paymentAmountRefunded ?? Math.max(payment.amount_refunded, refund.amount));
  await setPayment(deps, booking, { amount_refunded: refunded, refund_due: null, status: refunded >= payment.amount ? "refunded" : "partially_refunded" });
  return booking.id;
}

async function setPayment(deps: Deps, booking: Booking, fields: Parameters<typeof setPaymentSql>[0]): Promise<void> {
  const write = writePaymentStatement({ id: booking.id, accountId: deps.account.id }, fields, deps.now);
  await accountD1(deps).prepare(write.sql).bind(...write.params).run();
}

/** Applies a verified event; a refusal (400) leaves everything as it was. */
export async function applyPaymentEvent(env: Env, event: PaymentEvent, now: number): Promise<{ applied: string }> {
  if (event.kind === "ignored") return { applied: "ignored" };
  const deps = await depsOfConnectedAccount(env, event.connectedAccount, now);
  if (await alreadyApplied(deps, event)) return { applied: "duplicate" };
  let bookingId: number | null = null;
  let applied: string = event.kind;
  switch (event.kind) {
    case "checkout_paid": {
      const booking = await bookingOfCheckout(deps, event.checkout.reference, event.checkout.amount, event.checkout.currency);
      bookingId = booking.id;
      applied = await settlePaid(deps, booking.id, event.checkout);
      break;
    }
    case "checkout_unpaid":
    case "checkout_failed":
    case "checkout_expired":
      // The booking's own window decides its seat (read time, then the sweep); nothing is paid here.
      bookingId = (await bookingOfCheckout(deps, event.checkout.reference, event.checkout.amount, event.checkout.currency)).id;
      break;
    case "refund_updated":
      bookingId = await applyRefund(deps, event.refund);
      break;
  }
  await recordApplied(deps, event, bookingId);
  return { applied };
}
