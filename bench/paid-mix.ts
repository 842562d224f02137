// The paid mix of the writes suite (issue 31, docs/decisions/payments.md): a shop taking payment
// through the local Stripe stand-in, its contended slots booked with a checkout, then paid, paid and
// cancelled (refunded by the policy), abandoned until the window lapses, paid late while a newcomer
// books the same seat, or paid late with the seat still free, or paid with the payment's event lost
// (then cancelled by the integrator, or left to the sweep); the sweep ends the rest. The Worker
// and the stand-in run their clocks ahead past the window (bench/floor-worker.ts, /_test/clock)
// instead of waiting it out. Read back from D1 and from the stand-in's ledger: no seat held twice,
// no payment left hanging, no money kept without a seat.
import { startStripeStandIn } from "../scripts/stripe-stand-in.mjs";
import { privateApi, type PrivateCall } from "./private-api";
import { account, resources, serviceWithProviders } from "./seed-sql";
import { USER_AGENT } from "./wrangler-dev";

const PAID_ACCOUNT_ID = 3;
const PAID_SERVICE_ID = 4;
const PAID_RESOURCES = Array.from({ length: 5 }, (_, i) => 200 + i);
const TIMES_PER_RESOURCE = 20;
const WINDOW_MINUTES = 15;
const CLIENTS = 20;
/** Every slot asked by two creates in a row: one waits for its payment, one is refused. */
const ASKS_PER_SLOT = 2;
const SLOT_MS = 30 * 60_000;
const FIRST_SLOT = Date.UTC(2031, 0, 1, 7);
const SECRET_KEY = "sk_test_bench";
const WEBHOOK_SECRET = "whsec_bench_standin";

/** What becomes of a slot's first booking; every resource sees every fate, neighbours differ. */
const FATES = [
  "paid",
  "paid, then cancelled",
  "paid late against a newcomer",
  "paid late, seat free",
  "abandoned",
  "paid, event lost, then cancelled",
  "paid, event lost",
] as const;
type Fate = (typeof FATES)[number];
const fateOf = (slot: number): Fate => FATES[(slot + Math.floor(slot / PAID_RESOURCES.length)) % FATES.length];
/** A newcomer starts 0 to 90 ms after the late payer, so either may reach the seat first. */
const NEWCOMER_LAG_MS = [0, 30, 60, 90];

export interface StripeStandIn {
  origin: string;
  stripeAccount: string;
  vars: Record<string, string>;
  close(): Promise<void>;
}

/** The stand-in, and a connected account onboarded on it for the paid shop. */
export async function paidStandIn(): Promise<StripeStandIn> {
  const standIn = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
  const made = await fetch(`${standIn.origin}/v1/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET_KEY}`, "content-type": "application/x-www-form-urlencoded" },
    body: "type=express&country=NO",
  });
  const { id } = (await made.json()) as { id: string };
  await fetch(`${standIn.origin}/_test/accounts/${id}/onboard`, { method: "POST" });
  return {
    origin: standIn.origin,
    stripeAccount: id,
    vars: { STRIPE_API_BASE: standIn.origin, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    close: standIn.close,
  };
}

/** The paid shop: NOK, its Stripe account linked, a 15-minute window, refunds in full until the start. */
export function paidShop(stripeAccount: string) {
  const shop = account(PAID_ACCOUNT_ID, "writes-paid", {
    currency: "NOK",
    payment_provider: "stripe",
    stripe_account_id: stripeAccount,
    payment_window_minutes: WINDOW_MINUTES,
    refund_until_hours: 0,
  });
  return {
    apiKey: shop.apiKey,
    sql: [
      shop.sql,
      resources(
        PAID_ACCOUNT_ID,
        PAID_RESOURCES.map((id) => ({ id, capacity: 1, hours: null })),
      ),
      serviceWithProviders(PAID_ACCOUNT_ID, PAID_SERVICE_ID, 30, PAID_RESOURCES, { price: "450", payment: "full" }),
    ].join("\n"),
  };
}

interface Slot {
  fate: Fate;
  resource: number;
  from: number;
  /** The booking that waits for this slot's payment, and its checkout session. */
  first?: { id: number; session: string };
  newcomer?: number;
}

export interface PaidOutcome {
  seconds: number;
  /** Wall time of each create answered 200 (a checkout opened) and 400 (the seat taken), ms. */
  createdMs: number[];
  refusedMs: number[];
  paid: number;
  cancelled: number;
  latePaid: number;
  /** Paid at the stand-in with the event never delivered: found by the cancel's expire or by the sweep. */
  lostPaid: number;
  newcomersBooked: number;
  newcomersRefused: number;
  slots: Slot[];
  /** How far the Worker's clock ran ahead. */
  aheadMs: number;
  other: string[];
  /** What the money truly did, read from the stand-in after the sweep: each payment intent, paid and refunded. */
  ledger: { booking_id: string | null; amount_received: number; amount_refunded: number }[];
}

const sessionOf = (checkoutUrl: string) => new URL(checkoutUrl).pathname.split("/").pop()!;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");
/** A booking of the paid service; with `checkout: true` the private API opens its checkout. */
export const paidBooking = (resource: number, from: number, length: number) => ({
  booking: { service_id: PAID_SERVICE_ID, resource_id: resource, booked_from: iso(from), booked_to: iso(from + length) },
});
const slotBody = (slot: Slot) => ({ ...paidBooking(slot.resource, slot.from, SLOT_MS), checkout: true });

/** `work` for each item, `CLIENTS` at a time. */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** The payer pays at the stand-in, and Stripe's signed event reaches the Worker: its status, with the answer's start when it is not 200. */
async function payAndDeliver(port: number, standIn: StripeStandIn, session: string): Promise<string> {
  const paid = await fetch(`${standIn.origin}/_test/sessions/${session}/pay`, { method: "POST" });
  if (paid.status !== 200) return `${paid.status} at the stand-in: ${(await paid.text()).slice(0, 120)}`;
  const { event, signature } = (await paid.json()) as { event: string; signature: string };
  const delivered = await fetch(`http://127.0.0.1:${port}/api/v1/payments/stripe/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature, "user-agent": `Stripe/1.0 ${USER_AGENT}` },
    body: event,
  });
  const answer = await delivered.text();
  return delivered.status === 200 ? "200" : `${delivered.status} (${answer.slice(0, 120)})`;
}

async function create(call: PrivateCall, slot: Slot, out: PaidOutcome) {
  const at = performance.now();
  const answer = await call("POST", "/bookings", slotBody(slot));
  const ms = performance.now() - at;
  if (answer.status === 200) out.createdMs.push(ms);
  else if (answer.status === 400) out.refusedMs.push(ms);
  else out.other.push(`create ${answer.status}`);
  return answer.status === 200 ? { id: answer.body.booking.id as number, session: sessionOf(answer.body.booking.payment.checkout_url) } : null;
}

export async function paidMix(port: number, key: string, standIn: StripeStandIn): Promise<PaidOutcome> {
  const out: PaidOutcome = {
    seconds: 0,
    createdMs: [],
    refusedMs: [],
    paid: 0,
    cancelled: 0,
    latePaid: 0,
    lostPaid: 0,
    newcomersBooked: 0,
    newcomersRefused: 0,
    slots: [],
    aheadMs: 0,
    other: [],
    ledger: [],
  };
  const call = privateApi(port, key);
  const started = performance.now();
  out.slots = Array.from({ length: PAID_RESOURCES.length * TIMES_PER_RESOURCE }, (_, n) => ({
    fate: fateOf(n),
    resource: PAID_RESOURCES[n % PAID_RESOURCES.length],
    from: FIRST_SLOT + Math.floor(n / PAID_RESOURCES.length) * SLOT_MS,
  }));

  // Creates with a checkout, each slot asked twice in a row by different clients.
  const asks = out.slots.flatMap((slot) => Array.from({ length: ASKS_PER_SLOT }, () => slot));
  await inParallel(asks, async (slot) => {
    const made = await create(call, slot, out);
    if (made) {
      if (slot.first) out.other.push(`slot ${iso(slot.from)} on ${slot.resource} booked twice`);
      slot.first = made;
    }
  });

  // Within the window: paid; paid and then cancelled (the policy refunds it in full).
  await inParallel(
    out.slots.filter((s) => s.first && (s.fate === "paid" || s.fate === "paid, then cancelled")),
    async (slot) => {
      const delivered = await payAndDeliver(port, standIn, slot.first!.session);
      if (delivered !== "200") return void out.other.push(`payment event ${delivered}`);
      out.paid += 1;
      if (slot.fate !== "paid, then cancelled") return;
      const cancelled = await call("PUT", `/bookings/${slot.first!.id}/cancel`, {});
      if (cancelled.status === 200) out.cancelled += 1;
      else out.other.push(`cancel ${cancelled.status}`);
    },
  );

  // Paid, and the event never comes: cancelled by the integrator (its expire finds the payment and
  // refunds it), or left to the sweep (which finds it after the window, and confirms it late).
  await inParallel(
    out.slots.filter((s) => s.first && (s.fate === "paid, event lost, then cancelled" || s.fate === "paid, event lost")),
    async (slot) => {
      const paid = await fetch(`${standIn.origin}/_test/sessions/${slot.first!.session}/pay`, { method: "POST" });
      await paid.arrayBuffer();
      if (paid.status !== 200) return void out.other.push(`pay ${paid.status}`);
      out.lostPaid += 1;
      if (slot.fate !== "paid, event lost, then cancelled") return;
      const cancelled = await call("PUT", `/bookings/${slot.first!.id}/cancel`, {});
      if (cancelled.status === 200) out.cancelled += 1;
      else out.other.push(`cancel ${cancelled.status}`);
    },
  );

  // The window passes for everyone still unpaid: their seats are free with no write.
  out.aheadMs = (WINDOW_MINUTES + 1) * 60_000;
  const moved = await call("POST", "/__bench/clock", { ahead_ms: out.aheadMs });
  const standInMoved = await fetch(`${standIn.origin}/_test/clock`, { method: "POST", body: JSON.stringify({ ahead_seconds: out.aheadMs / 1000 }) });
  if (moved.status !== 200 || standInMoved.status !== 200) throw new Error(`moving the clocks: ${moved.status}, ${standInMoved.status}`);

  // Late payments, half of them while a newcomer books the very seat.
  let race = 0;
  await inParallel(
    out.slots.filter((s) => s.first && (s.fate === "paid late against a newcomer" || s.fate === "paid late, seat free")),
    async (slot) => {
      const late = payAndDeliver(port, standIn, slot.first!.session);
      const lag = NEWCOMER_LAG_MS[race++ % NEWCOMER_LAG_MS.length];
      const newcomer = slot.fate === "paid late against a newcomer" ? new Promise((r) => setTimeout(r, lag)).then(() => create(call, slot, out)) : Promise.resolve(null);
      const [delivered, booked] = await Promise.all([late, newcomer]);
      if (delivered === "200") out.latePaid += 1;
      else out.other.push(`late payment event ${delivered}`);
      if (slot.fate !== "paid late against a newcomer") return;
      if (booked) {
        slot.newcomer = booked.id;
        out.newcomersBooked += 1;
      } else out.newcomersRefused += 1;
    },
  );

  // The cron's sweep ends the abandoned bookings and expires their sessions.
  const swept = await call("POST", "/__bench/cron", {});
  if (swept.status !== 200) out.other.push(`cron ${swept.status}`);
  out.seconds = (performance.now() - started) / 1000;
  out.ledger = await (await fetch(`${standIn.origin}/_test/ledger?stripe_account=${standIn.stripeAccount}`)).json();
  return out;
}

export interface PaidRow {
  id: number;
  resource_id: number;
  booked_from: number;
  booked_to: number;
  count: number;
  state: string;
  expires_at: number | null;
  pay_status: string | null;
  amount: number | null;
  refunded: number | null;
}

export const paidRowsSql = `SELECT id, resource_id, occupied_from AS booked_from, occupied_to AS booked_to, count, state, expires_at,
  json_extract(payment, '$.status') AS pay_status, json_extract(payment, '$.amount') AS amount, json_extract(payment, '$.amount_refunded') AS refunded
  FROM bookings WHERE account_id = ${PAID_ACCOUNT_ID}`;

const HOLDS_SEAT = new Set(["confirmed", "awaiting_confirmation"]);

/**
 * The paid shop read back: the seats held (paid, or waiting within their window on the Worker's
 * clock) never over capacity, each slot's fate as it must end, every captured payment either on a
 * booking that holds its seat or refunded in full, nothing waiting past its window after the sweep.
 */
export function paidInvariant(rows: PaidRow[], out: PaidOutcome, workerNow: number, peakPerResource: (rows: PaidRow[]) => Map<number, number>) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const holding = (r: PaidRow | undefined) => !!r && (HOLDS_SEAT.has(r.state) || (r.state === "awaiting_payment" && r.expires_at !== null && r.expires_at > workerNow));
  const peaks = peakPerResource(rows.filter((r) => holding(r)));
  const over = [...peaks].filter(([, peak]) => peak > 1);
  const problems: string[] = [];
  const fateRight: Record<Fate, (first: PaidRow | undefined, slot: Slot) => boolean> = {
    paid: (first) => first?.state === "confirmed" && first.pay_status === "paid",
    "paid, then cancelled": (first) => first?.state === "cancelled" && first.pay_status === "refunded",
    // Exactly one of the late payer and the newcomer holds the seat; a late payer without it is refunded.
    "paid late against a newcomer": (first, slot) => {
      const newcomer = slot.newcomer === undefined ? undefined : byId.get(slot.newcomer);
      const holders = [first, newcomer].filter(holding).length;
      return holders === 1 && (holding(first) ? first!.pay_status === "paid" : first?.pay_status === "refunded");
    },
    "paid late, seat free": (first) => first?.state === "confirmed" && first.pay_status === "paid",
    abandoned: (first) => first?.state === "cancelled" && first.pay_status === "expired",
    "paid, event lost, then cancelled": (first) => first?.state === "cancelled" && first.pay_status === "refunded",
    "paid, event lost": (first) => first?.state === "confirmed" && first.pay_status === "paid",
  };
  for (const slot of out.slots) {
    if (!slot.first) {
      problems.push(`${iso(slot.from)} on ${slot.resource}: never booked`);
      continue;
    }
    const first = byId.get(slot.first.id);
    if (!fateRight[slot.fate](first, slot)) problems.push(`${slot.fate}: booking ${slot.first.id} ${first?.state}/${first?.pay_status}`);
  }
  const hanging = rows.filter((r) => r.pay_status === "paid" && !HOLDS_SEAT.has(r.state));
  const partlyRefunded = rows.filter((r) => r.pay_status === "refunded" && r.refunded !== r.amount);
  const lapsedUnswept = rows.filter((r) => r.state === "awaiting_payment" && (r.expires_at ?? 0) <= workerNow);
  const refunds = rows.filter((r) => r.pay_status === "refunded").length;
  const paidHolding = rows.filter((r) => r.pay_status === "paid" && HOLDS_SEAT.has(r.state)).length;
  const captured = out.paid + out.latePaid + out.lostPaid;
  // No money kept without a seat, as the stand-in's ledger (not the product) tells it.
  const keptWithoutSeat = out.ledger.filter((p) => !HOLDS_SEAT.has(byId.get(Number(p.booking_id))?.state ?? "") && p.amount_refunded !== p.amount_received);
  const pass =
    over.length === 0 &&
    problems.length === 0 &&
    hanging.length === 0 &&
    partlyRefunded.length === 0 &&
    lapsedUnswept.length === 0 &&
    keptWithoutSeat.length === 0 &&
    out.ledger.length === captured &&
    paidHolding + refunds === captured &&
    out.other.length === 0;
  const detail =
    `paid: ${rows.length} bookings on ${peaks.size} resources, max concurrent ${Math.max(0, ...peaks.values())} (capacity 1), ${over.length} over capacity; ` +
    `${captured} payments taken (${out.lostPaid} with their event lost) = ${paidHolding} confirmed + ${refunds} refunded in full; ` +
    `${keptWithoutSeat.length} kept without a seat by the stand-in's ledger; ${out.newcomersBooked} newcomers took a lapsed seat ` +
    `(${out.newcomersRefused} refused, their late payers confirmed); ${hanging.length} paid without a seat, ${lapsedUnswept.length} lapsed but not swept, ` +
    `${problems.length} slots not as they must end${problems.length ? ` (${problems.slice(0, 3).join("; ")})` : ""}${out.other.length ? `; unexpected: ${out.other.slice(0, 5).join(", ")}` : ""}`;
  return { pass, detail };
}
