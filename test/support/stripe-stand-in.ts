// SPIKE (branch stripe-spike): a local stand-in for the few Stripe API endpoints the paid bookings
// feature will use, so the official `stripe` SDK can be exercised inside workerd without a network.
// It runs in the Node process that runs vitest (vitest.config.ts starts it, like the test receiver)
// and is reached from the Worker by plain fetch to its origin, which the tests get as the
// TEST_STRIPE binding (`http://127.0.0.1:<port>`); the SDK is pointed at it with its `host`, `port`
// and `protocol` options. Bodies are form-encoded as the SDK sends them (`a[b][0][c]=...`) and
// parsed with qs; answers are JSON shaped like Stripe's objects, errors like Stripe's errors.
//   POST /v1/accounts, GET /v1/accounts/:id, POST /v1/account_links        Connect onboarding
//   POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id,
//   POST /v1/checkout/sessions/:id/expire                                  on the `Stripe-Account`
//   POST /v1/refunds, GET /v1/refunds/:id                                  on the `Stripe-Account`
//   POST /_test/sessions/:id/pay        completes an open session as paid (status complete,
//                                       payment_status paid, a payment_intent) and answers it
//   POST /_test/accounts/:id/onboard    marks an account onboarded (charges and payouts enabled)
//   GET  /_test/log[?stripe_account=acct_…]  the /v1 requests received, oldest first
// Every object is kept per Stripe account as Stripe keeps it: a session or refund made with a
// `Stripe-Account` header is "No such …" without it. An `Idempotency-Key` is honoured per account:
// the same key with the same request answers the first answer again (with `Idempotent-Replayed`),
// with other parameters a 400 idempotency_error. Not covered: anything else of the API, list
// endpoints, `expand`, prices by id (line items need `price_data`), live mode.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import qs from "qs";

type Params = Record<string, any>;
type StripeObject = Record<string, any>;

export interface LoggedStripeRequest {
  method: string;
  path: string;
  stripe_account: string | null;
  idempotency_key: string | null;
  stripe_version: string | null;
  body: Params;
}

interface Answer {
  status: number;
  body: unknown;
}

class StripeFailure extends Error {
  constructor(readonly status: number, readonly error: Record<string, unknown>) {
    super(String(error.message));
  }
}

const PLATFORM = "";
const now = () => Math.floor(Date.now() / 1000);
const randomId = (prefix: string, length = 24) => `${prefix}_${randomBytes(length).toString("base64url").replace(/[-_]/g, "").slice(0, length)}`;

/** Stripe's `resource_missing` error, as for a wrong id or an object of another account. */
const noSuch = (kind: string, id: string, param: string) =>
  new StripeFailure(404, { type: "invalid_request_error", code: "resource_missing", param, message: `No such ${kind}: '${id}'` });
const missingParam = (param: string) =>
  new StripeFailure(400, { type: "invalid_request_error", code: "parameter_missing", param, message: `Missing required param: ${param}.` });
const invalid = (message: string, param?: string, code?: string) =>
  new StripeFailure(400, { type: "invalid_request_error", message, ...(param ? { param } : {}), ...(code ? { code } : {}) });

const accounts = new Map<string, StripeObject>();
/** Sessions, payment intents and refunds by `${stripe account}\n${id}`. */
const sessions = new Map<string, StripeObject>();
const paymentIntents = new Map<string, StripeObject>();
const refunds = new Map<string, StripeObject>();
/** First answers by `${stripe account}\n${idempotency key}`. */
const idempotent = new Map<string, { request: string; answer: Answer }>();
const log: LoggedStripeRequest[] = [];

const scoped = (account: string, id: string) => `${account}\n${id}`;

function required(params: Params, name: string) {
  const value = params[name];
  if (value === undefined || value === "") throw missingParam(name);
  return value;
}

function integer(value: unknown, param: string) {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw invalid(`Invalid integer: ${String(value)}`, param);
  return number;
}

function createAccount(params: Params): StripeObject {
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

function account(id: string) {
  const found = accounts.get(id);
  if (!found) throw noSuch("account", id, "account");
  return found;
}

function createAccountLink(params: Params): StripeObject {
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

function createSession(stripeAccount: string, params: Params): StripeObject {
  if (stripeAccount !== PLATFORM) account(stripeAccount);
  const mode = required(params, "mode");
  if (mode !== "payment") throw invalid(`The stand-in only knows mode "payment", not "${mode}"`, "mode");
  const lineItems: Params[] = Object.values(required(params, "line_items"));
  let total = 0;
  let currency: string | undefined;
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
    expires_at: params.expires_at === undefined ? created + 24 * 3600 : integer(params.expires_at, "expires_at"),
    livemode: false,
    locale: params.locale ?? null,
    metadata: params.metadata ?? {},
    mode,
    payment_intent: null as string | null,
    payment_status: "unpaid",
    status: "open",
    success_url: params.success_url ?? null,
    url: `https://checkout.stripe.com/c/pay/${id}`,
  };
  sessions.set(scoped(stripeAccount, id), session);
  return session;
}

function session(stripeAccount: string, id: string) {
  const found = sessions.get(scoped(stripeAccount, id));
  if (!found) throw noSuch("checkout.session", id, "session");
  return found;
}

function expireSession(stripeAccount: string, id: string) {
  const found = session(stripeAccount, id);
  if (found.status !== "open") {
    throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${found.status}\`.`);
  }
  Object.assign(found, { status: "expired", url: null });
  return found;
}

/** Test control: the customer paid. The session's account also gets the payment intent. */
function paySession(id: string) {
  const entry = [...sessions.entries()].find(([key]) => key.endsWith(`\n${id}`));
  if (!entry) throw noSuch("checkout.session", id, "session");
  const [key, found] = entry;
  if (found.status !== "open") throw invalid(`The stand-in can only pay an open session; this one is ${found.status}.`);
  const stripeAccount = key.slice(0, key.indexOf("\n"));
  const paymentIntent = {
    id: randomId("pi", 24),
    object: "payment_intent",
    amount: found.amount_total,
    amount_received: found.amount_total,
    currency: found.currency,
    latest_charge: randomId("ch", 24),
    status: "succeeded",
    created: now(),
    livemode: false,
    metadata: {},
    amount_refunded: 0,
  };
  paymentIntents.set(scoped(stripeAccount, paymentIntent.id), paymentIntent);
  Object.assign(found, { status: "complete", payment_status: "paid", payment_intent: paymentIntent.id, url: null });
  return found;
}

function createRefund(stripeAccount: string, params: Params): StripeObject {
  const id = required(params, "payment_intent");
  const paymentIntent = paymentIntents.get(scoped(stripeAccount, id));
  if (!paymentIntent) throw noSuch("payment_intent", id, "payment_intent");
  const left = paymentIntent.amount - paymentIntent.amount_refunded;
  if (left === 0) throw invalid(`Charge ${paymentIntent.latest_charge} has already been refunded.`, undefined, "charge_already_refunded");
  const amount = params.amount === undefined ? left : integer(params.amount, "amount");
  if (amount === 0) throw invalid("Refund amount must be greater than zero.", "amount");
  if (amount > left) {
    throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, "amount");
  }
  paymentIntent.amount_refunded += amount;
  const refund = {
    id: randomId("re", 24),
    object: "refund",
    amount,
    charge: paymentIntent.latest_charge,
    created: now(),
    currency: paymentIntent.currency,
    metadata: params.metadata ?? {},
    payment_intent: id,
    reason: params.reason ?? null,
    status: "succeeded",
  };
  refunds.set(scoped(stripeAccount, refund.id), refund);
  return refund;
}

function refund(stripeAccount: string, id: string) {
  const found = refunds.get(scoped(stripeAccount, id));
  if (!found) throw noSuch("refund", id, "id");
  return found;
}

const ROUTES: [string, RegExp, (stripeAccount: string, params: Params, id: string) => StripeObject, "platform"?][] = [
  ["POST", /^\/v1\/accounts$/, (_, params) => createAccount(params), "platform"],
  ["GET", /^\/v1\/accounts\/([^/]+)$/, (_, __, id) => account(id), "platform"],
  ["POST", /^\/v1\/account_links$/, (_, params) => createAccountLink(params), "platform"],
  ["POST", /^\/v1\/checkout\/sessions$/, createSession],
  ["GET", /^\/v1\/checkout\/sessions\/([^/]+)$/, (stripeAccount, _, id) => session(stripeAccount, id)],
  ["POST", /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (stripeAccount, _, id) => expireSession(stripeAccount, id)],
  ["POST", /^\/v1\/refunds$/, createRefund],
  ["GET", /^\/v1\/refunds\/([^/]+)$/, (stripeAccount, _, id) => refund(stripeAccount, id)],
];

/** The /v1 API: one request to one answer, or a StripeFailure. */
function api(method: string, path: string, stripeAccount: string, params: Params): StripeObject {
  for (const [routeMethod, pattern, serve, scope] of ROUTES) {
    const match = method === routeMethod ? path.match(pattern) : null;
    if (!match) continue;
    if (scope === "platform" && stripeAccount !== PLATFORM) throw invalid("This endpoint does not allow impersonation as a Connected Account.");
    return serve(stripeAccount, params, decodeURIComponent(match[1] ?? ""));
  }
  throw new StripeFailure(404, {
    type: "invalid_request_error",
    message: `Unrecognized request URL (${method}: ${path}). The Stripe stand-in (test/support/stripe-stand-in.ts) does not serve it.`,
  });
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/** As Stripe parses form bodies and query strings: nested brackets, indexed arrays. */
const parse = (text: string): Params => qs.parse(text, { depth: 10, arrayLimit: 100 });

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return value === undefined ? null : String(value);
};

function send(res: ServerResponse, { status, body }: Answer, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "request-id": randomId("req", 14), ...headers });
  res.end(JSON.stringify(body));
}

const failed = (error: unknown): Answer =>
  error instanceof StripeFailure ? { status: error.status, body: { error: error.error } } : { status: 500, body: { error: { type: "api_error", message: String(error) } } };

function control(method: string, path: string, url: URL): Answer {
  let match: RegExpMatchArray | null;
  if (method === "GET" && path === "/_test/log") {
    const stripeAccount = url.searchParams.get("stripe_account");
    return { status: 200, body: stripeAccount === null ? log : log.filter((entry) => entry.stripe_account === stripeAccount) };
  }
  if (method === "POST" && (match = path.match(/^\/_test\/sessions\/([^/]+)\/pay$/))) return { status: 200, body: paySession(match[1]) };
  if (method === "POST" && (match = path.match(/^\/_test\/accounts\/([^/]+)\/onboard$/))) {
    return { status: 200, body: Object.assign(account(match[1]), { charges_enabled: true, payouts_enabled: true, details_submitted: true }) };
  }
  throw new StripeFailure(404, { type: "invalid_request_error", message: `The Stripe stand-in has no control ${method} ${path}` });
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://stripe.stand-in");
  const method = req.method ?? "GET";
  const path = url.pathname;
  const text = await readBody(req);
  if (path.startsWith("/_test/")) {
    try {
      return send(res, control(method, path, url));
    } catch (error) {
      return send(res, failed(error));
    }
  }
  const params = method === "GET" ? parse(url.search.slice(1)) : parse(text);
  const stripeAccount = header(req, "stripe-account");
  const idempotencyKey = header(req, "idempotency-key");
  log.push({ method, path, stripe_account: stripeAccount, idempotency_key: idempotencyKey, stripe_version: header(req, "stripe-version"), body: params });

  if (!/^Bearer (sk|rk)_test_\w+$/.test(header(req, "authorization") ?? "")) {
    return send(res, { status: 401, body: { error: { type: "invalid_request_error", message: "You did not provide an API key (the stand-in takes Bearer sk_test_…)." } } });
  }
  const account = stripeAccount ?? PLATFORM;
  const request = JSON.stringify([method, path, params]);
  const replayKey = idempotencyKey && method === "POST" ? scoped(account, idempotencyKey) : undefined;
  const first = replayKey ? idempotent.get(replayKey) : undefined;
  if (first && first.request !== request) {
    return send(res, failed(new StripeFailure(400, {
      type: "idempotency_error",
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
    })));
  }
  // Stripe names the account, version and key of the request in its answer's headers.
  const echoed = Object.fromEntries(Object.entries({ "stripe-account": stripeAccount, "stripe-version": header(req, "stripe-version"), "idempotency-key": idempotencyKey })
    .filter((entry): entry is [string, string] => entry[1] !== null));
  if (first) return send(res, first.answer, { ...echoed, "idempotent-replayed": "true" });
  let answer: Answer;
  try {
    answer = { status: 200, body: api(method, path, account, params) };
  } catch (error) {
    answer = failed(error);
  }
  // As Stripe: a request that failed validation saves no result, so its key can be used again;
  // a success is answered again, as it was then (the session may have changed since).
  if (replayKey && answer.status === 200) idempotent.set(replayKey, { request, answer: structuredClone(answer) });
  send(res, answer, echoed);
}

let listening: Promise<string> | undefined;
/** Starts the stand-in once per process; resolves to its origin, e.g. `http://127.0.0.1:41235`. */
export function startStripeStandIn() {
  listening ??= new Promise<string>((resolve, reject) => {
    const server = createServer((req, res) => {
      handle(req, res).catch((error) => send(res, failed(error)));
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      // The test run ends when vitest is done, not when this server is.
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
  return listening;
}
