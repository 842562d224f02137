// Property (docs/decisions/payments.md, "One source of truth"): whatever a visitor, the shop and
// Stripe do to one paid booking, in whatever order, with the payment's events lost, late, twice or
// out of order, once every event that Stripe keeps retrying has arrived and the sweep has run, the
// booking's payment says what the stand-in's ledger says, and money is either with a booking that
// holds its seat or given back in full.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { env } from "../support/api";
import { must } from "../support/bookings";
import { cron, deliver, paidShop, quietQueue, sameVisitor, sessionOf, site, standIn, stripeApi, stripeLedger, visitor, eventAbout } from "../support/payments";

type Step =
  | { kind: "pay"; lose: boolean }
  | { kind: "cancel" }
  | { kind: "delete" }
  | { kind: "lapse"; newcomer: boolean }
  | { kind: "shopRefund"; part: number }
  | { kind: "failRefund" }
  | { kind: "sweep" }
  | { kind: "deliver"; pick: number; twice: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("pay" as const), lose: fc.boolean() }), weight: 3 },
  fc.constant({ kind: "cancel" as const }),
  fc.constant({ kind: "delete" as const }),
  fc.record({ kind: fc.constant("lapse" as const), newcomer: fc.boolean() }),
  fc.record({ kind: fc.constant("shopRefund" as const), part: fc.integer({ min: 1, max: 45_000 }) }),
  fc.constant({ kind: "failRefund" as const }),
  fc.constant({ kind: "sweep" as const }),
  { arbitrary: fc.record({ kind: fc.constant("deliver" as const), pick: fc.nat(), twice: fc.boolean() }), weight: 4 },
);

interface Pending {
  event: string;
  signature: string;
  lost: boolean;
}

const minor = (decimal: string) => Math.round(Number(decimal) * 100);

describe("a paid booking's money under any order of events and actions", () => {
  it("ends as the stand-in's ledger says, and never keeps money without a seat", async () => {
    // Every cancel is refunded in full, so money kept by the policy cannot hide a lost refund.
    const shop = await paidShop({ account: { refund_until_hours: null } });
    const { api, account, stripeAccount, cut } = shop;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 9 }), async (steps) => {
        run += 1;
        // Each run books its own hour of its own day, so runs never share a seat.
        const day = `2031-${String(1 + (Math.floor(run / 28) % 12)).padStart(2, "0")}-${String(1 + (run % 28)).padStart(2, "0")}`;
        const time = { booked_from: `${day} 10:00`, booked_to: `${day} 11:00` };
        const kari = sameVisitor(account.subdomain);
        const created = await must(kari.post("/bookings", { booking: { service_id: cut.id, ...time, person_attributes: visitor(`Run${run}`) } }));
        const id = created.booking.id as number;
        const session = sessionOf(created.booking.payment.checkout_url);
        const token = { "x-booking-token": created.booking_token };
        const events: Pending[] = [];
        const intentOf = async () => (await stripeLedger(stripeAccount)).find((p) => p.booking_id === String(id));

        for (const s of steps) {
          if (s.kind === "pay") {
            const paid = await standIn("POST", `/_test/sessions/${session}/pay`);
            if (paid.status === 200) events.push({ event: paid.body.event, signature: paid.body.signature, lost: s.lose });
          } else if (s.kind === "cancel") {
            await kari.put(`/bookings/${id}/cancel`, {}, token);
          } else if (s.kind === "delete") {
            await api.delete(`/bookings/${id}`);
          } else if (s.kind === "lapse") {
            await quietQueue();
            await env.DB.prepare("UPDATE bookings SET expires_at = ? WHERE id = ? AND state = 'awaiting_payment'")
              .bind(Date.now() - 1000, id)
              .run();
            if (s.newcomer) await site(account.subdomain).post("/bookings", { booking: { service_id: cut.id, ...time, person_attributes: visitor(`New${run}`) } });
          } else if (s.kind === "shopRefund") {
            const intent = await intentOf();
            const left = intent ? intent.amount_received - intent.amount_refunded : 0;
            if (!intent || left <= 0) continue;
            const refund = (await stripeApi("POST", "/v1/refunds", stripeAccount, { payment_intent: intent.payment_intent, amount: String(Math.min(left, s.part)) }))
              .body;
            events.push({ ...(await eventAbout("refund.created", stripeAccount, `/v1/refunds/${refund.id}`)), lost: false });
          } else if (s.kind === "failRefund") {
            const refund = (await intentOf())?.refunds.find((r) => r.status === "succeeded");
            if (!refund) continue;
            const failed = (await standIn("POST", `/_test/refunds/${refund.id}/fail?stripe_account=${stripeAccount}`)).body;
            events.push({ event: failed.event, signature: failed.signature, lost: false });
          } else if (s.kind === "sweep") {
            await cron();
          } else if (events.length > 0) {
            const at = s.pick % events.length;
            const [chosen] = s.twice ? [events[at]] : events.splice(at, 1);
            if (!chosen.lost) expect((await deliver(chosen.event, chosen.signature)).status).toBe(200);
          }
        }
        // Stripe retries what it sends until it is taken; only the payment's own events were lost for good.
        for (const pending of events.filter((e) => !e.lost)) expect((await deliver(pending.event, pending.signature)).status).toBe(200);
        await quietQueue();
        await env.DB.prepare("UPDATE bookings SET expires_at = ? WHERE id = ? AND state = 'awaiting_payment'")
          .bind(Date.now() - 1000, id)
          .run();
        await cron();
        await cron();

        const booking = (await must(api.get(`/bookings/${id}`))).booking;
        const intent = await intentOf();
        const holdsSeat = booking.state === "confirmed" || booking.state === "awaiting_confirmation";
        const story = JSON.stringify({ steps, state: booking.state, payment: booking.payment, intent });
        if (!intent) {
          expect(["expired", "canceled"], story).toContain(booking.payment.status);
          expect(holdsSeat, story).toBe(false);
          return;
        }
        expect(minor(booking.payment.amount_refunded), story).toBe(intent.amount_refunded);
        const status = intent.amount_refunded >= intent.amount_received ? "refunded" : intent.amount_refunded > 0 ? "partially_refunded" : "paid";
        expect(booking.payment.status, story).toBe(status);
        expect(booking.payment.payment_intent_id, story).toBe(intent.payment_intent);
        if (!holdsSeat) expect(intent.amount_refunded, story).toBe(intent.amount_received);
      }),
      { numRuns: 20 },
    );
    // Twenty bookings of up to nine steps each, with sweeps (vitest.config.ts runs this file alone):
    // generous, so a loaded machine never fails it.
  }, 240_000);
});
