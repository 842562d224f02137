// The PaymentProvider on Stripe Connect: the only module that imports the `stripe` SDK, loaded by a
// dynamic import() when a payment is made so the SDK stays out of the Worker's start-up path.
import Stripe from "stripe";
import {
  PaymentEventRefused,
  PaymentProviderError,
  type CheckoutRequest,
  type CheckoutState,
  type PaymentConfig,
  type PaymentEvent,
  type PaymentProvider,
  type RefundState,
} from "./provider";

/** Stripe takes a checkout session's expires_at 30 min to 24 h after creation; a minute's margin each side for clocks and transit. */
const MIN_SESSION_LIFETIME_MS = 31 * 60_000;
const MAX_SESSION_LIFETIME_MS = 23 * 3_600_000 + 59 * 60_000;

function stripeClient(config: PaymentConfig) {
  const base = config.apiBase ? new URL(config.apiBase) : null;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  return new Stripe(config.secretKey, {
    // The SDK's Node client is not in workerd; fetch is.
    httpClient: Stripe.createFetchHttpClient(),
    // One retry on a network failure or 409/5xx, under the same idempotency key, inside a request's time.
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
    ...(base ? { host: base.hostname, port: base.port || (protocol === "http" ? 80 : 443), protocol } : {}),
  });
}

/** Stripe's errors as the booking API's; anything else (a bug of ours) as it is. */
async function calling<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw new PaymentProviderError(error.message, error.statusCode ?? null, error.code ?? null, { cause: error });
    }
    throw error;
  }
}

const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === "string" ? value : value.id);

function checkoutState(session: Stripe.Checkout.Session): CheckoutState {
  return {
    sessionId: session.id,
    url: session.url ?? null,
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    paid: session.payment_status === "paid",
    paymentIntentId: idOf(session.payment_intent),
    amount: session.amount_total ?? null,
    currency: session.currency ?? null,
    reference: session.client_reference_id ?? session.metadata?.booking_id ?? null,
  };
}

/** Stripe's refund statuses in our four; `requires_action` (some non-card refunds) is still pending. */
function refundStatus(status: string | null): RefundState["status"] {
  return status === "succeeded" || status === "failed" || status === "canceled" ? status : "pending";
}

function refundState(refund: Stripe.Refund): RefundState | null {
  const paymentIntentId = idOf(refund.payment_intent);
  if (!paymentIntentId) return null;
  return { refundId: refund.id, paymentIntentId, amount: refund.amount, status: refundStatus(refund.status) };
}

/**
 * A charge.refunded event: its newest refund when the charge lists them; else, as Stripe leaves
 * `refunds` out of charges since API version 2022-11-15, the payment's total under the charge's id.
 */
function chargeRefundState(charge: Stripe.Charge): RefundState | null {
  const paymentIntentId = idOf(charge.payment_intent);
  if (!paymentIntentId) return null;
  const newest = [...(charge.refunds?.data ?? [])].sort((a, b) => b.created - a.created)[0];
  const refund = newest
    ? { refundId: newest.id, paymentIntentId, amount: newest.amount, status: refundStatus(newest.status) }
    : { refundId: charge.id, paymentIntentId, amount: charge.amount_refunded, status: "succeeded" as const };
  return { ...refund, paymentAmountRefunded: charge.amount_refunded };
}

function paymentEvent(event: Stripe.Event): PaymentEvent {
  const base = { id: event.id, connectedAccount: event.account ?? null, createdAt: typeof event.created === "number" ? event.created * 1000 : null };
  const ignored = { ...base, kind: "ignored" as const, type: event.type };
  switch (event.type) {
    case "checkout.session.completed": {
      const checkout = checkoutState(event.data.object);
      return { ...base, kind: checkout.paid ? "checkout_paid" : "checkout_unpaid", checkout };
    }
    case "checkout.session.async_payment_succeeded":
      return { ...base, kind: "checkout_paid", checkout: checkoutState(event.data.object) };
    case "checkout.session.async_payment_failed":
      return { ...base, kind: "checkout_failed", checkout: checkoutState(event.data.object) };
    case "checkout.session.expired":
      return { ...base, kind: "checkout_expired", checkout: checkoutState(event.data.object) };
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
    case "charge.refund.updated": {
      // A refund of a charge made without a payment intent is not one of ours.
      const refund = refundState(event.data.object);
      return refund ? { ...base, kind: "refund_updated", refund } : ignored;
    }
    case "charge.refunded": {
      const refund = chargeRefundState(event.data.object);
      return refund ? { ...base, kind: "refund_updated", refund } : ignored;
    }
    default:
      return ignored;
  }
}

export function stripeProvider(config: PaymentConfig): PaymentProvider {
  const stripe = stripeClient(config);
  // workerd has SubtleCrypto only, which the SDK uses through its async helpers.
  const cryptoProvider = Stripe.createSubtleCryptoProvider();

  async function readCheckout(connectedAccount: string, sessionId: string) {
    return checkoutState(await calling(() => stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: connectedAccount })));
  }

  return {
    name: "stripe",

    async createCheckout(request: CheckoutRequest) {
      const now = Date.now();
      const expiresAt = Math.min(Math.max(request.expiresAt, now + MIN_SESSION_LIFETIME_MS), now + MAX_SESSION_LIFETIME_MS);
      const metadata = { booking_id: request.reference, account_id: String(request.accountId) };
      const session = await calling(() =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            client_reference_id: request.reference,
            ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
            line_items: [
              {
                quantity: 1,
                price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amount, product_data: { name: request.description } },
              },
            ],
            metadata,
            // On the payment too, so a refund or dispute seen from the payment leads back to the booking.
            payment_intent_data: { metadata },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: Math.ceil(expiresAt / 1000),
          },
          { stripeAccount: request.connectedAccount, idempotencyKey: request.idempotencyKey },
        ),
      );
      return checkoutState(session);
    },

    readCheckout,

    async expireCheckout(connectedAccount: string, sessionId: string) {
      try {
        return checkoutState(await calling(() => stripe.checkout.sessions.expire(sessionId, {}, { stripeAccount: connectedAccount })));
      } catch (error) {
        // Stripe refuses (400) to expire a session that is no longer open: it was paid or lapsed
        // meanwhile, which the caller learns from the state it is in. Still open: a real failure.
        if (!(error instanceof PaymentProviderError) || error.status !== 400) throw error;
        const current = await readCheckout(connectedAccount, sessionId);
        if (current.status === "open") throw error;
        return current;
      }
    },

    async refund(connectedAccount: string, paymentIntentId: string, amount: number, idempotencyKey: string) {
      const refund = await calling(() => stripe.refunds.create({ payment_intent: paymentIntentId, amount }, { stripeAccount: connectedAccount, idempotencyKey }));
      return { refundId: refund.id, paymentIntentId, amount: refund.amount, status: refundStatus(refund.status) };
    },

    async verifyEvent(rawBody: string, signature: string | null | undefined) {
      if (!signature) throw new PaymentEventRefused("The Stripe-Signature header is missing");
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret, undefined, cryptoProvider);
      } catch (error) {
        // A signature that does not verify, or a signed body that is not JSON: either way not Stripe's event.
        if (error instanceof Stripe.errors.StripeSignatureVerificationError || error instanceof SyntaxError) {
          throw new PaymentEventRefused(error.message, { cause: error });
        }
        throw error;
      }
      return paymentEvent(event);
    },

    async createConnectedAccount({ email, country, idempotencyKey }) {
      const account = await calling(() => stripe.accounts.create({ type: "standard", country, ...(email ? { email } : {}) }, { idempotencyKey }));
      return { accountId: account.id };
    },

    async onboardingLink(connectedAccount: string, refreshUrl: string, returnUrl: string) {
      const link = await calling(() =>
        stripe.accountLinks.create({ account: connectedAccount, type: "account_onboarding", refresh_url: refreshUrl, return_url: returnUrl }),
      );
      return { url: link.url };
    },
  };
}
