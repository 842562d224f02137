// What paid bookings need of a payment provider, in the booking API's words; no SDK here, so the
// feature's core and its tests load without one (stripe-provider.ts is imported only when used).

export interface PaymentConfig {
  secretKey: string;
  webhookSecret: string;
  /** e.g. http://127.0.0.1:PORT (the local stand-in); absent = api.stripe.com */
  apiBase?: string;
}

export interface CheckoutRequest {
  /** The shop's connected account (`acct_…`): the session, payment and refunds live there. */
  connectedAccount: string;
  /** Booking id as text -> client_reference_id and metadata.booking_id */
  reference: string;
  /** -> metadata.account_id */
  accountId: number;
  /** Minor units, integer > 0 */
  amount: number;
  /** ISO 4217, any case; sent lower-case */
  currency: string;
  description: string;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  /**
   * Epoch ms. Stripe takes 30 min to 24 h from now: max(expiresAt, now + 31 min), at most now + 24 h, is sent.
   * A retry under the same idempotencyKey must send the same parameters, so one whose expiresAt is
   * moved by the clamp can meet Stripe's idempotency error (a PaymentProviderError, status 400).
   */
  expiresAt: number;
  idempotencyKey: string;
}

export interface CheckoutState {
  sessionId: string;
  /** The hosted checkout page while the session is open; null once it is complete or expired. */
  url: string | null;
  status: "open" | "complete" | "expired";
  paid: boolean;
  paymentIntentId: string | null;
  amount: number | null;
  currency: string | null;
  reference: string | null;
}

export interface RefundState {
  /** The refund's id (`re_…`); from a charge.refunded event whose charge lists no refunds, the charge's (`ch_…`). */
  refundId: string;
  paymentIntentId: string;
  /** This refund's amount; from a charge.refunded event whose charge lists no refunds, the payment's total refunded. */
  amount: number;
  status: "pending" | "succeeded" | "failed" | "canceled";
  /** The payment's total refunded so far, when the event tells it (charge.refunded). */
  paymentAmountRefunded?: number;
}

/** What every event carries: its id, the shop's connected account, and when the provider made it (epoch ms). */
interface EventBase {
  id: string;
  connectedAccount: string | null;
  createdAt: number | null;
}

export type PaymentEvent = EventBase &
  /** checkout.session.completed with payment_status paid, or checkout.session.async_payment_succeeded */
  (
    | { kind: "checkout_paid"; checkout: CheckoutState }
    /** checkout.session.completed but payment_status unpaid (async methods): wait for the outcome */
    | { kind: "checkout_unpaid"; checkout: CheckoutState }
    /** checkout.session.async_payment_failed */
    | { kind: "checkout_failed"; checkout: CheckoutState }
    /** checkout.session.expired */
    | { kind: "checkout_expired"; checkout: CheckoutState }
    /** refund.created / refund.updated / refund.failed / charge.refund.updated, and charge.refunded */
    | { kind: "refund_updated"; refund: RefundState }
    | { kind: "ignored"; type: string }
  );

/** A delivered event that is not the provider's: bad, missing or old signature, unparseable body. */
export class PaymentEventRefused extends Error {
  override name = "PaymentEventRefused";
}

/** The provider refused a request or could not be reached. */
export class PaymentProviderError extends Error {
  override name = "PaymentProviderError";
  constructor(
    message: string,
    /** The provider's HTTP status; null when no answer came (connection failure, timeout). */
    readonly status: number | null,
    /** The provider's error code, e.g. `resource_missing`, `charge_already_refunded`; null when it gave none. */
    readonly code: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface PaymentProvider {
  readonly name: "stripe";
  createCheckout(request: CheckoutRequest): Promise<CheckoutState>;
  readCheckout(connectedAccount: string, sessionId: string): Promise<CheckoutState>;
  /** Ends an open session; a session already complete or expired is answered as it stands (no throw). */
  expireCheckout(connectedAccount: string, sessionId: string): Promise<CheckoutState>;
  refund(connectedAccount: string, paymentIntentId: string, amount: number, idempotencyKey: string): Promise<RefundState>;
  /** Verifies the signature on the raw body (the SDK's constructEventAsync with the SubtleCrypto provider, default tolerance 300 s). */
  verifyEvent(rawBody: string, signature: string | null | undefined): Promise<PaymentEvent>;
  createConnectedAccount(input: { email: string | null; country: string; idempotencyKey: string }): Promise<{ accountId: string }>;
  onboardingLink(connectedAccount: string, refreshUrl: string, returnUrl: string): Promise<{ url: string }>;
}
