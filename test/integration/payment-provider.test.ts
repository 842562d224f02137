// The Stripe PaymentProvider (src/features/payments/stripe-provider.ts) inside workerd against the
// local stand-in of the Stripe API (scripts/stripe-stand-in.mjs) at STRIPE_API_BASE: what it sends
// Stripe, what it answers, and which delivered events it takes and how it names them.
import { env } from "cloudflare:test";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { PaymentEventRefused, PaymentProviderError, type CheckoutRequest } from "../../src/features/payments/provider";
import { stripeProvider } from "../../src/features/payments/stripe-provider";

const provider = stripeProvider({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiBase: env.STRIPE_API_BASE });
const unique = () => crypto.randomUUID();
const MINUTE = 60_000;

/** The stand-in's test controls (/_test/…) and its checkout page, as JSON. */
async function standIn(method: "GET" | "POST", path: string, body?: unknown) {
  const res = await fetch(`${env.STRIPE_API_BASE}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}
/** An object as Stripe answers it, read past the provider (what an event would carry). */
async function stripeObject(path: string, stripeAccount: string) {
  const res = await fetch(`${env.STRIPE_API_BASE}${path}`, { headers: { authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "stripe-account": stripeAccount } });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}
const logOf = async (stripeAccount: string) => (await standIn("GET", `/_test/log?stripe_account=${stripeAccount}`)).body as any[];
const signedEvent = async (type: string, account: string | null, object: unknown) =>
  (await standIn("POST", "/_test/events", { type, account, object })).body as { event: string; signature: string };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

/** A shop's connected account, onboarded as it would be before taking payments. */
async function connectedShop() {
  const { accountId } = await provider.createConnectedAccount({ email: `shop-${unique()}@example.com`, country: "NO", idempotencyKey: `account-${unique()}` });
  await standIn("POST", `/_test/accounts/${accountId}/onboard`);
  return accountId;
}

const checkoutRequest = (connectedAccount: string, overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  connectedAccount,
  reference: String(Math.floor(Math.random() * 1e9)),
  accountId: 7,
  amount: 45_000,
  currency: "NOK",
  description: "Haircut, Tuesday 10:00",
  customerEmail: "kari@example.com",
  successUrl: "https://shop.example.com/bookings/paid?session_id={CHECKOUT_SESSION_ID}",
  cancelUrl: "https://shop.example.com/bookings/cancelled",
  expiresAt: Date.now() + 15 * MINUTE,
  idempotencyKey: `checkout-${unique()}`,
  ...overrides,
});

/** A checkout on a new shop, paid through the stand-in's test control. */
async function paidCheckout(amount = 45_000) {
  const shop = await connectedShop();
  const checkout = await provider.createCheckout(checkoutRequest(shop, { amount }));
  const paid = await standIn("POST", `/_test/sessions/${checkout.sessionId}/pay`);
  expect(paid.status).toBe(200);
  return { shop, checkout, paymentIntentId: paid.body.session.payment_intent as string };
}

describe("the stripe SDK in workerd", () => {
  it("loads the SDK's worker build (fetch, SubtleCrypto), not its Node build", () => {
    expect(() => Stripe.createNodeHttpClient()).toThrow(/not available in non-Node environments/);
    expect(() => Stripe.createNodeCryptoProvider()).toThrow(/not available in non-Node environments/);
  });
});

describe("createCheckout", () => {
  it("creates the session on the connected account with the booking's reference, metadata and price", async () => {
    const shop = await connectedShop();
    const request = checkoutRequest(shop);
    const before = Date.now();
    const checkout = await provider.createCheckout(request);
    const after = Date.now();

    expect(checkout.sessionId).toMatch(/^cs_test_\w+$/);
    expect(checkout).toEqual({
      sessionId: checkout.sessionId,
      url: `${env.STRIPE_API_BASE}/pay/${checkout.sessionId}`,
      status: "open",
      paid: false,
      paymentIntentId: null,
      amount: 45_000,
      currency: "nok",
      reference: request.reference,
    });
    const [sent] = (await logOf(shop)).filter((entry) => entry.path === "/v1/checkout/sessions");
    const metadata = { booking_id: request.reference, account_id: "7" };
    expect(sent).toMatchObject({ method: "POST", stripe_account: shop, idempotency_key: request.idempotencyKey, stripe_version: Stripe.API_VERSION });
    expect(sent.body).toEqual({
      mode: "payment",
      client_reference_id: request.reference,
      customer_email: "kari@example.com",
      line_items: [{ quantity: "1", price_data: { currency: "nok", unit_amount: "45000", product_data: { name: "Haircut, Tuesday 10:00" } } }],
      metadata,
      payment_intent_data: { metadata },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      expires_at: expect.any(String),
    });
    // Asked for 15 minutes; Stripe takes no less than 30, so 31 went.
    const expiresAt = Number(sent.body.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 31 * 60);
    expect(expiresAt).toBeLessThanOrEqual(Math.ceil(after / 1000) + 31 * 60);
  });

  it("sends an expiresAt later than 31 minutes as given, and no customer_email when there is none", async () => {
    const shop = await connectedShop();
    const expiresAt = Date.now() + 3 * 60 * MINUTE;
    await provider.createCheckout(checkoutRequest(shop, { expiresAt, customerEmail: null }));
    const [sent] = (await logOf(shop)).filter((entry) => entry.path === "/v1/checkout/sessions");
    expect(sent.body.expires_at).toBe(String(Math.ceil(expiresAt / 1000)));
    expect(sent.body).not.toHaveProperty("customer_email");
  });

  it("answers the first session again for the same key on the same account, a new one on another", async () => {
    const shop = await connectedShop();
    const request = checkoutRequest(shop, { expiresAt: Date.now() + 60 * MINUTE });
    const first = await provider.createCheckout(request);
    expect((await provider.createCheckout(request)).sessionId).toBe(first.sessionId);
    const otherShop = await connectedShop();
    expect((await provider.createCheckout({ ...request, connectedAccount: otherShop })).sessionId).not.toBe(first.sessionId);

    const reused = await refusal(provider.createCheckout({ ...request, amount: 1 }));
    expect(reused).toBeInstanceOf(PaymentProviderError);
    expect(reused).toMatchObject({ status: 400, message: expect.stringMatching(/^Keys for idempotent requests/) });
  });

  it("is refused by the stand-in, as by Stripe, when sent an expires_at under 30 minutes away", async () => {
    const shop = await connectedShop();
    const form = new URLSearchParams({
      mode: "payment",
      success_url: "https://shop.example.com/ok",
      expires_at: String(Math.floor(Date.now() / 1000) + 15 * 60),
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "nok",
      "line_items[0][price_data][unit_amount]": "100",
      "line_items[0][price_data][product_data][name]": "Haircut",
    });
    const res = await fetch(`${env.STRIPE_API_BASE}/v1/checkout/sessions`, {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "stripe-account": shop },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { type: "invalid_request_error", param: "expires_at", message: "The `expires_at` timestamp must be at least 30 minutes from session creation." },
    });
  });
});

describe("readCheckout", () => {
  it("reads the session on its own account; on another it is Stripe's resource_missing", async () => {
    const shop = await connectedShop();
    const request = checkoutRequest(shop);
    const created = await provider.createCheckout(request);
    expect(await provider.readCheckout(shop, created.sessionId)).toEqual(created);

    const elsewhere = await refusal(provider.readCheckout(await connectedShop(), created.sessionId));
    expect(elsewhere).toBeInstanceOf(PaymentProviderError);
    expect(elsewhere).toMatchObject({ status: 404, code: "resource_missing", message: `No such checkout.session: '${created.sessionId}'` });
  });
});

describe("paying a checkout", () => {
  it("answers a signed checkout.session.completed that verifyEvent takes as checkout_paid", async () => {
    const shop = await connectedShop();
    const request = checkoutRequest(shop);
    const { sessionId } = await provider.createCheckout(request);
    const { status, body } = await standIn("POST", `/_test/sessions/${sessionId}/pay`);
    expect(status).toBe(200);
    expect(body.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(body.event)).toMatchObject({
      id: expect.stringMatching(/^evt_\w+$/),
      object: "event",
      type: "checkout.session.completed",
      account: shop,
      livemode: false,
      api_version: Stripe.API_VERSION,
      created: expect.any(Number),
      data: { object: body.session },
    });

    const event = await provider.verifyEvent(body.event, body.signature);
    const paid = {
      sessionId,
      url: null,
      status: "complete",
      paid: true,
      paymentIntentId: expect.stringMatching(/^pi_\w+$/),
      amount: 45_000,
      currency: "nok",
      reference: request.reference,
    };
    expect(event).toEqual({
      id: JSON.parse(body.event).id,
      connectedAccount: shop,
      createdAt: JSON.parse(body.event).created * 1000,
      kind: "checkout_paid",
      checkout: paid,
    });
    if (event.kind !== "checkout_paid") throw new Error("narrowing");
    expect(event.checkout.paymentIntentId).toBe(body.session.payment_intent);
    expect(await provider.readCheckout(shop, sessionId)).toEqual(event.checkout);
    // The payment carries the booking's metadata too.
    expect(await stripeObject(`/v1/payment_intents/${event.checkout.paymentIntentId}`, shop)).toMatchObject({
      amount_received: 45_000,
      amount_refunded: 0,
      latest_charge: expect.stringMatching(/^ch_\w+$/),
      metadata: { booking_id: request.reference, account_id: "7" },
    });
  });

  it("shows the amount on the checkout page; Pay delivers the signed event and redirects to success_url", async () => {
    const shop = await connectedShop();
    const request = checkoutRequest(shop, { description: "Massage & <tea>" });
    const { sessionId, url } = await provider.createCheckout(request);

    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain("<title>Test checkout</title>");
    expect(html).toContain("Massage &amp; &lt;tea&gt;");
    // Intl's currency format: a no-break space after the code.
    expect(html).toContain('<data value="45000">NOK\u00a0450.00</data>');
    expect(html).toContain(`<form method="post" action="/pay/${sessionId}"><button type="submit">Pay</button></form>`);
    expect(html).toContain(`<a href="${request.cancelUrl}">Cancel</a>`);

    const pressed = await fetch(url!, { method: "POST", redirect: "manual" });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get("location")).toBe(`https://shop.example.com/bookings/paid?session_id=${sessionId}`);

    // The stand-in delivered before it redirected; in the tests its deliverTo is the receiver.
    const deliveries = async () =>
      ((await (await fetch(`${env.TEST_RECEIVER}/hooks/_log/stripe-events`)).json()) as { headers: Record<string, string>; body: string }[]).filter(
        (delivery) => JSON.parse(delivery.body).data.object.id === sessionId,
      );
    const [delivery] = await deliveries();
    expect(delivery.headers["content-type"]).toBe("application/json; charset=utf-8");
    const event = await provider.verifyEvent(delivery.body, delivery.headers["stripe-signature"]);
    expect(event).toMatchObject({ connectedAccount: shop, kind: "checkout_paid", checkout: { sessionId, status: "complete", paid: true } });

    // Pressing Pay again lands where the first press did and pays nothing twice.
    const again = await fetch(url!, { method: "POST", redirect: "manual" });
    expect(again.status).toBe(303);
    expect(await deliveries()).toHaveLength(1);
    expect(await (await fetch(url!)).text()).toContain("This checkout is already paid.");
  });
});

describe("expireCheckout", () => {
  it("ends an open session", async () => {
    const shop = await connectedShop();
    const { sessionId } = await provider.createCheckout(checkoutRequest(shop));
    const expired = await provider.expireCheckout(shop, sessionId);
    expect(expired).toMatchObject({ sessionId, status: "expired", paid: false, url: null, paymentIntentId: null });
    expect(await provider.readCheckout(shop, sessionId)).toEqual(expired);
    expect((await standIn("POST", `/_test/sessions/${sessionId}/pay`)).status).toBe(400);
  });

  it("answers a paid session as it stands, complete, without throwing", async () => {
    const { shop, checkout, paymentIntentId } = await paidCheckout();
    expect(await provider.expireCheckout(shop, checkout.sessionId)).toMatchObject({ status: "complete", paid: true, paymentIntentId });
    // Stripe was asked, and refused.
    expect((await logOf(shop)).filter((entry) => entry.path.endsWith("/expire"))).toHaveLength(1);
  });

  it("answers an expired session as expired again", async () => {
    const shop = await connectedShop();
    const { sessionId } = await provider.createCheckout(checkoutRequest(shop));
    await provider.expireCheckout(shop, sessionId);
    expect(await provider.expireCheckout(shop, sessionId)).toMatchObject({ sessionId, status: "expired" });
  });

  it("throws for a session the account does not have", async () => {
    const refused = await refusal(provider.expireCheckout(await connectedShop(), "cs_test_nosuchsession"));
    expect(refused).toBeInstanceOf(PaymentProviderError);
    expect(refused).toMatchObject({ status: 404, code: "resource_missing" });
  });
});

describe("refund", () => {
  it("refunds part, then the rest, on the connected account, idempotently", async () => {
    const { shop, paymentIntentId } = await paidCheckout(45_000);
    const partKey = `refund-${unique()}`;
    const part = await provider.refund(shop, paymentIntentId, 15_000, partKey);
    expect(part).toEqual({ refundId: expect.stringMatching(/^re_\w+$/), paymentIntentId, amount: 15_000, status: "succeeded" });
    expect(await provider.refund(shop, paymentIntentId, 15_000, partKey)).toEqual(part);

    const rest = await provider.refund(shop, paymentIntentId, 30_000, `refund-${unique()}`);
    expect(rest).toMatchObject({ paymentIntentId, amount: 30_000, status: "succeeded" });
    expect(rest.refundId).not.toBe(part.refundId);
    expect(await stripeObject(`/v1/payment_intents/${paymentIntentId}`, shop)).toMatchObject({ amount_received: 45_000, amount_refunded: 45_000 });

    const sent = (await logOf(shop)).filter((entry) => entry.path === "/v1/refunds");
    expect(sent.map(({ stripe_account, idempotency_key, body }) => ({ stripe_account, idempotency_key, body }))).toEqual([
      { stripe_account: shop, idempotency_key: partKey, body: { payment_intent: paymentIntentId, amount: "15000" } },
      { stripe_account: shop, idempotency_key: partKey, body: { payment_intent: paymentIntentId, amount: "15000" } },
      { stripe_account: shop, idempotency_key: expect.stringMatching(/^refund-/), body: { payment_intent: paymentIntentId, amount: "30000" } },
    ]);
  });

  it("throws PaymentProviderError for more than remains, and once all is refunded", async () => {
    const { shop, paymentIntentId } = await paidCheckout(45_000);
    await provider.refund(shop, paymentIntentId, 40_000, `refund-${unique()}`);

    const tooMuch = await refusal(provider.refund(shop, paymentIntentId, 6_000, `refund-${unique()}`));
    expect(tooMuch).toBeInstanceOf(PaymentProviderError);
    expect(tooMuch).toMatchObject({ status: 400, message: "Refund amount (6000) is greater than unrefunded amount on charge (5000)" });

    await provider.refund(shop, paymentIntentId, 5_000, `refund-${unique()}`);
    const nothingLeft = await refusal(provider.refund(shop, paymentIntentId, 1, `refund-${unique()}`));
    expect(nothingLeft).toBeInstanceOf(PaymentProviderError);
    expect(nothingLeft).toMatchObject({ status: 400, code: "charge_already_refunded" });
  });
});

describe("verifyEvent refuses what Stripe did not sign", () => {
  const payload = () => JSON.stringify({ id: `evt_${unique().replaceAll("-", "")}`, object: "event", type: "checkout.session.expired", data: { object: {} } });
  const sign = async (body: string, options: { secret?: string; timestamp?: number } = {}) =>
    ((await standIn("POST", "/_test/sign", { payload: body, ...options })).body as { signature: string }).signature;

  it("verifies a body signed with the webhook secret", async () => {
    const body = payload();
    expect(await provider.verifyEvent(body, await sign(body))).toMatchObject({ kind: "checkout_expired" });
  });

  it("refuses another secret's signature", async () => {
    const body = payload();
    const refused = await refusal(provider.verifyEvent(body, await sign(body, { secret: "whsec_someone_else" })));
    expect(refused).toBeInstanceOf(PaymentEventRefused);
    expect((refused as Error).message).toMatch(/No signatures found matching the expected signature/);
  });

  it("refuses a body changed after signing", async () => {
    const body = payload();
    const signature = await sign(body);
    expect(await refusal(provider.verifyEvent(body.replace("checkout.session.expired", "checkout.session.completed"), signature))).toBeInstanceOf(PaymentEventRefused);
  });

  it("refuses a missing or empty Stripe-Signature header", async () => {
    for (const missing of [null, undefined, ""]) {
      expect(await refusal(provider.verifyEvent(payload(), missing))).toBeInstanceOf(PaymentEventRefused);
    }
  });

  it("refuses a signature older than 300 seconds", async () => {
    const body = payload();
    const refused = await refusal(provider.verifyEvent(body, await sign(body, { timestamp: Math.floor(Date.now() / 1000) - 301 })));
    expect(refused).toBeInstanceOf(PaymentEventRefused);
    expect((refused as Error).message).toMatch(/Timestamp outside the tolerance zone/);
    // Within the tolerance the same secret verifies.
    expect(await provider.verifyEvent(body, await sign(body, { timestamp: Math.floor(Date.now() / 1000) - 240 }))).toMatchObject({ kind: "checkout_expired" });
  });

  it("refuses a signed body that is not JSON", async () => {
    const body = "not json";
    expect(await refusal(provider.verifyEvent(body, await sign(body)))).toBeInstanceOf(PaymentEventRefused);
  });
});

describe("verifyEvent names the events paid bookings act on", () => {
  it("checkout.session.expired is checkout_expired, on the shop's account", async () => {
    const shop = await connectedShop();
    const request = checkoutRequest(shop);
    const { sessionId } = await provider.expireCheckout(shop, (await provider.createCheckout(request)).sessionId);
    const { event, signature } = await signedEvent("checkout.session.expired", shop, await stripeObject(`/v1/checkout/sessions/${sessionId}`, shop));
    expect(await provider.verifyEvent(event, signature)).toEqual({
      id: JSON.parse(event).id,
      connectedAccount: shop,
      createdAt: JSON.parse(event).created * 1000,
      kind: "checkout_expired",
      checkout: { sessionId, url: null, status: "expired", paid: false, paymentIntentId: null, amount: 45_000, currency: "nok", reference: request.reference },
    });
  });

  it("checkout.session.completed unpaid is checkout_unpaid; the async outcomes are checkout_paid and checkout_failed", async () => {
    const shop = await connectedShop();
    const { sessionId } = await provider.createCheckout(checkoutRequest(shop));
    const session = await stripeObject(`/v1/checkout/sessions/${sessionId}`, shop);
    const kindOf = async (type: string, object: unknown) => {
      const { event, signature } = await signedEvent(type, shop, object);
      return (await provider.verifyEvent(event, signature)).kind;
    };
    const completedUnpaid = { ...session, status: "complete", payment_status: "unpaid", url: null, payment_intent: "pi_async" };
    expect(await kindOf("checkout.session.completed", completedUnpaid)).toBe("checkout_unpaid");
    expect(await kindOf("checkout.session.async_payment_succeeded", { ...completedUnpaid, payment_status: "paid" })).toBe("checkout_paid");
    expect(await kindOf("checkout.session.async_payment_failed", completedUnpaid)).toBe("checkout_failed");
  });

  it("charge.refunded is refund_updated: the newest listed refund, or without a list the payment's total", async () => {
    const { shop, paymentIntentId } = await paidCheckout(45_000);
    const first = await provider.refund(shop, paymentIntentId, 10_000, `refund-${unique()}`);
    const second = await provider.refund(shop, paymentIntentId, 5_000, `refund-${unique()}`);
    const paymentIntent = await stripeObject(`/v1/payment_intents/${paymentIntentId}`, shop);
    const refunds = [
      { ...(await stripeObject(`/v1/refunds/${second.refundId}`, shop)), created: 2_000_000_000 },
      { ...(await stripeObject(`/v1/refunds/${first.refundId}`, shop)), created: 1_999_999_000 },
    ];
    const charge = {
      id: paymentIntent.latest_charge,
      object: "charge",
      amount: 45_000,
      amount_captured: 45_000,
      amount_refunded: 15_000,
      currency: "nok",
      payment_intent: paymentIntentId,
      refunded: false,
      status: "succeeded",
    };

    const listed = await signedEvent("charge.refunded", shop, { ...charge, refunds: { object: "list", data: refunds, has_more: false } });
    expect(await provider.verifyEvent(listed.event, listed.signature)).toEqual({
      id: JSON.parse(listed.event).id,
      connectedAccount: shop,
      createdAt: JSON.parse(listed.event).created * 1000,
      kind: "refund_updated",
      refund: { refundId: second.refundId, paymentIntentId, amount: 5_000, status: "succeeded", paymentAmountRefunded: 15_000 },
    });
    const unlisted = await signedEvent("charge.refunded", shop, charge);
    expect(await provider.verifyEvent(unlisted.event, unlisted.signature)).toMatchObject({
      kind: "refund_updated",
      refund: { refundId: charge.id, paymentIntentId, amount: 15_000, status: "succeeded", paymentAmountRefunded: 15_000 },
    });
  });

  it("refund.updated is refund_updated with the refund's status", async () => {
    const { shop, paymentIntentId } = await paidCheckout();
    const { refundId } = await provider.refund(shop, paymentIntentId, 1_000, `refund-${unique()}`);
    const failedRefund = { ...(await stripeObject(`/v1/refunds/${refundId}`, shop)), status: "failed", failure_reason: "expired_or_canceled_card" };
    const { event, signature } = await signedEvent("refund.updated", shop, failedRefund);
    expect(await provider.verifyEvent(event, signature)).toMatchObject({
      connectedAccount: shop,
      kind: "refund_updated",
      refund: { refundId, paymentIntentId, amount: 1_000, status: "failed" },
    });
  });

  it("anything else is ignored, named by its type; a platform event has no connected account", async () => {
    const { event, signature } = await signedEvent("customer.created", null, { id: "cus_1", object: "customer" });
    expect(await provider.verifyEvent(event, signature)).toEqual({
      id: JSON.parse(event).id,
      connectedAccount: null,
      createdAt: JSON.parse(event).created * 1000,
      kind: "ignored",
      type: "customer.created",
    });
  });
});

describe("Connect onboarding", () => {
  it("creates a standard connected account and an onboarding link for it", async () => {
    const email = `shop-${unique()}@example.com`;
    const idempotencyKey = `account-${unique()}`;
    const { accountId } = await provider.createConnectedAccount({ email, country: "NO", idempotencyKey });
    expect(accountId).toMatch(/^acct_\w+$/);
    const { url } = await provider.onboardingLink(accountId, "https://api.example.com/stripe/refresh", "https://api.example.com/stripe/return");
    expect(url).toMatch(new RegExp(`^https://connect\\.stripe\\.com/setup/s/${accountId}/`));

    const log = (await standIn("GET", "/_test/log")).body as any[];
    expect(log.find((entry) => entry.path === "/v1/accounts" && entry.body.email === email)).toMatchObject({
      method: "POST",
      stripe_account: null,
      idempotency_key: idempotencyKey,
      body: { type: "standard", country: "NO", email },
    });
    expect(log.find((entry) => entry.path === "/v1/account_links" && entry.body.account === accountId)).toMatchObject({
      stripe_account: null,
      body: {
        account: accountId,
        type: "account_onboarding",
        refresh_url: "https://api.example.com/stripe/refresh",
        return_url: "https://api.example.com/stripe/return",
      },
    });
    // The same key answers the same account.
    expect(await provider.createConnectedAccount({ email, country: "NO", idempotencyKey })).toEqual({ accountId });
  });
});
