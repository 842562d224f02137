// SPIKE (branch stripe-spike): the official `stripe` SDK runs inside workerd (this file runs in the
// Workers pool) against the local stand-in of test/support/stripe-stand-in.ts, reached at the
// TEST_STRIPE origin, and Stripe's own webhook signing helpers sign and verify with SubtleCrypto.
// Groundwork for paid bookings on a Stripe Connect platform: checkout sessions are made on the
// connected shop's account with the `stripeAccount` request option.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import Stripe from "stripe";

const SECRET_KEY = "sk_test_spike";
const WEBHOOK_SECRET = "whsec_spike_0123456789abcdef";

/** The SDK as a Worker would build it: fetch for HTTP, no retries, a short timeout. */
function stripeClient() {
  const origin = new URL(env.TEST_STRIPE);
  return new Stripe(SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(),
    host: origin.hostname,
    port: origin.port,
    protocol: origin.protocol === "http:" ? "http" : "https",
    maxNetworkRetries: 0,
    timeout: 10_000,
    telemetry: false,
  });
}

const standIn = async (method: "GET" | "POST", path: string) => {
  const res = await fetch(`${env.TEST_STRIPE}${path}`, { method });
  return { status: res.status, body: (await res.json()) as any };
};
const logOf = async (stripeAccount: string) => (await standIn("GET", `/_test/log?stripe_account=${stripeAccount}`)).body as any[];
const unique = () => crypto.randomUUID();

/** A connected account, onboarded as a shop would be before taking payments. */
async function connectedShop(stripe: Stripe) {
  const account = await stripe.accounts.create({ type: "standard", country: "NO", email: `shop-${unique()}@example.com` });
  await standIn("POST", `/_test/accounts/${account.id}/onboard`);
  return account.id;
}

const sessionParams = (reference: string, unitAmount = 45_000): Stripe.Checkout.SessionCreateParams => ({
  mode: "payment",
  client_reference_id: reference,
  success_url: "https://shop.example.com/bookings/paid?session_id={CHECKOUT_SESSION_ID}",
  cancel_url: "https://shop.example.com/bookings/cancelled",
  line_items: [{ quantity: 2, price_data: { currency: "nok", unit_amount: unitAmount, product_data: { name: "Haircut" } } }],
  metadata: { booking_id: reference },
});

describe("stripe SDK in workerd against the stand-in", () => {
  it("loads the SDK's worker build (fetch, SubtleCrypto), not its Node build", () => {
    expect(() => Stripe.createNodeHttpClient()).toThrow(/not available in non-Node environments/);
    expect(() => Stripe.createNodeCryptoProvider()).toThrow(/not available in non-Node environments/);
  });

  it("onboards a connected account: account, account link, retrieve", async () => {
    const stripe = stripeClient();
    const email = `shop-${unique()}@example.com`;
    const account = await stripe.accounts.create({ type: "standard", country: "NO", email });
    expect(account).toMatchObject({ object: "account", email, charges_enabled: false, details_submitted: false });
    expect(account.id).toMatch(/^acct_\w+$/);

    const link = await stripe.accountLinks.create({
      account: account.id, type: "account_onboarding",
      refresh_url: "https://api.example.com/stripe/refresh", return_url: "https://api.example.com/stripe/return",
    });
    expect(link.object).toBe("account_link");
    expect(link.url).toMatch(new RegExp(`^https://connect\\.stripe\\.com/setup/s/${account.id}/`));
    expect(link.expires_at).toBeGreaterThan(link.created);

    await standIn("POST", `/_test/accounts/${account.id}/onboard`);
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({ id: account.id, charges_enabled: true, payouts_enabled: true, details_submitted: true });

    const missing = await stripe.accounts.retrieve("acct_nosuchaccount").catch((error) => error);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", message: "No such account: 'acct_nosuchaccount'" });
  });

  it("creates a checkout session on the connected account, idempotently, and pays it", async () => {
    const stripe = stripeClient();
    const shop = await connectedShop(stripe);
    const reference = `booking-${unique()}`;
    const idempotencyKey = `checkout-${reference}`;

    const session = await stripe.checkout.sessions.create(sessionParams(reference), { stripeAccount: shop, idempotencyKey });
    expect(session.id).toMatch(/^cs_test_\w+$/);
    expect(session).toMatchObject({
      object: "checkout.session", status: "open", payment_status: "unpaid", payment_intent: null,
      amount_total: 90_000, currency: "nok", client_reference_id: reference, metadata: { booking_id: reference },
      url: `https://checkout.stripe.com/c/pay/${session.id}`,
    });
    expect(session.lastResponse.statusCode).toBe(200);

    // The same key on the same account answers the same session; on another account, a new one.
    const again = await stripe.checkout.sessions.create(sessionParams(reference), { stripeAccount: shop, idempotencyKey });
    expect(again.id).toBe(session.id);
    // With the fetch client, lastResponse.headers is the fetch Headers object, though typed as a record.
    expect((again.lastResponse.headers as unknown as Headers).get("idempotent-replayed")).toBe("true");
    expect(again.lastResponse).toMatchObject({ idempotencyKey, stripeAccount: shop, apiVersion: Stripe.API_VERSION, requestId: expect.stringMatching(/^req_/) });
    const otherShop = await connectedShop(stripe);
    const elsewhere = await stripe.checkout.sessions.create(sessionParams(reference), { stripeAccount: otherShop, idempotencyKey });
    expect(elsewhere.id).not.toBe(session.id);
    // The same key with other parameters is Stripe's idempotency error.
    const reused = await stripe.checkout.sessions.create(sessionParams(reference, 1), { stripeAccount: shop, idempotencyKey }).catch((error) => error);
    expect(reused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(reused.statusCode).toBe(400);

    // What the SDK sent, as the stand-in parsed the form body.
    const sent = (await logOf(shop)).filter((entry) => entry.path === "/v1/checkout/sessions");
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({
      method: "POST", stripe_account: shop, idempotency_key: idempotencyKey, stripe_version: Stripe.API_VERSION,
      body: {
        mode: "payment", client_reference_id: reference, metadata: { booking_id: reference },
        line_items: [{ quantity: "2", price_data: { currency: "nok", unit_amount: "45000", product_data: { name: "Haircut" } } }],
        success_url: "https://shop.example.com/bookings/paid?session_id={CHECKOUT_SESSION_ID}",
      },
    });

    // The session lives on the connected account: the platform itself has no such session.
    expect(await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: shop })).toMatchObject({ id: session.id, status: "open" });
    const onPlatform = await stripe.checkout.sessions.retrieve(session.id).catch((error) => error);
    expect(onPlatform).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(onPlatform).toMatchObject({ statusCode: 404, code: "resource_missing", param: "session" });

    const paid = await standIn("POST", `/_test/sessions/${session.id}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id: session.id, status: "complete", payment_status: "paid" });

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: shop });
    expect(retrieved).toMatchObject({ id: session.id, status: "complete", payment_status: "paid", amount_total: 90_000 });
    expect(retrieved.payment_intent).toMatch(/^pi_\w+$/);
    expect(retrieved.payment_intent).toBe(paid.body.payment_intent);

    // A completed session cannot be expired: Stripe's 400 invalid_request_error.
    const expireCompleted = await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: shop }).catch((error) => error);
    expect(expireCompleted).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(expireCompleted.statusCode).toBe(400);
    expect(expireCompleted.message).toBe('Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `complete`.');
  });

  it("expires an open checkout session", async () => {
    const stripe = stripeClient();
    const shop = await connectedShop(stripe);
    const session = await stripe.checkout.sessions.create(sessionParams(`booking-${unique()}`), { stripeAccount: shop });
    const expired = await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: shop });
    expect(expired).toMatchObject({ id: session.id, status: "expired", payment_status: "unpaid", url: null });
    expect(await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: shop })).toMatchObject({ status: "expired" });
    // The SDK keys every POST itself (`stripe-node-retry-…`), even with maxNetworkRetries 0.
    const [expireRequest] = (await logOf(shop)).filter((entry) => entry.path.endsWith("/expire"));
    expect(expireRequest.idempotency_key).toMatch(/^stripe-node-retry-[0-9a-f-]{36}$/);

    const paying = await standIn("POST", `/_test/sessions/${session.id}/pay`);
    expect(paying.status).toBe(400);
    expect(paying.body.error.type).toBe("invalid_request_error");
  });

  it("refunds a payment partly, then fully, idempotently", async () => {
    const stripe = stripeClient();
    const shop = await connectedShop(stripe);
    const session = await stripe.checkout.sessions.create(sessionParams(`booking-${unique()}`), { stripeAccount: shop });
    const paymentIntent = (await standIn("POST", `/_test/sessions/${session.id}/pay`)).body.payment_intent as string;

    const partKey = `refund-${unique()}`;
    const part = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 30_000, reason: "requested_by_customer" }, { stripeAccount: shop, idempotencyKey: partKey });
    expect(part.id).toMatch(/^re_\w+$/);
    expect(part).toMatchObject({ object: "refund", amount: 30_000, currency: "nok", payment_intent: paymentIntent, status: "succeeded", reason: "requested_by_customer" });
    const replayed = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 30_000, reason: "requested_by_customer" }, { stripeAccount: shop, idempotencyKey: partKey });
    expect(replayed.id).toBe(part.id);

    // No amount: the rest of the payment (the replay above refunded nothing more).
    const rest = await stripe.refunds.create({ payment_intent: paymentIntent }, { stripeAccount: shop, idempotencyKey: `refund-${unique()}` });
    expect(rest.amount).toBe(60_000);
    expect(await stripe.refunds.retrieve(rest.id, {}, { stripeAccount: shop })).toMatchObject({ id: rest.id, amount: 60_000, payment_intent: paymentIntent });

    const more = await stripe.refunds.create({ payment_intent: paymentIntent }, { stripeAccount: shop }).catch((error) => error);
    expect(more).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(more).toMatchObject({ statusCode: 400, code: "charge_already_refunded" });
    // The payment intent is the connected account's: on the platform it does not exist.
    const onPlatform = await stripe.refunds.create({ payment_intent: paymentIntent }).catch((error) => error);
    expect(onPlatform).toMatchObject({ statusCode: 404, code: "resource_missing", param: "payment_intent" });

    const refundRequests = (await logOf(shop)).filter((entry) => entry.path === "/v1/refunds");
    expect(refundRequests.map((entry) => entry.body)).toEqual([
      { payment_intent: paymentIntent, amount: "30000", reason: "requested_by_customer" },
      { payment_intent: paymentIntent, amount: "30000", reason: "requested_by_customer" },
      { payment_intent: paymentIntent },
      { payment_intent: paymentIntent },
    ]);
  });

  it("answers an unknown path with Stripe's error shape", async () => {
    const res = await fetch(`${env.TEST_STRIPE}/v1/no_such_things`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
    expect(res.status).toBe(404);
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error).toMatchObject({ type: "invalid_request_error", message: expect.stringContaining("Unrecognized request URL (GET: /v1/no_such_things)") });
    // The SDK turns it into its own error class.
    const raw = await stripeClient().rawRequest("GET", "/v1/no_such_things").catch((error) => error);
    expect(raw).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(raw.statusCode).toBe(404);
  });
});

describe("stripe webhook signatures in workerd", () => {
  const cryptoProvider = Stripe.createSubtleCryptoProvider();
  const completedEvent = (sessionId: string) => JSON.stringify({
    id: `evt_${unique().replaceAll("-", "")}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type: "checkout.session.completed",
    account: "acct_spikeshop",
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: { id: sessionId, object: "checkout.session", status: "complete", payment_status: "paid", client_reference_id: "booking-1" } },
  });
  /** As a Worker reads it: the raw body text and the Stripe-Signature header of a Request. */
  const delivered = (payload: string, signature: string) =>
    new Request("https://api.example.com/stripe/webhooks", { method: "POST", body: payload, headers: { "stripe-signature": signature } });

  it("signing is async only: the sync helpers cannot use SubtleCrypto", async () => {
    const payload = completedEvent("cs_test_sync");
    expect(() => Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })).toThrow(/generateTestHeaderStringAsync/);
    const header = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });
    expect(() => Stripe.webhooks.constructEvent(payload, header, WEBHOOK_SECRET, undefined, cryptoProvider)).toThrow(/SubtleCryptoProvider cannot be used in a synchronous context/);
  });

  it("verifies a signed checkout.session.completed event", async () => {
    const stripe = stripeClient();
    const payload = completedEvent("cs_test_signed");
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, cryptoProvider });
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const request = delivered(payload, header);
    const event = await stripe.webhooks.constructEventAsync(await request.text(), request.headers.get("stripe-signature")!, WEBHOOK_SECRET, undefined, cryptoProvider);
    expect(event.type).toBe("checkout.session.completed");
    expect(event.account).toBe("acct_spikeshop");
    if (event.type !== "checkout.session.completed") throw new Error("narrowing");
    expect(event.data.object).toMatchObject({ id: "cs_test_signed", payment_status: "paid", client_reference_id: "booking-1" });
    // Raw bytes verify as well as text.
    const bytes = new Uint8Array(await delivered(payload, header).arrayBuffer());
    expect((await stripe.webhooks.constructEventAsync(bytes, header, WEBHOOK_SECRET, undefined, cryptoProvider)).id).toBe(event.id);
  });

  it("refuses a wrong secret, a tampered body and an old timestamp", async () => {
    const stripe = stripeClient();
    const payload = completedEvent("cs_test_refused");
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, cryptoProvider });
    const verify = (body: string, signature: string, secret = WEBHOOK_SECRET, tolerance?: number) =>
      stripe.webhooks.constructEventAsync(body, signature, secret, tolerance, cryptoProvider);

    const wrongSecret = await verify(payload, header, "whsec_someone_else").catch((error) => error);
    expect(wrongSecret).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    expect(wrongSecret.message).toMatch(/No signatures found matching the expected signature for payload/);

    const tampered = await verify(payload.replace('"payment_status":"paid"', '"payment_status":"unpaid"'), header).catch((error) => error);
    expect(payload).toContain('"payment_status":"paid"');
    expect(tampered).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);

    const noHeader = await verify(payload, "").catch((error) => error);
    expect(noHeader).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);

    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const old = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, timestamp: tenMinutesAgo, cryptoProvider });
    const stale = await verify(payload, old).catch((error) => error);
    expect(stale).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    expect(stale.message).toMatch(/Timestamp outside the tolerance zone/);
    expect(stripe.webhooks.DEFAULT_TOLERANCE).toBe(300);
    // Only the age was wrong: with a wider tolerance the same header verifies.
    expect((await verify(payload, old, WEBHOOK_SECRET, 3600)).type).toBe("checkout.session.completed");
  });
});
