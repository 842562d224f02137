// A booking's money as its payment provider knows it, folded from the facts recorded for it
// (docs/decisions/payments.md, "One source of truth"). Each provider object (a checkout session, a
// refund, a charge's refunded total) is taken at the furthest state any fact showed, so facts that
// arrive late, twice or out of order fold to the same ledger, and no fact moves an object back.

export interface LedgerFact {
  id: number;
  kind: string;
  object_id: string;
  payment_intent_id: string | null;
  status: string;
  paid: boolean;
  amount: number;
  observed_at: number;
}

/** One payment taken: a paid checkout's payment intent, or a payment recorded outside the provider. */
export interface PaymentTaken {
  /** The payment intent, or "external" for a payment the integrator recorded. */
  key: string;
  paymentIntentId: string | null;
  sessionId: string | null;
  amount: number;
  /** What came back or is on its way back (pending and succeeded refunds; failed ones do not count). */
  refunded: number;
  /** Refunds the provider gave up on: each asks for a new one (a new idempotency key). */
  failedRefunds: number;
  lastRefundId: string | null;
  /** The first fact that showed it paid: the earlier of two payments is the booking's own. */
  firstSeen: number;
  paidAt: number;
}

export interface Ledger {
  payments: PaymentTaken[];
  /** Sessions by id at their furthest state. */
  sessions: Map<string, { status: string; paid: boolean; paymentIntentId: string | null }>;
  /** A checkout's payment failed (an asynchronous method) and nothing was paid. */
  failed: boolean;
  /** The newest fact folded in: a projection written from this ledger is never replaced by one from fewer facts. */
  seen: number;
}

const REFUND_RANK: Record<string, number> = { pending: 0, requires_action: 0, succeeded: 1, failed: 2, canceled: 2 };

function checkoutRank(fact: LedgerFact): number {
  if (fact.paid) return 3;
  if (fact.status === "expired" || fact.status === "failed") return 2;
  return fact.status === "complete" ? 1 : 0;
}

const rankOf = (fact: LedgerFact) => (fact.kind === "refund" ? (REFUND_RANK[fact.status] ?? 0) : fact.kind === "checkout" ? checkoutRank(fact) : 0);

/** The furthest of two facts about one object; a snapshot (a charge's total) by the provider's time. */
function further(a: LedgerFact, b: LedgerFact): LedgerFact {
  const [ra, rb] = [rankOf(a), rankOf(b)];
  if (ra !== rb) return ra > rb ? a : b;
  if (a.observed_at !== b.observed_at) return a.observed_at > b.observed_at ? a : b;
  return a.id > b.id ? a : b;
}

export function ledgerOf(facts: readonly LedgerFact[]): Ledger {
  const objects = new Map<string, LedgerFact>();
  const firstPaid = new Map<string, LedgerFact>();
  let seen = 0;
  for (const fact of facts) {
    seen = Math.max(seen, fact.id);
    const key = `${fact.kind}\n${fact.object_id}`;
    const known = objects.get(key);
    objects.set(key, known ? further(known, fact) : fact);
    if (fact.paid && (!firstPaid.has(fact.object_id) || firstPaid.get(fact.object_id)!.id > fact.id)) firstPaid.set(fact.object_id, fact);
  }
  const sessions = new Map<string, { status: string; paid: boolean; paymentIntentId: string | null }>();
  const payments = new Map<string, PaymentTaken>();
  let failed = false;
  for (const fact of objects.values()) {
    if (fact.kind === "checkout") {
      sessions.set(fact.object_id, { status: fact.status, paid: fact.paid, paymentIntentId: fact.payment_intent_id });
      if (fact.status === "failed" && !fact.paid) failed = true;
    }
    if ((fact.kind === "checkout" && fact.paid && fact.payment_intent_id) || fact.kind === "external") {
      const key = fact.kind === "external" ? "external" : fact.payment_intent_id!;
      const first = firstPaid.get(fact.object_id) ?? fact;
      if (!payments.has(key)) {
        payments.set(key, {
          key,
          paymentIntentId: fact.payment_intent_id,
          sessionId: fact.kind === "checkout" ? fact.object_id : null,
          amount: fact.amount,
          refunded: 0,
          failedRefunds: 0,
          lastRefundId: null,
          firstSeen: first.id,
          paidAt: first.observed_at,
        });
      }
    }
  }
  const refundsByIntent = new Map<string, LedgerFact[]>();
  const snapshots = new Map<string, LedgerFact>();
  for (const fact of objects.values()) {
    if (!fact.payment_intent_id) continue;
    if (fact.kind === "refund") refundsByIntent.set(fact.payment_intent_id, [...(refundsByIntent.get(fact.payment_intent_id) ?? []), fact]);
    if (fact.kind === "charge") {
      const known = snapshots.get(fact.payment_intent_id);
      snapshots.set(fact.payment_intent_id, known ? further(known, fact) : fact);
    }
  }
  for (const payment of payments.values()) {
    if (!payment.paymentIntentId) continue;
    const refunds = (refundsByIntent.get(payment.paymentIntentId) ?? []).sort((a, b) => a.observed_at - b.observed_at || a.id - b.id);
    const given = refunds.filter((r) => (REFUND_RANK[r.status] ?? 0) < 2);
    const gaveUp = refunds.filter((r) => (REFUND_RANK[r.status] ?? 0) >= 2);
    const sum = (list: LedgerFact[]) => list.reduce((total, r) => total + r.amount, 0);
    // A charge's refunded total holds every refund seen up to its time, which may not all be known
    // one by one: refunds seen after it add to it, and refunds that failed after it take from it.
    const snapshot = snapshots.get(payment.paymentIntentId);
    const fromSnapshot = snapshot
      ? snapshot.amount + sum(given.filter((r) => r.observed_at > snapshot.observed_at)) - sum(gaveUp.filter((r) => r.observed_at > snapshot.observed_at))
      : 0;
    payment.refunded = Math.max(0, Math.min(payment.amount, Math.max(sum(given), fromSnapshot)));
    payment.failedRefunds = gaveUp.length;
    payment.lastRefundId = (given.at(-1) ?? gaveUp.at(-1))?.object_id ?? snapshot?.object_id ?? null;
  }
  const paid = [...payments.values()].sort((a, b) => a.firstSeen - b.firstSeen);
  return { payments: paid, sessions, failed: failed && paid.length === 0, seen };
}

/** The booking's own payment: the one it recorded as holding its seat, else the first taken. */
export function ownPayment(ledger: Ledger, paymentIntentId: string | null): PaymentTaken | undefined {
  return ledger.payments.find((p) => paymentIntentId !== null && p.paymentIntentId === paymentIntentId) ?? ledger.payments[0];
}

/** What is still to go back of one payment: the booking's own up to its refund target, any other payment in full. */
export function refundDue(payment: PaymentTaken, own: PaymentTaken | undefined, ownTarget: number): number {
  const target = payment === own ? Math.min(ownTarget, payment.amount) : payment.amount;
  return Math.max(0, target - payment.refunded);
}

export type MoneyStatus = "paid" | "partially_refunded" | "refunded";

export function moneyStatus(payment: PaymentTaken): MoneyStatus {
  if (payment.refunded >= payment.amount) return "refunded";
  return payment.refunded > 0 ? "partially_refunded" : "paid";
}
