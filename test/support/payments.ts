// Paid bookings in tests (docs/decisions/payments.md): a shop with payments on, linked to a
// connected account of the local Stripe stand-in (scripts/stripe-stand-in.mjs), and the stand-in's
// payments delivered to the Worker as Stripe would, signed by the SDK's own test helper.
import { expect } from "vitest";
import { exports } from "cloudflare:workers";
import { catalogue, must } from "./bookings";
import { env, newAccount, operator, send } from "./api";

export async function standIn(method: "GET" | "POST", path: string, body?: unknown) {
  const res = await fetch(`${env.STRIPE_API_BASE}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A connected account made and onboarded at the stand-in, as the shop's onboarding would. */
async function connectedAccount(): Promise<string> {
  const res = await fetch(`${env.STRIPE_API_BASE}/v1/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "content-type": "application/x-www-form-urlencoded" },
    body: "type=express&country=NO",
  });
  const account = (await res.json()) as { id: string };
  await standIn("POST", `/_test/accounts/${account.id}/onboard`);
  return account.id;
}

/** A shop taking payment: NOK, Stripe linked, a capacity-`capacity` room and a 450 NOK service paid in full. */
export async function paidShop(opts: { capacity?: number; account?: Record<string, unknown>; service?: Record<string, unknown> } = {}) {
  const { api, account } = await newAccount({ currency: "NOK", payment_provider: "stripe", ...opts.account });
  const stripeAccount = await connectedAccount();
  await must(operator.put(`/accounts/${account.id}`, { account: { stripe_account_id: stripeAccount } }));
  const make = catalogue(api);
  const room = await make.resource({ capacity: opts.capacity ?? 1 });
  const cut = await make.service({ title: "Cut", interval: 60, price: "450", payment: "full", ...opts.service });
  await make.provider(room.id, cut.id);
  return { api, account, stripeAccount, room, cut };
}

/** Delivers a signed event body to the Worker's provider endpoint, as Stripe would. */
export const deliver = (event: string, signature: string | null) =>
  send("POST", "/api/v1/payments/stripe/events", {
    headers: {
      "content-type": "application/json",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      ...(signature === null ? {} : { "stripe-signature": signature }),
    },
    body: event,
  });

/** Pays the session at the stand-in (its Pay button) and answers the signed checkout.session.completed it made. */
export async function pay(sessionId: string): Promise<{ event: string; signature: string; session: any }> {
  const paid = await standIn("POST", `/_test/sessions/${sessionId}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return paid.body;
}

/** Pays and delivers: what a payer and Stripe do together. */
export async function payAndDeliver(sessionId: string) {
  const { event, signature } = await pay(sessionId);
  return must(deliver(event, signature));
}

/** The session id of a booking's checkout url (the stand-in's page is /pay/<id>). */
export const sessionOf = (checkoutUrl: string) => new URL(checkoutUrl).pathname.split("/").pop()!;

export const DAY = "2030-01-07";
export const TIME = { booked_from: `${DAY} 10:00`, booked_to: `${DAY} 11:00` };

let visitors = 0;
function siteClient(subdomain: string, address: () => string) {
  const origin = `http://${subdomain}.localhost`;
  const headers = (extra: Record<string, string> = {}) => ({ "content-type": "application/json", "cf-connecting-ip": address(), ...extra });
  return {
    post: (path: string, payload: unknown, extra: Record<string, string> = {}) =>
      send("POST", `${origin}${path}`, { headers: headers(extra), body: JSON.stringify(payload) }),
    get: (path: string, extra: Record<string, string> = {}) => send("GET", `${origin}${path}`, { headers: headers(extra) }),
    put: (path: string, payload: unknown, extra: Record<string, string> = {}) =>
      send("PUT", `${origin}${path}`, { headers: headers(extra), body: JSON.stringify(payload) }),
  };
}

/** The booking site, each request from another visitor's address. */
export const site = (subdomain: string) => siteClient(subdomain, () => `192.0.2.${(visitors += 1) % 250}`);

/** One visitor: the same address on every request. */
export function sameVisitor(subdomain: string) {
  const ip = `198.18.0.${(visitors += 1) % 250}`;
  return siteClient(subdomain, () => ip);
}

export const visitor = (name: string) => ({ name, email: `${name.toLowerCase()}@example.com` });
export const book = (subdomain: string, serviceId: number, name = "Kari", time = TIME) =>
  site(subdomain).post("/bookings", { booking: { service_id: serviceId, ...time, person_attributes: visitor(name) } });

/**
 * The every-minute cron, fired as the runtime fires it: a scheduled event of the Worker's own, not
 * the handler called in the test's context (whose I/O the queue consumers running meanwhile must not share).
 */
export const cron = () =>
  (exports.default as unknown as { scheduled(options: { scheduledTime: number; cron: string }): Promise<unknown> }).scheduled({
    scheduledTime: Date.now(),
    cron: "* * * * *",
  });

export const messagesOf = async (accountId: number, kind: string) =>
  (await env.DB.prepare("SELECT * FROM messages WHERE account_id = ? AND kind = ? ORDER BY id").bind(accountId, kind).all<any>()).results;

/**
 * Waits until the message queue's consumer has settled every message: a test's own statement on
 * env.DB while the consumer is mid-batch hung the consumer in the pool (it awaited I/O of the
 * test's context), so the tests that write rows directly wait for the queue to be quiet first.
 */
export async function quietQueue() {
  for (let i = 0; i < 100; i++) {
    const busy = await env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE status IN ('queued', 'sending')").first<{ n: number }>();
    if (!busy?.n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Moves a booking's payment window into the past, as time would. */
export const lapse = async (bookingId: number) => {
  await quietQueue();
  await env.DB.prepare("UPDATE bookings SET expires_at = ? WHERE id = ?")
    .bind(Date.now() - 1000, bookingId)
    .run();
};

/** A request to the stand-in's Stripe API as the shop's own dashboard or code would make it, on its connected account. */
export async function stripeApi(method: "GET" | "POST", path: string, stripeAccount: string, form: Record<string, string> = {}) {
  const res = await fetch(`${env.STRIPE_API_BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "stripe-account": stripeAccount, "content-type": "application/x-www-form-urlencoded" },
    ...(method === "POST" ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A signed event of `type` about the stand-in's object at `path` as it is now, on the shop's account. */
export async function eventAbout(type: string, stripeAccount: string, path: string, change: Record<string, unknown> = {}) {
  const object = { ...(await stripeApi("GET", path, stripeAccount)).body, ...change };
  return (await standIn("POST", "/_test/events", { type, account: stripeAccount, object })).body as { event: string; signature: string };
}

/** What the money truly did at the stand-in: each payment intent of the shop, paid and refunded. */
export async function stripeLedger(
  stripeAccount: string,
): Promise<
  { payment_intent: string; booking_id: string | null; amount_received: number; amount_refunded: number; refunds: { id: string; amount: number; status: string }[] }[]
> {
  return (await standIn("GET", `/_test/ledger?stripe_account=${stripeAccount}`)).body;
}
