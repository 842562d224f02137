// The provider's facts about a booking's money (db/schema.ts, payment_facts), recorded once each
// and never changed: what an event told or an API answer showed. A fact that names a payment intent
// no booking is known for yet (a refund before its payment's checkout) is kept without a booking and
// attached when that payment's checkout is recorded, so nothing the provider says is forgotten.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { paymentFacts, type PaymentFact } from "../../db/schema";
import type { Deps } from "../../env";
import type { CheckoutState, RefundState } from "./provider";

export interface NewFact {
  source: string;
  kind: "checkout" | "refund" | "charge" | "external";
  objectId: string;
  paymentIntentId: string | null;
  status: string;
  paid?: boolean;
  amount: number;
  currency?: string | null;
  /** The provider's time of the observation; an API answer's is now. */
  observedAt: number;
}

export const checkoutFact = (source: string, checkout: CheckoutState, observedAt: number): NewFact => ({
  source,
  kind: "checkout",
  objectId: checkout.sessionId,
  paymentIntentId: checkout.paymentIntentId,
  // An unpaid, completed session whose asynchronous payment failed is recorded as failed by its event.
  status: checkout.status,
  paid: checkout.paid,
  amount: checkout.amount ?? 0,
  currency: checkout.currency,
  observedAt,
});

/** A refund, or a charge's refunded total (a charge.refunded event that lists no refunds). */
export const refundFact = (source: string, refund: RefundState, observedAt: number): NewFact =>
  refund.refundId.startsWith("ch_")
    ? {
        source,
        kind: "charge",
        objectId: refund.refundId,
        paymentIntentId: refund.paymentIntentId,
        status: "refunded",
        amount: refund.paymentAmountRefunded ?? refund.amount,
        observedAt,
      }
    : { source, kind: "refund", objectId: refund.refundId, paymentIntentId: refund.paymentIntentId, status: refund.status, amount: refund.amount, observedAt };

/** An API answer's fact is seen again whenever the same object is answered in the same state: recorded once. */
const answered = (fact: NewFact): NewFact => ({ ...fact, source: `answer:${fact.kind}:${fact.objectId}:${fact.status}${fact.paid ? ":paid" : ""}` });

/** What the provider answered about a checkout (a read, an expire), as a fact. */
export const answeredCheckout = (checkout: CheckoutState, now: number) => answered(checkoutFact("", checkout, now));

/** What the provider answered to a refund request, as a fact. */
export const answeredRefund = (refund: RefundState, now: number) => answered(refundFact("", refund, now));

/**
 * The statements that record the fact for booking `bookingId` (null: not known yet) once, for a
 * batch of the caller's: a paid checkout also attaches every fact kept about its payment intent
 * without a booking. The first answers the new fact's id, none when it was recorded before.
 */
export function factWrites(deps: Deps, bookingId: number | null, fact: NewFact) {
  const inserted = deps.db
    .insert(paymentFacts)
    .values({
      account_id: deps.account.id,
      booking_id: bookingId,
      provider: "stripe",
      source: fact.source,
      kind: fact.kind,
      object_id: fact.objectId,
      payment_intent_id: fact.paymentIntentId,
      status: fact.status,
      paid: fact.paid ?? false,
      amount: fact.amount,
      currency: fact.currency ?? null,
      observed_at: fact.observedAt,
      recorded_at: deps.now,
    })
    .onConflictDoNothing()
    .returning({ id: paymentFacts.id });
  if (bookingId === null || !fact.paymentIntentId) return [inserted] as const;
  const attach = deps.db
    .update(paymentFacts)
    .set({ booking_id: bookingId })
    .where(and(eq(paymentFacts.account_id, deps.account.id), eq(paymentFacts.payment_intent_id, fact.paymentIntentId), isNull(paymentFacts.booking_id)));
  return [inserted, attach] as const;
}

/** Records the fact once (`factWrites`); answers whether it is new. */
export async function recordFact(deps: Deps, bookingId: number | null, fact: NewFact): Promise<boolean> {
  const [inserted, ...rest] = factWrites(deps, bookingId, fact);
  const [rows] = rest.length > 0 ? await deps.db.batch([inserted, ...rest]) : [await inserted];
  return rows.length > 0;
}

/** The booking a payment intent belongs to, by the facts already attached to it (a statement to batch; no row: not known yet). */
export const bookingOfIntent = (deps: Deps, paymentIntentId: string) =>
  deps.db
    .select({ booking_id: paymentFacts.booking_id })
    .from(paymentFacts)
    .where(and(eq(paymentFacts.account_id, deps.account.id), eq(paymentFacts.payment_intent_id, paymentIntentId), sql`${paymentFacts.booking_id} IS NOT NULL`))
    .limit(1);

/** Every fact of the booking, oldest first, as a statement to batch beside the booking's own read. */
export const factsOfBooking = (deps: Deps, bookingId: number) =>
  deps.db
    .select()
    .from(paymentFacts)
    .where(and(eq(paymentFacts.account_id, deps.account.id), eq(paymentFacts.booking_id, bookingId)))
    .orderBy(asc(paymentFacts.id));

export type { PaymentFact };
