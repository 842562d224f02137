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
import { bookingOfIntent, checkoutFact, factWrites, refundFact } from "./facts";
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

/** Whether the event was applied before, as a statement to batch with the event's first read. */
const appliedBefore = (deps: Deps, event: PaymentEvent) =>
  deps.db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, "stripe"), eq(paymentEvents.event_id, event.id)))
    .limit(1);

/** The event recorded as applied, as a statement to batch with the first write of what it tells. */
const appliedNow = (deps: Deps, event: PaymentEvent, bookingId: number | null) =>
  deps.db
    .insert(paymentEvents)
    .values({
      account_id: deps.account.id,
      provider: "stripe",
      event_id: event.id,
      kind: event.kind,
      booking_id: bookingId,
      received_at: deps.now,
    })
    .onConflictDoNothing();

/** A booking paid before facts were kept names its payment intent only on itself. */
async function bookingOfLegacyIntent(deps: Deps, paymentIntentId: string): Promise<number | null> {
  const booking = await deps.db.query.bookings.findFirst({
    columns: { id: true },
    where: and(eq(bookings.account_id, deps.account.id), sql`json_extract(${bookings.payment}, '$.payment_intent_id') = ${paymentIntentId}`),
  });
  return booking?.id ?? null;
}

/** The booking a checkout names (its reference), among this account's only, as a statement to batch. */
function bookingOfCheckout(deps: Deps, reference: string | null) {
  const id = Number(reference);
  return deps.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, Number.isSafeInteger(id) && id > 0 ? id : 0), eq(bookings.account_id, deps.account.id)))
    .limit(1);
}

/** The checkout's booking must pay, and the event's amount must be the one it asked. */
function checkedBooking(booking: Booking | undefined, amount: number | null, currency: string | null): Booking {
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
  const observedAt = event.createdAt ?? now;
  if (event.kind === "refund_updated") {
    const [seen, known] = await deps.db.batch([appliedBefore(deps, event), bookingOfIntent(deps, event.refund.paymentIntentId)]);
    if (seen.length > 0) return { applied: "duplicate" };
    const bookingId = known[0]?.booking_id ?? (await bookingOfLegacyIntent(deps, event.refund.paymentIntentId));
    const fact = refundFact(event.id, event.refund, observedAt);
    if (bookingId === null) {
      // Its payment's checkout is not known yet: kept, and attached when that checkout is recorded.
      await deps.db.batch([...factWrites(deps, null, fact), appliedNow(deps, event, null)]);
      return { applied: "kept" };
    }
    await settlePayment(deps, bookingId, { record: fact, also: [appliedNow(deps, event, bookingId)] });
    return { applied: event.kind };
  }
  const [seen, rows] = await deps.db.batch([appliedBefore(deps, event), bookingOfCheckout(deps, event.checkout.reference)]);
  if (seen.length > 0) return { applied: "duplicate" };
  const booking = checkedBooking(rows[0], event.checkout.amount, event.checkout.currency);
  const fact = checkoutFact(event.id, event.checkout, observedAt);
  const settled = await settlePayment(deps, booking.id, {
    record: event.kind === "checkout_failed" ? { ...fact, status: "failed" } : fact,
    also: [appliedNow(deps, event, booking.id)],
  });
  return { applied: event.kind === "checkout_paid" ? settled : event.kind };
}
