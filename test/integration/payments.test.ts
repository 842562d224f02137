// Paid bookings (issue 31, docs/decisions/payments.md): a booking of a paid service waits for its
// payment holding its seat, a signed Stripe event (the real SDK in the Worker, against the local
// stand-in) confirms it, and it is never sold twice nor given away free.
import { describe, expect, it } from "vitest";
import { env, newAccount, operator, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { mcpClient } from "../support/mcp";
import {
  book,
  cron,
  DAY,
  deliver,
  lapse,
  messagesOf,
  pay,
  payAndDeliver,
  paidShop,
  quietQueue,
  sameVisitor,
  sessionOf,
  site,
  standIn,
  TIME,
  visitor,
} from "../support/payments";

async function freeAtTen(api: Client, serviceId: number): Promise<number> {
  const slots = await must(api.get(`/services/${serviceId}/slots?from=${DAY}&to=${DAY}`));
  return slots.find((e: any) => e.slot.timestamp.slice(11, 16) === "10:00")?.slot.free ?? 0;
}

describe("the journey on the booking site", () => {
  it("book → checkout → signed event → confirmed → message; the seat is held meanwhile and the answer never trusts the client's amount", async () => {
    // E-mail verification: the shop's customers hear by e-mail (a paid booking is proven by its payment instead of a code).
    const { api, account, stripeAccount, cut } = await paidShop({ account: { verification_method: 2 } });
    const created = await must(
      site(account.subdomain).post("/bookings", {
        booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Kari"), amount: 1, price: "1", currency: "USD" },
      }),
    );
    const booking = created.booking;
    expect(booking).toMatchObject({
      state: "awaiting_payment",
      active: true,
      payment: { amount: "450.00", currency: "NOK", status: "pending", amount_refunded: "0.00" },
    });
    expect(booking.payment.checkout_url).toMatch(/\/pay\/cs_/);
    // The session is the shop's, for exactly this booking, with an idempotency key.
    const log = (await standIn("GET", `/_test/log?stripe_account=${stripeAccount}`)).body as any[];
    const made = log.find((r) => r.path === "/v1/checkout/sessions" && r.method === "POST");
    expect(made).toMatchObject({ stripe_account: stripeAccount, body: { client_reference_id: String(booking.id), metadata: { booking_id: String(booking.id) } } });
    expect(made.idempotency_key).toContain(`:${booking.id}`);
    expect(made.body.line_items[0].price_data).toMatchObject({ unit_amount: "45000", currency: "nok" });
    // The seat is taken while the window lasts: nobody else can book it.
    expect(await freeAtTen(api, cut.id)).toBe(0);
    expect((await book(account.subdomain, cut.id, "Other")).status).toBe(400);
    expect(await messagesOf(account.id, "confirmation")).toHaveLength(0);

    const applied = await payAndDeliver(sessionOf(booking.payment.checkout_url));
    expect(applied).toMatchObject({ received: true, applied: "confirmed" });
    const seen = await must(site(account.subdomain).get(`/bookings/${booking.id}`, { "x-booking-token": created.booking_token }));
    expect(seen.booking).toMatchObject({ state: "confirmed", expires_at: null, payment: { status: "paid", checkout_url: null } });
    expect(seen.booking.payment).not.toHaveProperty("payment_intent_id");
    const full = await must(api.get(`/bookings/${booking.id}`));
    expect(full.booking.payment).toMatchObject({ provider: "stripe", kind: "full", status: "paid", payment_intent_id: expect.stringMatching(/^pi_/) });
    expect(await messagesOf(account.id, "confirmation")).toHaveLength(1);
  });

  it("a service that asks nothing, on an account with payments on, books exactly as before: no payment key", async () => {
    const { api, account, room } = await paidShop();
    const free = await catalogue(api).service({ title: "Free consult", interval: 60 });
    await catalogue(api).provider(room.id, free.id);
    const created = await must(book(account.subdomain, free.id, "Free", { booked_from: `${DAY} 12:00`, booked_to: `${DAY} 13:00` }));
    expect(created.booking).not.toHaveProperty("payment");
    expect(created.booking.state).not.toBe("awaiting_payment");
    expect((await must(api.get(`/services/${free.id}`))).service).not.toHaveProperty("payment");
  });
});

describe("events: once, signed, the shop's own", () => {
  it("a duplicate and five concurrent deliveries of one event confirm once and send one message", async () => {
    const { account, cut } = await paidShop({ account: { verification_method: 2 } });
    const created = await must(book(account.subdomain, cut.id));
    const { event, signature } = await pay(sessionOf(created.booking.payment.checkout_url));
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(event, signature)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.applied === "confirmed")).toHaveLength(1);
    expect((await must(deliver(event, signature))).applied).toBe("duplicate");
    expect(await messagesOf(account.id, "confirmation")).toHaveLength(1);
  });

  it("an unsigned, wrongly signed, tampered or stale event is a 400 and changes nothing", async () => {
    const { api, account, cut } = await paidShop();
    const created = await must(book(account.subdomain, cut.id));
    const { event, signature } = await pay(sessionOf(created.booking.payment.checkout_url));
    const wrongSecret = (await standIn("POST", "/_test/sign", { payload: event, secret: "whsec_not_ours" })).body.signature;
    const stale = (await standIn("POST", "/_test/sign", { payload: event, timestamp: Math.floor(Date.now() / 1000) - 3600 })).body.signature;
    for (const [body, sig] of [
      [event, null],
      [event, wrongSecret],
      [event.replace('"paid"', '"unpaid"'), signature],
      [event, stale],
      ["not json", signature],
    ] as const) {
      const refused = await deliver(body, sig);
      expect(refused.status, String(sig)).toBe(400);
      expect(refused.body).toHaveProperty("error");
    }
    expect((await must(api.get(`/bookings/${created.booking.id}`))).booking.state).toBe("awaiting_payment");
  });

  it("another shop's event naming our booking is refused and touches nothing", async () => {
    const ours = await paidShop();
    const theirs = await paidShop();
    const created = await must(book(ours.account.subdomain, ours.cut.id));
    const session = (await pay(sessionOf(created.booking.payment.checkout_url))).session;
    // The same session object, as if it were on the other shop's connected account.
    const foreign = (await standIn("POST", "/_test/events", { type: "checkout.session.completed", account: theirs.stripeAccount, object: session })).body;
    expect((await deliver(foreign.event, foreign.signature)).status).toBe(400);
    const unknown = (await standIn("POST", "/_test/events", { type: "checkout.session.completed", account: "acct_nobodyhere", object: session })).body;
    expect((await deliver(unknown.event, unknown.signature)).status).toBe(400);
    expect((await must(ours.api.get(`/bookings/${created.booking.id}`))).booking.state).toBe("awaiting_payment");
  });
});

describe("not paid in time", () => {
  it("the seat is free at the window's end with no write; the sweep ends the session and the booking (cancelled)", async () => {
    const { api, account, cut, stripeAccount } = await paidShop();
    const created = await must(book(account.subdomain, cut.id));
    await lapse(created.booking.id);
    expect(await freeAtTen(api, cut.id)).toBe(1);
    expect((await must(api.get(`/bookings/${created.booking.id}`))).booking).toMatchObject({ state: "cancelled", active: false });
    await cron();
    const swept = (await must(api.get(`/bookings/${created.booking.id}`))).booking;
    expect(swept).toMatchObject({ state: "cancelled", payment: { status: "expired", checkout_url: null } });
    const log = (await standIn("GET", `/_test/log?stripe_account=${stripeAccount}`)).body as any[];
    expect(log.some((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${swept.payment.checkout_session_id}/expire`)).toBe(true);
  });

  it("a late payment whose seat is still free confirms the booking", async () => {
    const { api, account, cut } = await paidShop();
    const created = await must(book(account.subdomain, cut.id));
    const { event, signature } = await pay(sessionOf(created.booking.payment.checkout_url));
    await lapse(created.booking.id);
    expect((await must(deliver(event, signature))).applied).toBe("confirmed");
    expect((await must(api.get(`/bookings/${created.booking.id}`))).booking).toMatchObject({ state: "confirmed", payment: { status: "paid" } });
  });

  it("a late payment whose seat was taken is refunded in full at once and the person told; one booking holds the seat", async () => {
    const { api, account, cut, room } = await paidShop();
    const created = await must(book(account.subdomain, cut.id));
    const { event, signature } = await pay(sessionOf(created.booking.payment.checkout_url));
    await lapse(created.booking.id);
    await catalogue(api).booking({ service_id: cut.id, resource_id: room.id, ...TIME });
    expect((await must(deliver(event, signature))).applied).toBe("refunded");
    const late = (await must(api.get(`/bookings/${created.booking.id}`))).booking;
    expect(late).toMatchObject({
      state: "cancelled",
      active: false,
      payment: { status: "refunded", amount_refunded: "450.00", refund_id: expect.stringMatching(/^re_/) },
    });
    expect(await messagesOf(account.id, "refund")).toHaveLength(1);
    expect(await freeAtTen(api, cut.id)).toBe(0);
    const held = await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ? AND active = 1 AND (expires_at IS NULL OR expires_at > ?)")
      .bind(room.id, Date.now())
      .first<{ n: number }>();
    expect(held!.n).toBe(1);
  });
});

describe("the private API", () => {
  it("asks for the same checkout with checkout: true, or records a payment taken elsewhere", async () => {
    const { api, cut, room } = await paidShop({ capacity: 2 });
    const asked = await must(api.post("/bookings", { booking: { service_id: cut.id, resource_id: room.id, ...TIME, count: 2 }, checkout: true }));
    expect(asked.booking).toMatchObject({ state: "awaiting_payment", payment: { amount: "900.00", status: "pending" } });
    const recorded = await must(api.post(`/bookings/${asked.booking.id}/payment`, { payment: { reference: "terminal 42" } }));
    expect(recorded.booking).toMatchObject({ state: "confirmed", payment: { status: "paid", kind: "external", reference: "terminal 42" } });
    // Without checkout the integrator books as before, unpaid and confirmed.
    const plain = await must(api.post("/bookings", { booking: { service_id: cut.id, resource_id: room.id, booked_from: `${DAY} 12:00`, booked_to: `${DAY} 13:00` } }));
    expect(plain.booking.state).toBe("confirmed");
    expect(plain.booking).not.toHaveProperty("payment");
  });
});

describe("abandon and retry", () => {
  it("booking the same time again gets the pending booking and its checkout back, never a second booking nor a free one", async () => {
    const { api, account, cut, stripeAccount } = await paidShop({ capacity: 2 });
    const kari = sameVisitor(account.subdomain);
    const payload = { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Kari") } };
    const first = await must(kari.post("/bookings", payload));
    const again = await must(kari.post("/bookings", payload));
    expect(again.booking.id).toBe(first.booking.id);
    expect(again.booking).toMatchObject({ state: "awaiting_payment", payment: { status: "pending" } });
    // A new session, whose return pages carry the new token; the abandoned one is ended.
    expect(sessionOf(again.booking.payment.checkout_url)).not.toBe(sessionOf(first.booking.payment.checkout_url));
    const session = (await standIn("GET", `/_test/log?stripe_account=${stripeAccount}`)).body as any[];
    const made = session.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").map((r) => r.body.success_url);
    expect(made.at(-1)).toContain(encodeURIComponent(again.booking_token));
    expect(session.some((r) => r.path === `/v1/checkout/sessions/${sessionOf(first.booking.payment.checkout_url)}/expire`)).toBe(true);
    expect(await freeAtTen(api, cut.id)).toBe(1);
    // The new token opens it; the abandoned page's token no longer does.
    expect((await kari.get(`/bookings/${first.booking.id}`, { "x-booking-token": again.booking_token })).status).toBe(200);
    expect((await kari.get(`/bookings/${first.booking.id}`, { "x-booking-token": first.booking_token })).status).toBe(404);
    // Back to the checkout by the token, too.
    const resumed = await must(kari.post(`/bookings/${first.booking.id}/checkout`, {}, { "x-booking-token": again.booking_token }));
    expect(sessionOf(resumed.booking.payment.checkout_url)).toBe(sessionOf(again.booking.payment.checkout_url));
    // Someone else (another address) booking the same time gets a booking of their own.
    const other = await must(book(account.subdomain, cut.id, "Kari"));
    expect(other.booking.id).not.toBe(first.booking.id);
  });

  it("an Idempotency-Key on the create answers the same paid booking", async () => {
    const { account, cut } = await paidShop({ capacity: 3 });
    const kari = sameVisitor(account.subdomain);
    const payload = { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Idem") } };
    const [a, b] = [
      await must(kari.post("/bookings", payload, { "idempotency-key": "pay-1" })),
      await must(kari.post("/bookings", payload, { "idempotency-key": "pay-1" })),
    ];
    expect(b.booking.id).toBe(a.booking.id);
    expect(b.booking.payment.checkout_url).toBe(a.booking.payment.checkout_url);
  });

  it("a visitor may keep only a few unpaid bookings waiting at once", async () => {
    const { account, cut } = await paidShop({ capacity: 10 });
    const kari = sameVisitor(account.subdomain);
    const answers = [];
    for (let hour = 8; hour < 12; hour++) {
      const time = { booked_from: `${DAY} ${String(hour).padStart(2, "0")}:00`, booked_to: `${DAY} ${String(hour + 1).padStart(2, "0")}:00` };
      answers.push(await kari.post("/bookings", { booking: { service_id: cut.id, ...time, person_attributes: visitor("Many") } }));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3].body.error).toMatch(/unpaid bookings/);
  });
});

describe("refunds by the policy", () => {
  async function paidBooking(policyHours: number | null, extra: Record<string, unknown> = {}) {
    const shop = await paidShop({ account: { refund_until_hours: policyHours, ...extra } });
    const kari = sameVisitor(shop.account.subdomain);
    const created = await must(kari.post("/bookings", { booking: { service_id: shop.cut.id, ...TIME, person_attributes: visitor("Refund") } }));
    await payAndDeliver(sessionOf(created.booking.payment.checkout_url));
    return { ...shop, kari, created };
  }
  const hoursUntilStart = async (api: Client, id: number) =>
    Math.floor((Date.parse((await must(api.get(`/bookings/${id}`))).booking.booked_from) - Date.now()) / 3_600_000);

  it("a cancel before the policy's edge is refunded in full, one after it not at all", async () => {
    const early = await paidBooking(null);
    const edge = await hoursUntilStart(early.api, early.created.booking.id);
    await must(early.api.put("/client", { client: { refund_until_hours: edge } }));
    const refunded = await must(early.kari.put(`/bookings/${early.created.booking.id}/cancel`, {}, { "x-booking-token": early.created.booking_token }));
    expect(refunded.booking).toMatchObject({ state: "cancelled", payment: { status: "refunded", amount_refunded: "450.00" } });
    expect(await messagesOf(early.account.id, "refund")).toHaveLength(1);

    const late = await paidBooking(edge + 1);
    const kept = await must(late.kari.put(`/bookings/${late.created.booking.id}/cancel`, {}, { "x-booking-token": late.created.booking_token }));
    expect(kept.booking).toMatchObject({ state: "cancelled", payment: { status: "paid", amount_refunded: "0.00" } });
    expect(await messagesOf(late.account.id, "refund")).toHaveLength(0);
  });

  it("the shop's decline and delete refund in full whatever the policy", async () => {
    const declined = await paidBooking(0, { confirm_manually: true });
    expect((await must(declined.api.get(`/bookings/${declined.created.booking.id}`))).booking.state).toBe("awaiting_confirmation");
    await must(declined.api.put(`/client`, { client: { refund_until_hours: 80_000 } }));
    const d = await must(declined.api.put(`/bookings/${declined.created.booking.id}/decline`, {}));
    expect(d.booking.payment).toMatchObject({ status: "refunded", amount_refunded: "450.00" });
    const deleted = await paidBooking(8000);
    const gone = await must(deleted.api.delete(`/bookings/${deleted.created.booking.id}`));
    expect(gone.booking.payment).toMatchObject({ status: "refunded" });
    // A refund's own event (a duplicate of what the refund answered) changes nothing more.
    const payment = (await must(deleted.api.get(`/bookings/${deleted.created.booking.id}`))).booking.payment;
    const refundEvent = (
      await standIn("POST", "/_test/events", {
        type: "refund.updated",
        account: deleted.stripeAccount,
        object: { id: payment.refund_id, object: "refund", amount: 45_000, currency: "nok", payment_intent: payment.payment_intent_id, status: "succeeded" },
      })
    ).body;
    expect((await must(deliver(refundEvent.event, refundEvent.signature))).applied).toBe("refund_updated");
    expect((await must(deleted.api.get(`/bookings/${deleted.created.booking.id}`))).booking.payment).toMatchObject({ status: "refunded", amount_refunded: "450.00" });
  });
});

describe("nothing lost", () => {
  const age = async (id: number, minutes: number) => {
    await quietQueue();
    await env.DB.prepare("UPDATE bookings SET created_at = ? WHERE id = ?")
      .bind(Date.now() - minutes * 60_000, id)
      .run();
  };

  it("a payment whose event was lost is found by the sweep; the reminder goes only to whoever has not paid, once", async () => {
    const { api, account, cut } = await paidShop({ capacity: 2 });
    const paidLost = await must(book(account.subdomain, cut.id, "Paid"));
    const unpaid = await must(book(account.subdomain, cut.id, "Unpaid"));
    await pay(sessionOf(paidLost.booking.payment.checkout_url)); // paid at Stripe, its event never reaches us
    await age(paidLost.booking.id, 6);
    await age(unpaid.booking.id, 6);
    await cron();
    expect((await must(api.get(`/bookings/${paidLost.booking.id}`))).booking).toMatchObject({ state: "confirmed", payment: { status: "paid" } });
    await cron();
    const reminders = await messagesOf(account.id, "payment_reminder");
    expect(reminders.map((m: any) => m.recipient)).toEqual(["unpaid@example.com"]);
    expect(reminders[0].body).toContain("/pay/cs_");
  });
});

describe("races", () => {
  it("20 visitors on the last seat of a paid service: one awaiting_payment, 19 refused", async () => {
    const { api, account, cut, room } = await paidShop();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(account.subdomain, cut.id, `Racer${i}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(19);
    const rows = await env.DB.prepare("SELECT state FROM bookings WHERE resource_id = ?").bind(room.id).all<{ state: string }>();
    expect(rows.results.map((r) => r.state)).toEqual(["awaiting_payment"]);
    expect(await freeAtTen(api, cut.id)).toBe(0);
  });

  it("a payment landing as its window lapses while another visitor books the seat: exactly one booking holds it, the other payer is refunded", async () => {
    for (let round = 0; round < 3; round++) {
      const { api, account, cut, room } = await paidShop();
      const first = await must(book(account.subdomain, cut.id, "Late"));
      const { event, signature } = await pay(sessionOf(first.booking.payment.checkout_url));
      await lapse(first.booking.id);
      const [delivered, second] = await Promise.all([deliver(event, signature), book(account.subdomain, cut.id, "Quick")]);
      expect(delivered.status).toBe(200);
      const holding = await env.DB.prepare("SELECT id, state FROM bookings WHERE resource_id = ? AND active = 1 AND (state != 'awaiting_payment' OR expires_at > ?)")
        .bind(room.id, Date.now())
        .all<{ id: number; state: string }>();
      expect(holding.results).toHaveLength(1);
      const late = (await must(api.get(`/bookings/${first.booking.id}`))).booking;
      if (delivered.body.applied === "confirmed") {
        expect(second.status).toBe(400);
        expect(late.state).toBe("confirmed");
      } else {
        expect(second.status).toBe(200);
        expect(late.payment.status).toBe("refunded");
        expect(late.active).toBe(false);
      }
    }
  });

  it("four seats lapsing at once, their four late payments racing four newcomers: four hold the seats, every late payer without one refunded in full", async () => {
    const seats = 4;
    const { api, account, cut, room } = await paidShop({ capacity: seats });
    const payers = await Promise.all(Array.from({ length: seats }, (_, n) => must(book(account.subdomain, cut.id, `Late${n}`))));
    const payments = await Promise.all(payers.map((p) => pay(sessionOf(p.booking.payment.checkout_url))));
    for (const p of payers) await lapse(p.booking.id);
    const [delivered, newcomers] = await Promise.all([
      Promise.all(payments.map(({ event, signature }) => deliver(event, signature))),
      Promise.all(Array.from({ length: seats }, (_, n) => book(account.subdomain, cut.id, `Quick${n}`))),
    ]);
    for (const d of delivered) expect(d.status).toBe(200);
    for (const n of newcomers) expect([200, 400]).toContain(n.status);
    const confirmed = delivered.filter((d) => d.body.applied === "confirmed").length;
    const booked = newcomers.filter((n) => n.status === 200).length;
    expect(confirmed + booked).toBe(seats);
    const holding = await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ? AND active = 1 AND (state != 'awaiting_payment' OR expires_at > ?)")
      .bind(room.id, Date.now())
      .first<{ n: number }>();
    expect(holding!.n).toBe(seats);
    for (const p of payers) {
      const late = (await must(api.get(`/bookings/${p.booking.id}`))).booking;
      if (late.state === "confirmed") expect(late.payment.status).toBe("paid");
      else expect(late).toMatchObject({ state: "cancelled", active: false, payment: { status: "refunded", amount_refunded: "450.00" } });
    }
    expect(await freeAtTen(api, cut.id)).toBe(0);
  });

  it("a cancel racing the payment: never a cancelled booking whose payment is kept unrefunded by policy, never a confirmed one", async () => {
    for (let round = 0; round < 3; round++) {
      const { api, account, cut } = await paidShop({ account: { refund_until_hours: null } });
      const kari = sameVisitor(account.subdomain);
      const created = await must(kari.post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Racing") } }));
      const { event, signature } = await pay(sessionOf(created.booking.payment.checkout_url));
      const [cancelled, delivered] = await Promise.all([
        kari.put(`/bookings/${created.booking.id}/cancel`, {}, { "x-booking-token": created.booking_token }),
        deliver(event, signature),
      ]);
      expect(delivered.status).toBe(200);
      const after = (await must(api.get(`/bookings/${created.booking.id}`))).booking;
      if (cancelled.status === 200) {
        expect(after.state).toBe("cancelled");
        expect(after.payment.status).toBe("refunded");
      } else {
        // The payment confirmed it first and the cancel lost its compare-and-swap: confirmed and paid.
        expect(after).toMatchObject({ state: "confirmed", payment: { status: "paid" } });
      }
    }
  });
});

describe("tenancy and bad input", () => {
  it("another account's key reaches none of a paid booking's payment routes", async () => {
    const { account, cut } = await paidShop();
    const created = await must(book(account.subdomain, cut.id));
    const { api: other } = await newAccount();
    expect((await other.post(`/bookings/${created.booking.id}/payment`, { payment: { reference: "x" } })).status).toBe(404);
    expect((await other.post(`/bookings/${created.booking.id}/checkout`, {})).status).toBe(404);
    expect((await sameVisitor(account.subdomain).post(`/bookings/${created.booking.id}/checkout`, {}, { "x-booking-token": "wrong" })).status).toBe(404);
  });

  it("refuses a paid service without its amount, a checkout of a free service, and a stripe account that is not one", async () => {
    const { api, account, room } = await paidShop();
    expect((await api.post("/services", { service: { title: "X", payment: "full" } })).body).toEqual({ price: ["can't be blank when payment is full"] });
    expect((await api.post("/services", { service: { title: "X", payment: "deposit", price: "100" } })).body).toEqual({
      deposit: ["can't be blank when payment is deposit"],
    });
    expect((await api.post("/services", { service: { title: "X", payment: "later" } })).status).toBe(400);
    const free = await catalogue(api).service({ title: "Free", interval: 60 });
    await catalogue(api).provider(room.id, free.id);
    expect((await api.post("/bookings", { booking: { service_id: free.id, resource_id: room.id, ...TIME }, checkout: true })).body).toEqual({
      checkout: ["is not possible: the service takes no payment"],
    });
    expect((await operator.put(`/accounts/${account.id}`, { account: { stripe_account_id: "not-an-account" } })).status).toBe(400);
  });

  it("a deposit is the deposit times the count, in the currency's minor units", async () => {
    const { account, cut } = await paidShop({ capacity: 3, service: { payment: "deposit", deposit: "99.5", booking_capacity: 3 } });
    const created = await must(site(account.subdomain).post("/bookings", { booking: { service_id: cut.id, ...TIME, count: 3, person_attributes: visitor("Dep") } }));
    expect(created.booking.payment).toMatchObject({ amount: "298.50", currency: "NOK" });
  });
});

describe("linking the shop's Stripe account", () => {
  it("onboarding makes the connected account once and answers Stripe's link; the operator cannot link one account to two shops", async () => {
    const { api, account } = await newAccount({ currency: "NOK", payment_provider: "stripe" });
    const first = await must(api.post("/client/stripe_onboarding", {}));
    expect(first.client.stripe_account_id).toMatch(/^acct_/);
    expect(first.onboarding_url).toMatch(/^https?:\/\//);
    const again = await must(api.post("/client/stripe_onboarding", {}));
    expect(again.client.stripe_account_id).toBe(first.client.stripe_account_id);
    const other = await newAccount();
    expect((await operator.put(`/accounts/${other.account.id}`, { account: { stripe_account_id: first.client.stripe_account_id } })).body).toEqual({
      stripe_account_id: ["is linked to another account"],
    });
    expect((await must(api.get("/client"))).client).toMatchObject({
      payment_window_minutes: 15,
      refund_until_hours: 24,
      stripe_account_id: first.client.stripe_account_id,
    });
    expect(account.id).toBeGreaterThan(0);
  });

  it("an account whose provider is not Stripe answers exactly as before: no payment settings", async () => {
    const { api } = await newAccount();
    const client = (await must(api.get("/client"))).client;
    for (const key of ["payment_window_minutes", "refund_until_hours", "stripe_account_id"]) expect(client).not.toHaveProperty(key);
  });
});

describe("every way into a booking pays the same way", () => {
  it("a held time converts into a booking awaiting payment with its checkout", async () => {
    const { api, account, cut } = await paidShop({ account: { slot_holds_enabled: true } });
    const kari = sameVisitor(account.subdomain);
    const held = await must(kari.post("/slots/holds", { slot_hold: { service_id: cut.id, ...TIME } }));
    const booked = await must(kari.post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Held") }, hold_secret: held.hold_secret }));
    expect(booked.booking).toMatchObject({ state: "awaiting_payment", payment: { status: "pending", checkout_url: expect.stringMatching(/\/pay\/cs_/) } });
    expect(await freeAtTen(api, cut.id)).toBe(0);
    await payAndDeliver(sessionOf(booked.booking.payment.checkout_url));
    expect((await must(api.get(`/bookings/${booked.booking.id}`))).booking.state).toBe("confirmed");
  });

  it("a waitlist offer of a paid service is accepted into the same checkout", async () => {
    const { api, account, cut, room } = await paidShop({ account: { waitlist_enabled: true } });
    const taken = await catalogue(api).booking({ service_id: cut.id, resource_id: room.id, ...TIME });
    const joined = await must(
      sameVisitor(account.subdomain).post("/waitlist", { waitlist_entry: { service_id: cut.id, ...TIME, person_attributes: visitor("Waiting") } }),
    );
    await must(api.put(`/bookings/${taken.id}/cancel`, {}));
    const accepted = await must(sameVisitor(account.subdomain).post(`/waitlist/${joined.waitlist_entry.id}/accept`, {}, { "x-waitlist-token": joined.waitlist_token }));
    expect(accepted.booking).toMatchObject({ state: "awaiting_payment", payment: { amount: "450.00", checkout_url: expect.stringMatching(/\/pay\/cs_/) } });
    await payAndDeliver(sessionOf(accepted.booking.payment.checkout_url));
    expect((await must(api.get(`/bookings/${accepted.booking.id}`))).booking).toMatchObject({ state: "confirmed", payment: { status: "paid" } });
  });

  it("an assistant's book (MCP) answers the checkout, and the instructions say how paying works", async () => {
    const { account, cut } = await paidShop();
    const assistant = await mcpClient(`http://${account.subdomain}.localhost/mcp`, { "cf-connecting-ip": "203.0.113.77" });
    const booked = await assistant.call("book", { booking: { service_id: cut.id, ...TIME, person_attributes: visitor("Assisted") } });
    expect(booked.booking).toMatchObject({
      state: "awaiting_payment",
      payment: { amount: "450.00", currency: "NOK", checkout_url: expect.stringMatching(/\/pay\/cs_/) },
    });
    expect(assistant.client.getInstructions()).toContain("payment.checkout_url");
  });
});
