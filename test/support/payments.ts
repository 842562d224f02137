// Paid bookings in tests (docs/decisions/payments.md): a shop with payments on, linked to a
// connected account of the local Stripe stand-in (scripts/stripe-stand-in.mjs), and the stand-in's
// payments delivered to the Worker as Stripe would, signed by the SDK's own test helper.
import { expect } from "vitest";
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
export async function connectedAccount(): Promise<string> {
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
    headers: { "content-type": "application/json", "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)", ...(signature === null ? {} : { "stripe-signature": signature }) },
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
