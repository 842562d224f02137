// A local stand-in for the few Stripe API endpoints paid bookings use, with Stripe's hosted checkout
// page and its signed webhook events, so the official `stripe` SDK runs against it without a network:
// inside workerd in the tests (vitest.config.ts starts it in the Node process that runs vitest) and
// beside `wrangler dev` (scripts/dev.mjs). Plain Node ESM so both can import it. The Worker reaches it
// by plain fetch to its origin (STRIPE_API_BASE); the SDK is pointed there with its `host`, `port` and
// `protocol` options. Bodies are form-encoded as the SDK sends them (`a[b][0][c]=...`) and parsed with
// qs; answers are JSON shaped like Stripe's objects, errors like Stripe's errors.
//   POST /v1/accounts, GET /v1/accounts/:id, POST /v1/account_links        Connect onboarding
//   POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id,
//   POST /v1/checkout/sessions/:id/expire                                  on the `Stripe-Account`
//   POST /v1/refunds, GET /v1/refunds/:id, GET /v1/payment_intents/:id     on the `Stripe-Account`
//   GET  /pay/:id    the hosted checkout page a session's `url` names: amount, a Pay button, Cancel
//   POST /pay/:id    pays the session, delivers `checkout.session.completed` to `deliverTo`, and
//                    redirects (303) to the session's success_url
//   POST /_test/sessions/:id/pay   the same payment without a browser; answers
//                                  { session, event, signature } (and delivers, as the page does)
//   POST /_test/events   { type, account?, object } -> { event, signature }: any event, signed
//   POST /_test/sign     { payload, secret?, timestamp? } -> { signature }: for refused signatures
//   POST /_test/clock    { ahead_seconds } -> { now }: runs the stand-in's clock ahead (benchmarks)
//   POST /_test/refunds/:id/fail?stripe_account=…  the refund fails (the bank returned it); answers
//                                  { refund, event, signature } with the signed refund.failed
//   GET  /_test/ledger?stripe_account=…  every payment intent of the account: what was paid, what
//                                  went back, its refunds (what the money truly did)
//   POST /_test/accounts/:id/onboard   marks an account onboarded (charges and payouts enabled)
//   GET  /_test/log[?stripe_account=acct_…]  the /v1 requests received, oldest first
// Every object is kept per Stripe account as Stripe keeps it: a session or refund made with a
// `Stripe-Account` header is "No such …" without it. An `Idempotency-Key` is honoured per account:
// the same key with the same request answers the first answer again (with `Idempotent-Replayed`),
// with other parameters a 400 idempotency_error. Not covered: anything else of the API, list
// endpoints, `expand`, prices by id (line items need `price_data`), live mode, sessions lapsing on
// their own at `expires_at`, events other than the payment's being sent by themselves.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import qs from "qs";
import Stripe from "stripe";

/** @typedef {Record<string, any>} Params */
/** @typedef {Record<string, any>} StripeObject */
/** @typedef {{ status: number, body: unknown }} Answer */
/**
 * @typedef {object} LoggedStripeRequest
 * @property {string} method
 * @property {string} path
 * @property {string | null} stripe_account
 * @property {string | null} idempotency_key
 * @property {string | null} stripe_version
 * @property {Params} body
 */

class StripeFailure extends Error {
  /** @param {number} status @param {Record<string, unknown>} error */
  constructor(status, error) {
    super(String(error.message));
    this.status = status;
    this.error = error;
  }
}

/** The account of requests made without a `Stripe-Account` header. */
const PLATFORM = "";
/** Stripe's bounds on a checkout session's `expires_at`, in seconds from its creation. */
const MIN_SESSION_LIFETIME = 30 * 60;
const MAX_SESSION_LIFETIME = 24 * 3600;

/** @param {string} prefix */
const randomId = (prefix, length = 24) => `${prefix}_${randomBytes(length).toString("base64url").replace(/[-_]/g, "").slice(0, length)}`;
/** @param {string} account @param {string} id */
const scoped = (account, id) => `${account}\n${id}`;

/** Stripe's `resource_missing` error, as for a wrong id or an object of another account. */
const noSuch = (/** @type {string} */ kind, /** @type {string} */ id, /** @type {string} */ param) =>
  new StripeFailure(404, { type: "invalid_request_error", code: "resource_missing", param, message: `No such ${kind}: '${id}'` });
const missingParam = (/** @type {string} */ param) =>
  new StripeFailure(400, { type: "invalid_request_error", code: "parameter_missing", param, message: `Missing required param: ${param}.` });
const invalid = (/** @type {string} */ message, /** @type {string=} */ param, /** @type {string=} */ code) =>
  new StripeFailure(400, { type: "invalid_request_error", message, ...(param ? { param } : {}), ...(code ? { code } : {}) });

/** @param {Params} params @param {string} name */
function required(params, name) {
  const value = params[name];
  if (value === undefined || value === "") throw missingParam(name);
  return value;
}

/** @param {unknown} value @param {string} param */
function integer(value, param) {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw invalid(`Invalid integer: ${String(value)}`, param);
  return number;
}

/** @param {string} text */
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** Minor units as a person reads them, with the currency's code: 90000 nok is "NOK 900.00", 500 jpy "JPY 500". */
function formatAmount(/** @type {number} */ amount, /** @type {string} */ currency) {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase(), currencyDisplay: "code" });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/**
 * The objects of one stand-in: accounts, and per Stripe account its sessions, payment intents and refunds.
 * @param {{ origin: () => string, now: () => number }} where  now: the stand-in's clock, in Unix seconds
 */
function createStore({ origin, now }) {
  /** @type {Map<string, StripeObject>} */
  const accounts = new Map();
  /** Sessions, payment intents and refunds by `${stripe account}\n${id}`. @type {Map<string, StripeObject>} */
  const sessions = new Map();
  /** @type {Map<string, StripeObject>} */
  const paymentIntents = new Map();
  /** @type {Map<string, StripeObject>} */
  const refunds = new Map();
  /** Which account a session is on, for the checkout page and the test controls, which name no account. @type {Map<string, string>} */
  const sessionAccount = new Map();
  /** What Stripe keeps of a session but does not answer with it: line item names, payment intent data. @type {WeakMap<StripeObject, { names: string[], paymentIntentMetadata: Params }>} */
  const sessionExtras = new WeakMap();

  function createAccount(/** @type {Params} */ params) {
    const id = randomId("acct", 16);
    const account = {
      id,
      object: "account",
      type: params.type ?? "standard",
      country: params.country ?? "NO",
      email: params.email ?? null,
      default_currency: (params.default_currency ?? "nok").toLowerCase(),
      business_profile: params.business_profile ?? {},
      capabilities: {},
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      metadata: params.metadata ?? {},
      created: now(),
    };
    accounts.set(id, account);
    return account;
  }

  function account(/** @type {string} */ id) {
    const found = accounts.get(id);
    if (!found) throw noSuch("account", id, "account");
    return found;
  }

  function createAccountLink(/** @type {Params} */ params) {
    const id = required(params, "account");
    account(id);
    required(params, "type");
    if (!["account_onboarding", "account_update"].includes(params.type)) throw invalid(`Invalid type: ${params.type}`, "type");
    return {
      object: "account_link",
      created: now(),
      expires_at: now() + 300,
      url: `https://connect.stripe.com/setup/s/${id}/${randomBytes(9).toString("base64url")}`,
    };
  }

  /** @param {unknown} value @param {number} created */
  function expiresAt(value, created) {
    if (value === undefined) return created + MAX_SESSION_LIFETIME;
    const at = integer(value, "expires_at");
    if (at < created + MIN_SESSION_LIFETIME) throw invalid("The `expires_at` timestamp must be at least 30 minutes from session creation.", "expires_at");
    if (at > created + MAX_SESSION_LIFETIME) throw invalid("The `expires_at` timestamp must be less than 24 hours from session creation.", "expires_at");
    return at;
  }

  function createSession(/** @type {string} */ stripeAccount, /** @type {Params} */ params) {
    if (stripeAccount !== PLATFORM) account(stripeAccount);
    const mode = required(params, "mode");
    if (mode !== "payment") throw invalid(`The stand-in only knows mode "payment", not "${mode}"`, "mode");
    /** @type {Params[]} */
    const lineItems = Object.values(required(params, "line_items"));
    let total = 0;
    /** @type {string | undefined} */
    let currency;
    lineItems.forEach((item, index) => {
      const priceData = item.price_data;
      if (!priceData) throw invalid("The stand-in knows no Price objects: give line_items[].price_data", `line_items[${index}][price_data]`);
      const quantity = integer(item.quantity ?? 1, `line_items[${index}][quantity]`);
      total += integer(priceData.unit_amount, `line_items[${index}][price_data][unit_amount]`) * quantity;
      const itemCurrency = String(required(priceData, "currency")).toLowerCase();
      if (currency && currency !== itemCurrency) throw invalid("All line items must use the same currency", `line_items[${index}][price_data][currency]`);
      currency = itemCurrency;
    });
    const id = randomId("cs_test", 58);
    const created = now();
    const session = {
      id,
      object: "checkout.session",
      amount_subtotal: total,
      amount_total: total,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      created,
      currency,
      customer: null,
      customer_email: params.customer_email ?? null,
      expires_at: expiresAt(params.expires_at, created),
      livemode: false,
      locale: params.locale ?? null,
      metadata: params.metadata ?? {},
      mode,
      payment_intent: /** @type {string | null} */ (null),
      payment_status: "unpaid",
      status: "open",
      success_url: params.success_url ?? null,
      url: /** @type {string | null} */ (`${origin()}/pay/${id}`),
    };
    sessions.set(scoped(stripeAccount, id), session);
    sessionAccount.set(id, stripeAccount);
    sessionExtras.set(session, {
      names: lineItems.map((item) => String(item.price_data.product_data?.name ?? "")),
      paymentIntentMetadata: params.payment_intent_data?.metadata ?? {},
    });
    return session;
  }

  function session(/** @type {string} */ stripeAccount, /** @type {string} */ id) {
    const found = sessions.get(scoped(stripeAccount, id));
    if (!found) throw noSuch("checkout.session", id, "session");
    return found;
  }

  /** A session wherever it lives, for callers that name no account (the checkout page, the controls). */
  function anySession(/** @type {string} */ id) {
    const stripeAccount = sessionAccount.get(id);
    if (stripeAccount === undefined) throw noSuch("checkout.session", id, "session");
    return { stripeAccount, session: session(stripeAccount, id) };
  }

  function expireSession(/** @type {string} */ stripeAccount, /** @type {string} */ id) {
    const found = session(stripeAccount, id);
    if (found.status !== "open") {
      throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${found.status}\`.`);
    }
    Object.assign(found, { status: "expired", url: null });
    return found;
  }

  /** The customer paid: the session completes and its account gets the payment intent. */
  function paySession(/** @type {string} */ id) {
    const { stripeAccount, session: found } = anySession(id);
    if (found.status !== "open") throw invalid(`The stand-in can only pay an open session; this one is ${found.status}.`);
    const paymentIntent = {
      id: randomId("pi", 24),
      object: "payment_intent",
      amount: found.amount_total,
      amount_received: found.amount_total,
      amount_refunded: 0,
      currency: found.currency,
      latest_charge: randomId("ch", 24),
      status: "succeeded",
      created: now(),
      livemode: false,
      metadata: sessionExtras.get(found)?.paymentIntentMetadata ?? {},
    };
    paymentIntents.set(scoped(stripeAccount, paymentIntent.id), paymentIntent);
    Object.assign(found, { status: "complete", payment_status: "paid", payment_intent: paymentIntent.id, url: null });
    return { stripeAccount, session: found };
  }

  function paymentIntent(/** @type {string} */ stripeAccount, /** @type {string} */ id) {
    const found = paymentIntents.get(scoped(stripeAccount, id));
    if (!found) throw noSuch("payment_intent", id, "payment_intent");
    return found;
  }

  /** Refunds succeed at once, as card refunds in test mode do; the payment intent keeps the running total. */
  function createRefund(/** @type {string} */ stripeAccount, /** @type {Params} */ params) {
    const id = required(params, "payment_intent");
    const refunded = paymentIntent(stripeAccount, id);
    const left = refunded.amount_received - refunded.amount_refunded;
    if (left === 0) throw invalid(`Charge ${refunded.latest_charge} has already been refunded.`, undefined, "charge_already_refunded");
    const amount = params.amount === undefined ? left : integer(params.amount, "amount");
    if (amount === 0) throw invalid("Refund amount must be greater than zero.", "amount");
    if (amount > left) throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, "amount");
    refunded.amount_refunded += amount;
    const refund = {
      id: randomId("re", 24),
      object: "refund",
      amount,
      charge: refunded.latest_charge,
      created: now(),
      currency: refunded.currency,
      metadata: params.metadata ?? {},
      payment_intent: id,
      reason: params.reason ?? null,
      status: "succeeded",
    };
    refunds.set(scoped(stripeAccount, refund.id), refund);
    return refund;
  }

  /** The bank gave a refund back: it fails, and the payment intent has that much less refunded again. */
  function failRefund(/** @type {string} */ stripeAccount, /** @type {string} */ id) {
    const found = refund(stripeAccount, id);
    if (found.status === "failed") throw invalid(`Refund ${id} has already failed.`);
    paymentIntent(stripeAccount, found.payment_intent).amount_refunded -= found.amount;
    Object.assign(found, { status: "failed", failure_reason: "expired_or_canceled_card" });
    return found;
  }

  /** What the account holds: every payment intent with what was paid and what went back. */
  function ledger(/** @type {string} */ stripeAccount) {
    return [...paymentIntents.entries()]
      .filter(([key]) => key.startsWith(`${stripeAccount}\n`))
      .map(([, pi]) => ({
        payment_intent: pi.id,
        booking_id: pi.metadata?.booking_id ?? null,
        amount_received: pi.amount_received,
        amount_refunded: pi.amount_refunded,
        refunds: [...refunds.values()].filter((r) => r.payment_intent === pi.id).map((r) => ({ id: r.id, amount: r.amount, status: r.status })),
      }));
  }

  function refund(/** @type {string} */ stripeAccount, /** @type {string} */ id) {
    const found = refunds.get(scoped(stripeAccount, id));
    if (!found) throw noSuch("refund", id, "id");
    return found;
  }

  /** @type {[string, RegExp, (stripeAccount: string, params: Params, id: string) => StripeObject, "platform"?][]} */
  const routes = [
    ["POST", /^\/v1\/accounts$/, (_, params) => createAccount(params), "platform"],
    ["GET", /^\/v1\/accounts\/([^/]+)$/, (_, __, id) => account(id), "platform"],
    ["POST", /^\/v1\/account_links$/, (_, params) => createAccountLink(params), "platform"],
    ["POST", /^\/v1\/checkout\/sessions$/, createSession],
    ["GET", /^\/v1\/checkout\/sessions\/([^/]+)$/, (stripeAccount, _, id) => session(stripeAccount, id)],
    ["POST", /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (stripeAccount, _, id) => expireSession(stripeAccount, id)],
    ["POST", /^\/v1\/refunds$/, createRefund],
    ["GET", /^\/v1\/refunds\/([^/]+)$/, (stripeAccount, _, id) => refund(stripeAccount, id)],
    ["GET", /^\/v1\/payment_intents\/([^/]+)$/, (stripeAccount, _, id) => paymentIntent(stripeAccount, id)],
  ];

  /** The /v1 API: one request to one answer, or a StripeFailure. */
  function api(/** @type {string} */ method, /** @type {string} */ path, /** @type {string} */ stripeAccount, /** @type {Params} */ params) {
    for (const [routeMethod, pattern, serve, scope] of routes) {
      const match = method === routeMethod ? path.match(pattern) : null;
      if (!match) continue;
      if (scope === "platform" && stripeAccount !== PLATFORM) throw invalid("This endpoint does not allow impersonation as a Connected Account.");
      return serve(stripeAccount, params, decodeURIComponent(match[1] ?? ""));
    }
    throw new StripeFailure(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${method}: ${path}). The Stripe stand-in (scripts/stripe-stand-in.mjs) does not serve it.`,
    });
  }

  return { api, account, anySession, paySession, failRefund, ledger, lineItemNames: (/** @type {StripeObject} */ s) => sessionExtras.get(s)?.names ?? [] };
}

/**
 * Stripe's events and their `Stripe-Signature`, made with the SDK's own helper (sync in Node).
 * @param {string | undefined} webhookSecret
 * @param {() => number} now  the stand-in's clock, in Unix seconds: a signature's timestamp
 */
function createSigner(webhookSecret, now) {
  /** @param {string} payload @param {{ secret?: string, timestamp?: number }} [options] */
  function sign(payload, { secret = webhookSecret, timestamp } = {}) {
    if (!secret) throw invalid("The stand-in was started without a webhookSecret; give `secret`.", "secret");
    return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: timestamp ?? now() });
  }

  /** An Event as Stripe sends it; `account` only on a connected account's events, as Stripe does. */
  function event(/** @type {string} */ type, /** @type {string | null} */ account, /** @type {StripeObject} */ object) {
    return JSON.stringify({
      id: randomId("evt", 24),
      object: "event",
      ...(account ? { account } : {}),
      api_version: Stripe.API_VERSION,
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
  }

  /** @param {string} type @param {string | null} account @param {StripeObject} object */
  const signedEvent = (type, account, object) => {
    const payload = event(type, account, object);
    return { event: payload, signature: webhookSecret ? sign(payload) : null };
  };

  return { sign, signedEvent };
}

/** @param {import("node:http").IncomingMessage} req */
const readBody = (req) =>
  new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/** As Stripe parses form bodies and query strings: nested brackets, indexed arrays. */
const parseForm = (/** @type {string} */ text) => qs.parse(text, { depth: 10, arrayLimit: 100 });

/** @param {import("node:http").IncomingMessage} req @param {string} name */
const header = (req, name) => {
  const value = req.headers[name];
  return value === undefined ? null : String(value);
};

/** @param {import("node:http").ServerResponse} res @param {Answer} answer @param {Record<string, string>} [headers] */
function send(res, { status, body }, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", "request-id": randomId("req", 14), ...headers });
  res.end(JSON.stringify(body));
}

/** @param {import("node:http").ServerResponse} res @param {number} status @param {string} title @param {string} main */
function sendPage(res, status, title, main) {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main>
${main}
</main></body>
</html>
`);
}

/** @param {unknown} error @returns {Answer} */
const failed = (error) =>
  error instanceof StripeFailure
    ? { status: error.status, body: { error: error.error } }
    : { status: 500, body: { error: { type: "api_error", message: String(error) } } };

/** @param {string} text */
function parseJson(text) {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw invalid("The stand-in's /_test controls take a JSON body.");
  }
}

/**
 * Starts a stand-in on 127.0.0.1. Each has its own objects. The server does not keep the process
 * alive (tests end when vitest is done, not when it is), so a caller with nothing else running holds it.
 * @param {{ port?: number, webhookSecret?: string, deliverTo?: string }} [options]
 *   webhookSecret signs events (`whsec_…`, the Worker's STRIPE_WEBHOOK_SECRET); deliverTo is the URL
 *   paid sessions' `checkout.session.completed` is POSTed to, e.g. http://127.0.0.1:8787/payments/stripe/events.
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function startStripeStandIn({ port = 0, webhookSecret, deliverTo } = {}) {
  if (deliverTo && !webhookSecret) throw new Error("startStripeStandIn: deliverTo needs a webhookSecret to sign the events it delivers");
  let origin = "";
  // Seconds the stand-in's clock runs ahead (POST /_test/clock): a benchmark that moves its Worker's
  // clock past payment windows moves Stripe's with it, so signatures and session times still agree.
  let clockAheadSeconds = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockAheadSeconds;
  const store = createStore({ origin: () => origin, now });
  const signer = createSigner(webhookSecret, now);
  /** @type {LoggedStripeRequest[]} */
  const log = [];
  /** First answers by `${stripe account}\n${idempotency key}`. @type {Map<string, { request: string, answer: Answer }>} */
  const idempotent = new Map();

  /** Stripe's webhook delivery, once: a Worker that is down or refuses it is logged, never retried. */
  async function deliver(/** @type {{ event: string, signature: string | null }} */ { event, signature }) {
    if (!deliverTo || !signature) return;
    try {
      const res = await fetch(deliverTo, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature, "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
        body: event,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      if (!res.ok) console.warn(`stripe stand-in: ${deliverTo} answered ${res.status} to ${JSON.parse(event).type}`);
    } catch (error) {
      console.warn(`stripe stand-in: could not deliver ${JSON.parse(event).type} to ${deliverTo}: ${error instanceof Error ? error.message : error}`);
    }
  }

  /** Pays a session and delivers its event; what both the checkout page and the test control do. */
  async function pay(/** @type {string} */ id) {
    const { stripeAccount, session } = store.paySession(id);
    const signed = signer.signedEvent("checkout.session.completed", stripeAccount || null, session);
    await deliver(signed);
    return { session, ...signed };
  }

  /** @param {string} method @param {string} path @param {URL} url @param {string} text @returns {Promise<Answer>} */
  async function control(method, path, url, text) {
    /** @type {RegExpMatchArray | null} */
    let match;
    if (method === "GET" && path === "/_test/log") {
      const stripeAccount = url.searchParams.get("stripe_account");
      return { status: 200, body: stripeAccount === null ? log : log.filter((entry) => entry.stripe_account === stripeAccount) };
    }
    if (method === "POST" && (match = path.match(/^\/_test\/sessions\/([^/]+)\/pay$/))) return { status: 200, body: await pay(decodeURIComponent(match[1])) };
    if (method === "POST" && (match = path.match(/^\/_test\/accounts\/([^/]+)\/onboard$/))) {
      return { status: 200, body: Object.assign(store.account(decodeURIComponent(match[1])), { charges_enabled: true, payouts_enabled: true, details_submitted: true }) };
    }
    if (method === "POST" && (match = path.match(/^\/_test\/refunds\/([^/]+)\/fail$/))) {
      const stripeAccount = url.searchParams.get("stripe_account") ?? PLATFORM;
      const failed = store.failRefund(stripeAccount, decodeURIComponent(match[1]));
      return { status: 200, body: { refund: failed, ...signer.signedEvent("refund.failed", stripeAccount || null, failed) } };
    }
    if (method === "GET" && path === "/_test/ledger") return { status: 200, body: store.ledger(url.searchParams.get("stripe_account") ?? PLATFORM) };
    if (method === "POST" && path === "/_test/events") {
      const { type, account = null, object } = parseJson(text);
      if (typeof type !== "string" || !type) throw missingParam("type");
      if (!object || typeof object !== "object") throw missingParam("object");
      return { status: 200, body: signer.signedEvent(type, account, object) };
    }
    if (method === "POST" && path === "/_test/clock") {
      const { ahead_seconds: ahead } = parseJson(text);
      if (!Number.isInteger(ahead) || ahead < 0) throw invalid("ahead_seconds takes a whole number of seconds, 0 or more.", "ahead_seconds");
      clockAheadSeconds = ahead;
      return { status: 200, body: { now: now() } };
    }
    if (method === "POST" && path === "/_test/sign") {
      const { payload, secret, timestamp } = parseJson(text);
      if (typeof payload !== "string") throw missingParam("payload");
      return { status: 200, body: { signature: signer.sign(payload, { secret, timestamp }) } };
    }
    throw new StripeFailure(404, { type: "invalid_request_error", message: `The Stripe stand-in has no control ${method} ${path}` });
  }

  /** Stripe's hosted checkout page, as plain as a form can be: what is paid, Pay, Cancel. */
  async function checkoutPage(/** @type {import("node:http").ServerResponse} */ res, /** @type {string} */ method, /** @type {string} */ id) {
    /** @type {StripeObject} */
    let session;
    try {
      ({ session } = store.anySession(id));
    } catch {
      return sendPage(res, 404, "Test checkout", `<h1>Test checkout</h1>\n<p>There is no checkout session ${escapeHtml(id)}.</p>`);
    }
    const successUrl = session.success_url ? String(session.success_url).replaceAll("{CHECKOUT_SESSION_ID}", session.id) : null;
    if (method === "POST" && session.status === "open") {
      await pay(id);
      if (!successUrl) return sendPage(res, 200, "Test checkout", "<h1>Test checkout</h1>\n<p>Paid.</p>");
      res.writeHead(303, { location: successUrl });
      return res.end();
    }
    // A second press of Pay (back button, double submit) lands where the first did, paying nothing twice.
    if (method === "POST" && session.status === "complete" && successUrl) {
      res.writeHead(303, { location: successUrl });
      return res.end();
    }
    if (session.status !== "open") {
      const link = session.status === "complete" && successUrl ? `\n<p><a href="${escapeHtml(successUrl)}">Continue</a></p>` : "";
      return sendPage(
        res,
        session.status === "expired" ? 410 : 200,
        "Test checkout",
        `<h1>Test checkout</h1>\n<p>This checkout is ${session.status === "complete" ? "already paid" : "expired"}.</p>${link}`,
      );
    }
    const names = store.lineItemNames(session).filter(Boolean);
    const details = [
      ...names.map((name) => `<dt>Item</dt><dd>${escapeHtml(name)}</dd>`),
      `<dt>Amount</dt><dd><data value="${session.amount_total}">${escapeHtml(formatAmount(session.amount_total, session.currency))}</data></dd>`,
      ...(session.customer_email ? [`<dt>Email</dt><dd>${escapeHtml(session.customer_email)}</dd>`] : []),
    ];
    const cancel = session.cancel_url ? `\n<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : "";
    sendPage(
      res,
      200,
      "Test checkout",
      `<h1>Test checkout</h1>
<p>A stand-in for Stripe's checkout page: no card is asked for and no money moves.</p>
<dl>${details.join("")}</dl>
<form method="post" action="/pay/${encodeURIComponent(session.id)}"><button type="submit">Pay</button></form>${cancel}`,
    );
  }

  /** @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res */
  async function handle(req, res) {
    const url = new URL(req.url ?? "/", "http://stripe.stand-in");
    const method = req.method ?? "GET";
    const path = url.pathname;
    const text = await readBody(req);
    const pageMatch = path.match(/^\/pay\/([^/]+)$/);
    if (pageMatch && (method === "GET" || method === "POST")) return checkoutPage(res, method, decodeURIComponent(pageMatch[1]));
    if (path.startsWith("/_test/")) {
      try {
        return send(res, await control(method, path, url, text));
      } catch (error) {
        return send(res, failed(error));
      }
    }
    const params = method === "GET" ? parseForm(url.search.slice(1)) : parseForm(text);
    const stripeAccount = header(req, "stripe-account");
    const idempotencyKey = header(req, "idempotency-key");
    log.push({ method, path, stripe_account: stripeAccount, idempotency_key: idempotencyKey, stripe_version: header(req, "stripe-version"), body: params });

    if (!/^Bearer (sk|rk)_test_\w+$/.test(header(req, "authorization") ?? "")) {
      return send(res, {
        status: 401,
        body: { error: { type: "invalid_request_error", message: "You did not provide an API key (the stand-in takes Bearer sk_test_…)." } },
      });
    }
    const account = stripeAccount ?? PLATFORM;
    const request = JSON.stringify([method, path, params]);
    const replayKey = idempotencyKey && method === "POST" ? scoped(account, idempotencyKey) : undefined;
    const first = replayKey ? idempotent.get(replayKey) : undefined;
    if (first && first.request !== request) {
      return send(
        res,
        failed(
          new StripeFailure(400, {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          }),
        ),
      );
    }
    // Stripe names the account, version and key of the request in its answer's headers.
    const echoed = Object.fromEntries(
      Object.entries({ "stripe-account": stripeAccount, "stripe-version": header(req, "stripe-version"), "idempotency-key": idempotencyKey }).filter(
        (entry) => entry[1] !== null,
      ),
    );
    if (first) return send(res, first.answer, { ...echoed, "idempotent-replayed": "true" });
    /** @type {Answer} */
    let answer;
    try {
      answer = { status: 200, body: store.api(method, path, account, params) };
    } catch (error) {
      answer = failed(error);
    }
    // As Stripe: a request that failed validation saves no result, so its key can be used again;
    // a success is answered again, as it was then (the session may have changed since).
    if (replayKey && answer.status === 200) idempotent.set(replayKey, { request, answer: structuredClone(answer) });
    send(res, answer, echoed);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => send(res, failed(error)));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(undefined));
  });
  server.unref();
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  return {
    origin,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
