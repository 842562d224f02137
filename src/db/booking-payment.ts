// A booking's payment as stored on the booking (bookings.payment, JSON) and as answered: the
// amount the server computed, its state, and the provider's references. Stored on the booking
// itself so every read that answers a booking (lists, caches, feeds) carries it with no read of
// its own, and a booking that pays nothing answers exactly as before.

export const PAYMENT_STATUSES = ["pending", "paid", "refunded", "partially_refunded", "failed", "expired", "canceled"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface BookingPayment {
  provider: string;
  /** "full" or "deposit": what the service asked for when the booking was made. */
  kind: "full" | "deposit" | "external";
  /** Minor units of `currency` (øre, cents; yen have none). */
  amount: number;
  currency: string;
  status: PaymentStatus;
  amount_refunded: number;
  checkout_session_id: string | null;
  checkout_url: string | null;
  payment_intent_id: string | null;
  refund_id: string | null;
  /** A payment taken outside the provider, as the integrator recorded it. */
  reference: string | null;
  paid_at: number | null;
  /** When the "complete your payment" reminder went, once. */
  reminded_at: number | null;
  /** The booking site visitor's address as a keyed hash, for the limit of unpaid bookings; never answered. */
  client_hash: string | null;
  /** A refund owed but not yet accepted by the provider (it could not be reached): the sweep asks again. */
  refund_due: number | null;
  refund_reason: string | null;
  /**
   * How much of its own payment the product decided to give back (the refund policy at a cancel, in
   * full at a decline, a delete, or a payment that could not have its seat); absent: nothing.
   */
  refund_target?: number | null;
  /** When the sweep next asks the provider about money not settled yet (an ending not confirmed there); absent: settled. */
  reconcile_at?: number | null;
  /** The newest provider fact this payment was derived from (payments/settle.ts): an older derivation never overwrites it. */
  facts_seen?: number | null;
}
