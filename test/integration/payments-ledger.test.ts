// Payments that lose nothing (docs/decisions/payments.md, "One source of truth" and
// "Reconciliation"): a booking's payment follows what Stripe knows whatever order its events come
// in, twice or never; every ending of a booking whose money is not settled is asked about; every
// change of a paid booking is announced; every way in on the booking site passes the same gates.
import { describe, expect, it } from "vitest";
import { env, type Client } from "../support/api";
import { must } from "../support/bookings";
import { mcpClient } from "../support/mcp";
import {
  cron,
  DAY,
  deliver,
  eventAbout,
  lapse,
  pay,
  payAndDeliver,
  paidShop,
  quietQueue,
  sameVisitor,
  sessionOf,
  site,
  standIn,
  stripeApi,
  stripeLedger,
  TIME,
  visitor,
} from "../support/payments";
import { eventually } from "../support/queues";
import { receiver } from "../support/webhooks";
import { createBookingBody, SITE_ATTRIBUTES } from "../../src/features/bookings/schema";

const hh = (hour: number) => String(hour).padStart(2, "0");
const at = (hour: number) => ({ booked_from: `${DAY} ${hh(hour)}:00`, booked_to: `${DAY} ${hh(hour + 1)}:00` });
const token = (created: { booking_token: string }) => ({ "x-booking-token": created.booking_token });
const bookingOf = async (api: Client, id: number) => (await must(api.get(`/bookings/${id}`))).booking;

/** The shop's web hook for every booking event, and the events it was sent for one booking, oldest first. */
async function bookingEvents(api: Client) {
  await must(api.post("/web_hooks", { web_hook: { target_url: receiver().url, event: "booking.*" } }));
  return (bookingId: number, until: (events: { event: string; booking: any }[]) => boolean) =>
    eventually(async () => {
      const rows = (
        await env.DB.prepare("SELECT event, payload FROM webhook_deliveries WHERE payload LIKE ? ORDER BY id")
          .bind(`%"id":${bookingId},%`)
          .all<{ event: string; payload: string }>()
      ).results;
      return rows.map((r) => ({ event: r.event, booking: JSON.parse(r.payload).data.booking })).filter((e) => e.booking?.id === bookingId);
    }, until);
}

/** A paid, confirmed booking of the shop: booked on the site, paid, its event delivered. */
async function confirmedPaid(shop: Awaited<ReturnType<typeof paidShop>>, name = "Kari", time = TIME) {
  const kari = sameVisitor(shop.account.subdomain);
  const created = await must(kari.post("/bookings", { booking: { service_id: shop.cut.id, ...time, person_attributes: visitor(name) } }));
  const paid = await payAndDeliver(sessionOf(created.booking.payment.checkout_url));
  expect(paid.applied).toBe("confirmed");
  const booking = await bookingOf(shop.api, created.booking.id);
  return { kari, created, booking, paymentIntent: booking.payment.payment_intent_id as string };
}

describe("paid, its event lost, then ended", () => {
  it("a visitor who paid and cancels before the event arrives is refunded in full; the late event changes nothing", async () => {
    const { api, account, stripeAccount, cut } = await paidShop({ account: { refund_until_hours: 24 } });
    const kari = sameVisitor(account.subdomain);
    const created = await must(kari.post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Lost") } }));
    const lost = await pay(sessionOf(created.booking.payment.checkout_url));
    const cancelled = await must(kari.put(`/bookings/${created.booking.id}/cancel`, {}, token(created)));
    expect(cancelled.booking).toMatchObject({ state: "cancelled", payment: { status: "refunded", amount_refunded: "450.00" } });
    const [intent] = await stripeLedger(stripeAccount);
    expect(intent).toMatchObject({ amount_received: 45_000, amount_refunded: 45_000 });
    // The event comes after all, twice: nothing more is refunded, the booking stays as it is.
    expect((await must(deliver(lost.event, lost.signature))).applied).not.toBe("confirmed");
    await must(deliver(lost.event, lost.signature));
    expect((await stripeLedger(stripeAccount))[0].refunds).toHaveLength(1);
    expect(await bookingOf(api, created.booking.id)).toMatchObject({ state: "cancelled", payment: { status: "refunded", amount_refunded: "450.00" } });
  });

  it("the shop's delete of a booking it confirmed by hand, paid unseen, refunds the payment", async () => {
    const { api, account, stripeAccount, cut } = await paidShop();
    const created = await must(site(account.subdomain).post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Unseen") } }));
    await pay(sessionOf(created.booking.payment.checkout_url));
    // The shop confirms by hand, then deletes it: the payment it never heard of goes back in full.
    await must(api.put(`/bookings/${created.booking.id}/confirm`, {}));
    const deleted = await must(api.delete(`/bookings/${created.booking.id}`));
    expect(deleted.booking).toMatchObject({ state: "deleted", payment: { status: "refunded", amount_refunded: "450.00" } });
    expect((await stripeLedger(stripeAccount))[0]).toMatchObject({ amount_refunded: 45_000 });
  });

  it("an ending whose expire could not reach the provider is settled by the sweep: paid meanwhile, refunded", async () => {
    const { api, account, stripeAccount, cut } = await paidShop();
    const kari = sameVisitor(account.subdomain);
    const created = await must(kari.post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Offline") } }));
    const session = sessionOf(created.booking.payment.checkout_url);
    // The provider cannot end the session for the cancel (it answers an error): the booking is
    // ended, its money marked as not settled.
    await quietQueue();
    await env.DB.prepare("UPDATE bookings SET payment = json_set(payment, '$.checkout_session_id', 'cs_gone') WHERE id = ?").bind(created.booking.id).run();
    await must(kari.put(`/bookings/${created.booking.id}/cancel`, {}, token(created)));
    const stored = await env.DB.prepare("SELECT json_extract(payment, '$.reconcile_at') AS at FROM bookings WHERE id = ?")
      .bind(created.booking.id)
      .first<{ at: number | null }>();
    expect(stored?.at).toEqual(expect.any(Number));
    // Meanwhile the visitor paid on the page still open; at the sweep the provider answers again.
    await quietQueue();
    await env.DB.prepare("UPDATE bookings SET payment = json_set(payment, '$.checkout_session_id', ?, '$.reconcile_at', 0) WHERE id = ?")
      .bind(session, created.booking.id)
      .run();
    await pay(session);
    await cron();
    expect(await bookingOf(api, created.booking.id)).toMatchObject({ state: "cancelled", payment: { status: "refunded", amount_refunded: "450.00" } });
    expect((await stripeLedger(stripeAccount))[0]).toMatchObject({ amount_refunded: 45_000 });
    const settled = await env.DB.prepare("SELECT json_extract(payment, '$.reconcile_at') AS at FROM bookings WHERE id = ?")
      .bind(created.booking.id)
      .first<{ at: number | null }>();
    expect(settled?.at).toBeNull();
  });
});

describe("events in any order", () => {
  it("a refund that arrives before its payment is kept, and applied when the payment arrives", async () => {
    const { api, account, stripeAccount, cut } = await paidShop();
    const created = await must(site(account.subdomain).post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Early") } }));
    const paid = await pay(sessionOf(created.booking.payment.checkout_url));
    const paymentIntent = paid.session.payment_intent as string;
    // The shop refunds 100.00 at Stripe; its events overtake the payment's.
    const refund = (await stripeApi("POST", "/v1/refunds", stripeAccount, { payment_intent: paymentIntent, amount: "10000" })).body;
    const early = await eventAbout("refund.created", stripeAccount, `/v1/refunds/${refund.id}`);
    expect(await must(deliver(early.event, early.signature))).toEqual({ received: true, applied: "kept" });
    expect(await must(deliver(early.event, early.signature))).toEqual({ received: true, applied: "duplicate" });
    expect((await must(deliver(paid.event, paid.signature))).applied).toBe("confirmed");
    expect(await bookingOf(api, created.booking.id)).toMatchObject({
      state: "confirmed",
      payment: { status: "partially_refunded", amount_refunded: "100.00", refund_id: refund.id, payment_intent_id: paymentIntent },
    });
  });

  it("a failed refund shows the money back with the payer: status paid, nothing refunded; a refund the product owes is asked again", async () => {
    const shop = await paidShop();
    const { api, stripeAccount } = shop;
    // The shop refunded at Stripe, and the bank returned it.
    const { created, paymentIntent } = await confirmedPaid(shop);
    const refund = (await stripeApi("POST", "/v1/refunds", stripeAccount, { payment_intent: paymentIntent })).body;
    const succeeded = await eventAbout("refund.created", stripeAccount, `/v1/refunds/${refund.id}`);
    const failed = (await standIn("POST", `/_test/refunds/${refund.id}/fail?stripe_account=${stripeAccount}`)).body;
    // Out of order: the failure first, then the older success; the failure stands.
    await must(deliver(failed.event, failed.signature));
    await must(deliver(succeeded.event, succeeded.signature));
    expect(await bookingOf(api, created.booking.id)).toMatchObject({ state: "confirmed", payment: { status: "paid", amount_refunded: "0.00" } });

    // A refund the product owes (the shop's delete) that fails is asked again, with a new request.
    const owed = await confirmedPaid(shop, "Owed", { booked_from: `${DAY} 12:00`, booked_to: `${DAY} 13:00` });
    const declined = await must(api.delete(`/bookings/${owed.created.booking.id}`));
    expect(declined.booking.payment).toMatchObject({ status: "refunded", amount_refunded: "450.00" });
    const given = declined.booking.payment.refund_id;
    const bounced = (await standIn("POST", `/_test/refunds/${given}/fail?stripe_account=${stripeAccount}`)).body;
    await must(deliver(bounced.event, bounced.signature));
    const intent = (await stripeLedger(stripeAccount)).find((p) => p.payment_intent === owed.paymentIntent)!;
    expect(intent.refunds.map((r) => r.status).sort()).toEqual(["failed", "succeeded"]);
    expect(intent.amount_refunded).toBe(45_000);
    expect(await bookingOf(api, owed.created.booking.id)).toMatchObject({ payment: { status: "refunded", amount_refunded: "450.00" } });
  });

  it("a delete or decline after a partial refund at Stripe refunds the rest", async () => {
    for (const [end, hour] of [
      ["delete", "10"],
      ["decline", "12"],
    ] as const) {
      // A booking the shop may decline waits for its confirmation: the shop confirms by hand.
      const shop = await paidShop({ account: { confirm_manually: end === "decline" } });
      const { api, stripeAccount } = shop;
      const { created, paymentIntent } = await confirmedPaid(shop, `Partial${hour}`, { booked_from: `${DAY} ${hour}:00`, booked_to: `${DAY} ${Number(hour) + 1}:00` });
      const refund = (await stripeApi("POST", "/v1/refunds", stripeAccount, { payment_intent: paymentIntent, amount: "10000" })).body;
      const told = await eventAbout("charge.refunded", stripeAccount, `/v1/payment_intents/${paymentIntent}`, {
        object: "charge",
        id: `ch_${hour}x`,
        payment_intent: paymentIntent,
        amount_refunded: 10_000,
      });
      await must(deliver(told.event, told.signature));
      expect((await bookingOf(api, created.booking.id)).payment).toMatchObject({ status: "partially_refunded", amount_refunded: "100.00" });
      const ended = end === "delete" ? await must(api.delete(`/bookings/${created.booking.id}`)) : await must(api.put(`/bookings/${created.booking.id}/decline`, {}));
      expect(ended.booking.payment).toMatchObject({ status: "refunded", amount_refunded: "450.00" });
      const intent = (await stripeLedger(stripeAccount)).find((p) => p.payment_intent === paymentIntent)!;
      expect(intent.amount_refunded).toBe(45_000);
      expect(intent.refunds.map((r) => r.amount).sort((a, b) => a - b)).toEqual([10_000, 35_000]);
      expect(refund.id).toMatch(/^re_/);
    }
  });
});

describe("every change of a paid booking is announced", () => {
  it("a late payment refunded because its seat was taken is announced as the booking's cancel, with the refund", async () => {
    const { api, account, cut } = await paidShop();
    const eventsOf = await bookingEvents(api);
    const created = await must(site(account.subdomain).post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Late") } }));
    await lapse(created.booking.id);
    await must(site(account.subdomain).post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Newcomer") } }));
    const late = await payAndDeliver(sessionOf(created.booking.payment.checkout_url));
    expect(late.applied).toBe("refunded");
    const events = await eventsOf(created.booking.id, (e) => e.some((x) => x.event === "booking.cancelled"));
    expect(events.map((e) => e.event)).toEqual(["booking.created", "booking.cancelled"]);
    expect(events[1].booking).toMatchObject({ state: "cancelled", payment: { status: "refunded", amount_refunded: "450.00" } });
    // The sweep afterwards has nothing to add.
    await cron();
    expect((await eventsOf(created.booking.id, () => true)).map((e) => e.event)).toEqual(["booking.created", "booking.cancelled"]);
  });

  it("a refund made at Stripe is announced as a modification carrying the payment", async () => {
    const shop = await paidShop();
    const eventsOf = await bookingEvents(shop.api);
    const { created, paymentIntent } = await confirmedPaid(shop);
    const refund = (await stripeApi("POST", "/v1/refunds", shop.stripeAccount, { payment_intent: paymentIntent, amount: "5000" })).body;
    const told = await eventAbout("refund.updated", shop.stripeAccount, `/v1/refunds/${refund.id}`);
    await must(deliver(told.event, told.signature));
    const events = await eventsOf(created.booking.id, (e) => e.some((x) => x.booking.payment?.status === "partially_refunded"));
    expect(events.at(-1)).toMatchObject({ event: "booking.modified", booking: { payment: { status: "partially_refunded", amount_refunded: "50.00" } } });
  });
});

describe("every way in passes the same gates", () => {
  it("the site's MCP book counts the visitor's address against the unpaid limit the REST create applies", async () => {
    const { account, cut } = await paidShop({ capacity: 10 });
    const address = "203.0.113.77";
    const rest = (hour: number) =>
      site(account.subdomain).post(
        "/bookings",
        { booking: { service_id: cut.id, ...at(hour), person_attributes: visitor(`Rest${hour}`) } },
        { "cf-connecting-ip": address },
      );
    for (const hour of [9, 10, 11]) await must(rest(hour));
    expect((await rest(12)).status).toBe(429);
    const assistant = await mcpClient(`http://${account.subdomain}.localhost/mcp`, { "cf-connecting-ip": address });
    const refused = await assistant.refusal("book", {
      booking: { service_id: cut.id, booked_from: `${DAY} 13:00`, booked_to: `${DAY} 14:00`, person_attributes: visitor("Tool") },
    });
    expect(refused.error.status).toBe(429);
    expect(refused.text).toMatch(/unpaid/i);
  });

  it("a visitor at the limit who books one of their pending times again gets it back with a new checkout, not a 429", async () => {
    const { account, cut } = await paidShop({ capacity: 10 });
    const kari = sameVisitor(account.subdomain);
    const first = await must(kari.post("/bookings", { booking: { service_id: cut.id, ...at(9), person_attributes: visitor("Kari") } }));
    for (const hour of [10, 11]) await must(kari.post("/bookings", { booking: { service_id: cut.id, ...at(hour), person_attributes: visitor("Kari") } }));
    expect((await kari.post("/bookings", { booking: { service_id: cut.id, ...at(12), person_attributes: visitor("Kari") } })).status).toBe(429);
    const again = await must(kari.post("/bookings", { booking: { service_id: cut.id, ...at(9), person_attributes: visitor("Kari") } }));
    expect(again.booking).toMatchObject({ id: first.booking.id, state: "awaiting_payment", payment: { status: "pending" } });
    expect(again.booking.payment.checkout_url).not.toBe(first.booking.payment.checkout_url);
  });

  it("a visitor cannot set what only the product or the shop may: each such attribute of the site's body is ignored", async () => {
    const { api, account, cut, room } = await paidShop({ capacity: 10 });
    const person = (await must(api.post("/people", { person: { name: "Someone Else", email: "else@example.com" } }))).person;
    const samples: Record<string, unknown> = {
      person_id: person.id,
      expires_at: `${DAY} 09:00`,
      reminder_at: `${DAY} 08:00`,
      paid_at: `${DAY} 08:00`,
      external_id: "ext-1",
      gateway_order_number: "ord-1",
    };
    // Every attribute of the create is placed: the visitor's, or the shop's with a sample here.
    const attributes = Object.keys(createBookingBody.shape.booking.shape)
      .filter((name) => name !== "public_booking")
      .sort();
    expect(Object.keys(SITE_ATTRIBUTES).sort()).toEqual(attributes);
    const shopOnly = Object.entries(SITE_ATTRIBUTES)
      .filter(([, who]) => who === "shop")
      .map(([name]) => name)
      .sort();
    expect(Object.keys(samples).sort()).toEqual(shopOnly);
    let hour = 8;
    for (const [name, value] of Object.entries(samples)) {
      hour += 1;
      const created = await must(
        site(account.subdomain).post("/bookings", {
          booking: { service_id: cut.id, resource_id: room.id, ...at(hour), person_attributes: visitor(`Stamp${hour}`), [name]: value },
        }),
      );
      const stored = await bookingOf(api, created.booking.id);
      expect(stored.state, name).toBe("awaiting_payment");
      if (name === "person_id") expect(stored.person_id).not.toBe(person.id);
      else if (name === "expires_at") expect(stored.expires_at).not.toContain("T09:00");
      else expect(stored[name], name).toBeNull();
    }
  });
});
