// Applying the payment provider's events (docs/decisions/payments.md). An event names the shop's
// connected account: the account is found by it, and the booking only among that account's, so
// one shop's events can never touch another's bookings. Each event is applied once (its id is
// recorded); applying is a compare-and-swap anyway, so concurrent deliveries change nothing twice.
import { and, eq, sql } from "drizzle-orm";
import { openDb } from "../../db/client";
import { directoryDb } from "../../db/directory";
import { accounts, bookings, paymentEvents, type Booking } from "../../db/schema";
import { shardD1 } from "../../db/shards";
import type { Deps, Env } from "../../env";
import { ApiError } from "../../http/errors";
import { systemDeps } from "../system-deps";
import { bookingOfIntent, checkoutFact, recordFact, refundFact } from "./facts";
import type { PaymentEvent } from "./provider";
import { settlePayment } from "./settle";

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

/** A booking paid before facts were kept names its payment intent only on itself. */
async function bookingOfLegacyIntent(deps: Deps, paymentIntentId: string): Promise<number | null> {
  const booking = await deps.db.query.bookings.findFirst({
    columns: { id: true },
    where: and(eq(bookings.account_id, deps.account.id), sql`json_extract(${bookings.payment}, '$.payment_intent_id') = ${paymentIntentId}`),
  });
  return booking?.id ?? null;
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

/**
 * Applies a verified event; a refusal (400) leaves everything as it was. A refund whose payment's
 * checkout has not been seen yet is kept (`kept`), and applied when that checkout attaches it.
 */
export async function applyPaymentEvent(env: Env, event: PaymentEvent, now: number): Promise<{ applied: string }> {
  if (event.kind === "ignored") return { applied: "ignored" };
  const deps = await depsOfConnectedAccount(env, event.connectedAccount, now);
  if (await alreadyApplied(deps, event)) return { applied: "duplicate" };
  const observedAt = event.createdAt ?? now;
  let bookingId: number | null = null;
  let applied: string = event.kind;
  switch (event.kind) {
    case "checkout_paid":
    case "checkout_unpaid":
    case "checkout_failed":
    case "checkout_expired": {
      const booking = await bookingOfCheckout(deps, event.checkout.reference, event.checkout.amount, event.checkout.currency);
      bookingId = booking.id;
      const fact = checkoutFact(event.id, event.checkout, observedAt);
      await recordFact(deps, booking.id, event.kind === "checkout_failed" ? { ...fact, status: "failed" } : fact);
      const settled = await settlePayment(deps, booking.id);
      if (event.kind === "checkout_paid") applied = settled;
      break;
    }
    case "refund_updated": {
      bookingId = (await bookingOfIntent(deps, event.refund.paymentIntentId)) ?? (await bookingOfLegacyIntent(deps, event.refund.paymentIntentId));
      await recordFact(deps, bookingId, refundFact(event.id, event.refund, observedAt));
      if (bookingId === null) applied = "kept";
      else await settlePayment(deps, bookingId);
      break;
    }
  }
  await recordApplied(deps, event, bookingId);
  return { applied };
}
