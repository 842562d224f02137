// POST /bookings throughput through a real `wrangler dev`: clients spread over 20 resources (one
// CapacityGuard each), all clients on one resource, and a mix of slot holds, their conversions and
// releases with plain creates on a service with buffers, and cancels in bursts against waitlists;
// then the capacity invariant read back from D1 after the server has stopped (buffers, live holds
// and waitlist offers included, and no offer hold without its entry); figures as JSON.
import type autocannon from "autocannon";
import { costOf, expectStatuses, fire, floorPath, floorSummary, round, summarise, type Figure, type Run } from "./load";
import { profileWhile } from "./cpu-profile";
import { account, resources, serviceWithProviders } from "./seed-sql";
import { paidBooking, paidInvariant, paidMix, paidRowsSql, paidShop, paidStandIn, type PaidRow } from "./paid-mix";
import { privateApi } from "./private-api";
import { log } from "./suite";
import { peakPerResource, type Row } from "./peaks";
import { withBenchServer } from "./wrangler-dev";
import { unpairedOffersSql } from "../src/features/waitlist/pairing";

const ACCOUNT_ID = 1;
const SERVICE_ID = 1;
const SPREAD = 20;
const SINGLE = SPREAD + 1;
/** The mix: a service with a clean-up after each booking, on resources of its own. */
const BUFFERED_SERVICE_ID = 2;
const BUFFER_AFTER_MIN = 15;
const MIX_RESOURCES = Array.from({ length: 5 }, (_, i) => SINGLE + 1 + i);
const MIX_ATTEMPTS = 300;
const CONNECTIONS = 20;
const ATTEMPTS = 600;
/**
 * Every slot is asked for by two requests in a row, so with capacity 1 half the attempts must be
 * refused: the guard is exercised under real contention, not only on free slots.
 */
const ASKS_PER_SLOT = 2;
const SLOT_MS = 30 * 60_000;
const FIRST_SLOT = Date.UTC(2031, 0, 1, 7);
const PROBE_FROM = Date.UTC(2035, 0, 1, 7);
const REFUSAL_SECONDS = 4;
/** Creates made one at a time, unpaid and paid, for the comparison of their waits. */
const ONE_BY_ONE = 20;
/** Clients of a profiled load: enough to keep the Worker busy, few enough to stay clear of the descriptor limit. */
const PROFILE_CLIENTS = 4;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");
const bookingBody = (resourceId: number, from: number) =>
  JSON.stringify({ booking: { resource_id: resourceId, service_id: SERVICE_ID, booked_from: iso(from), booked_to: iso(from + SLOT_MS) } });

/** Request n asks for slot `slotOf(n)` on `resourceOf(n)`; the counter is shared by all clients. */
function asking(resourceOf: (ask: number) => number, slotOf: (ask: number) => number) {
  let n = 0;
  const asked = new Set<string>();
  const setupRequest = (request: autocannon.Request) => {
    const ask = Math.floor(n / ASKS_PER_SLOT);
    n += 1;
    asked.add(`${resourceOf(ask)}@${slotOf(ask)}`);
    return { ...request, body: bookingBody(resourceOf(ask), FIRST_SLOT + slotOf(ask) * SLOT_MS) };
  };
  return { setupRequest, asked };
}

interface MixOutcome {
  seconds: number;
  holds: number;
  holdsRefused: number;
  converted: number;
  /** A conversion of a live hold must never be refused: any here is a failure. */
  conversionsRefused: number;
  released: number;
  plainBooked: number;
  plainRefused: number;
  other: string[];
}

/**
 * Slot holds and buffers in the mix: each client takes the next slot of a 30-minute grid whose
 * bookings hold 15 minutes more (so neighbours contend), holds it and then books it with the
 * hold's secret (three in four) or releases it; when the hold is refused it tries a plain create.
 * Sequential per client, because a conversion needs the secret its hold answered.
 */
async function holdsAndBuffersMix(port: number, key: string): Promise<MixOutcome> {
  const out: MixOutcome = { seconds: 0, holds: 0, holdsRefused: 0, converted: 0, conversionsRefused: 0, released: 0, plainBooked: 0, plainRefused: 0, other: [] };
  const call = privateApi(port, key);
  let n = 0;
  const started = performance.now();
  const client = async () => {
    for (let ask = n++; ask < MIX_ATTEMPTS; ask = n++) {
      const resource = MIX_RESOURCES[ask % MIX_RESOURCES.length];
      const from = FIRST_SLOT + Math.floor(ask / MIX_RESOURCES.length) * SLOT_MS;
      const slot = { service_id: BUFFERED_SERVICE_ID, resource_id: resource, booked_from: iso(from), booked_to: iso(from + SLOT_MS) };
      const held = await call("POST", "/slots/holds", { slot_hold: slot });
      if (held.status === 200) {
        out.holds += 1;
        if (ask % 4 === 3) {
          const released = await call("DELETE", `/slots/holds/${held.body.slot_hold.id}`);
          if (released.status === 200) out.released += 1;
          else out.other.push(`release ${released.status}`);
        } else {
          const booked = await call("POST", "/bookings", { booking: slot, hold_secret: held.body.hold_secret });
          if (booked.status === 200) out.converted += 1;
          else if (booked.status === 400) out.conversionsRefused += 1;
          else out.other.push(`conversion ${booked.status}`);
        }
      } else if (held.status === 400) {
        out.holdsRefused += 1;
        const booked = await call("POST", "/bookings", { booking: slot });
        if (booked.status === 200) out.plainBooked += 1;
        else if (booked.status === 400) out.plainRefused += 1;
        else out.other.push(`create ${booked.status}`);
      } else {
        out.other.push(`hold ${held.status}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  out.seconds = (performance.now() - started) / 1000;
  return out;
}

/** The waitlist mix: a shop of its own with the waitlist on, whose full classes lose seats in bursts of cancels. */
const WAITLIST_ACCOUNT_ID = 2;
const WAITLIST_SERVICE_ID = 3;
const WAITLIST_RESOURCES = Array.from({ length: 5 }, (_, i) => 100 + i);
const WAITLIST_SEATS = 4;
const WAITLIST_LINE = 5;
const WAITLIST_TIMES_PER_RESOURCE = 6;

interface WaitlistOutcome {
  seconds: number;
  cancels: number;
  cancelMs: number[];
  /** Times whose line did not end as "the first min(freed, waiting) offered, the rest waiting". */
  misordered: string[];
  other: string[];
}

/**
 * Cancels in bursts against a line (issue 30): each time of a capacity-4 resource is booked full,
 * five people join its line, then its four bookings are cancelled at once. One client per
 * resource, so bursts of different resources overlap too. Every freed seat must end offered to the
 * next in line: four offered, the fifth still waiting, no hold without its entry.
 */
async function waitlistBursts(port: number, key: string): Promise<WaitlistOutcome> {
  const out: WaitlistOutcome = { seconds: 0, cancels: 0, cancelMs: [], misordered: [], other: [] };
  const call = privateApi(port, key);
  const started = performance.now();
  await Promise.all(
    WAITLIST_RESOURCES.map(async (resource) => {
      for (let t = 0; t < WAITLIST_TIMES_PER_RESOURCE; t++) {
        const from = FIRST_SLOT + t * 2 * SLOT_MS;
        const time = { service_id: WAITLIST_SERVICE_ID, resource_id: resource, booked_from: iso(from), booked_to: iso(from + SLOT_MS) };
        const booked: number[] = [];
        for (let seat = 0; seat < WAITLIST_SEATS; seat++) {
          const created = await call("POST", "/bookings", { booking: time });
          if (created.status === 200) booked.push(created.body.booking.id);
          else out.other.push(`create ${created.status}`);
        }
        const line: number[] = [];
        for (let n = 0; n < WAITLIST_LINE; n++) {
          const joined = await call("POST", "/waitlist", { waitlist_entry: { ...time, person_attributes: { name: `W${n}` } } });
          if (joined.status === 200) line.push(joined.body.waitlist_entry.id);
          else out.other.push(`join ${joined.status}`);
        }
        const cancels = await Promise.all(
          booked.map(async (id) => {
            const at = performance.now();
            const cancelled = await call("PUT", `/bookings/${id}/cancel`, {});
            out.cancelMs.push(performance.now() - at);
            return cancelled.status;
          }),
        );
        out.cancels += cancels.length;
        for (const status of cancels) if (status !== 200) out.other.push(`cancel ${status}`);
        const states = await Promise.all(line.map(async (id) => (await call("GET", `/waitlist/${id}`)).body.waitlist_entry?.state));
        const expected = line.map((_, i) => (i < Math.min(booked.length, line.length) ? "offered" : "waiting"));
        if (states.join() !== expected.join()) out.misordered.push(`${resource}@${t}: ${states.join(" ")}`);
      }
    }),
  );
  out.seconds = (performance.now() - started) / 1000;
  return out;
}

const tenant = account(ACCOUNT_ID, "writes");
const ids = Array.from({ length: SINGLE }, (_, i) => i + 1);
const sql: string[] = [
  tenant.sql,
  resources(
    ACCOUNT_ID,
    ids.map((id) => ({ id, capacity: 1, hours: null })),
  ),
  serviceWithProviders(ACCOUNT_ID, SERVICE_ID, 30, ids),
  resources(
    ACCOUNT_ID,
    MIX_RESOURCES.map((id) => ({ id, capacity: 1, hours: null })),
  ),
  serviceWithProviders(ACCOUNT_ID, BUFFERED_SERVICE_ID, 30, MIX_RESOURCES, { buffer_after: BUFFER_AFTER_MIN }),
];
const key = tenant.apiKey;
const waitlistShop = account(WAITLIST_ACCOUNT_ID, "writes-waitlist", { waitlist_enabled: true });
sql.push(
  waitlistShop.sql,
  resources(
    WAITLIST_ACCOUNT_ID,
    WAITLIST_RESOURCES.map((id) => ({ id, capacity: WAITLIST_SEATS, hours: null })),
  ),
  serviceWithProviders(WAITLIST_ACCOUNT_ID, WAITLIST_SERVICE_ID, 30, WAITLIST_RESOURCES),
);

// The paid shop books through a local Stripe stand-in (bench/paid-mix.ts), started before the seed that names its account.
const standIn = await paidStandIn();
const paid = paidShop(standIn.stripeAccount);
sql.push(paid.sql);

const paidProbeBody = JSON.stringify({ ...paidBooking(200, PROBE_FROM, SLOT_MS), checkout: true });

const figures = await withBenchServer(
  "writes",
  sql.join("\n"),
  async (server) => {
    const probe = await server.request("/api/v1/bookings", { method: "POST", key, body: JSON.parse(bookingBody(1, PROBE_FROM)) });
    if (probe.status !== 200) throw new Error(`POST /bookings: ${probe.status} ${probe.text}`);
    const bytes = Buffer.byteLength(probe.text);
    const target = { path: "/api/v1/bookings", method: "POST" as const, key, body: bookingBody(1, PROBE_FROM) };
    const floor = { path: floorPath(bytes), method: "POST" as const, key, body: target.body };

    if (process.env.BENCH_CPU_PROFILE) {
      // Profiles only, first: under the CLI's `wrangler dev` (inspector on) workerd runs out of file
      // descriptors after some 20,000 requests ("Too many open files") and every later request hangs,
      // so the measured runs are left out (bench/README.md, "--profile").
      for (const [slug, which] of [
        ["writes-refusal", target],
        ["writes-floor", floor],
      ] as const) {
        await fire(server, which, { connections: PROFILE_CLIENTS, seconds: 1 });
        console.error(await profileWhile(server.inspectorPort, slug, () => fire(server, which, { connections: PROFILE_CLIENTS, seconds: 3 })));
      }
      return [];
    }
    await fire(server, floor, { connections: CONNECTIONS, seconds: 1 });
    const floorRuns: Run[] = [await fire(server, floor, { connections: CONNECTIONS, seconds: 3 })];

    const cases = [
      {
        label: `${SPREAD} resources in parallel`,
        ...asking(
          (ask) => 1 + (ask % SPREAD),
          (ask) => Math.floor(ask / SPREAD),
        ),
      },
      {
        label: "all clients on one resource",
        ...asking(
          () => SINGLE,
          (ask) => ask,
        ),
      },
    ];
    const runs: { label: string; run: Run; asked: Set<string> }[] = [];
    for (const { label, setupRequest, asked } of cases) {
      log("writes", `${label}: ${ATTEMPTS} attempts from ${CONNECTIONS} clients`);
      const run = await fire(server, { ...target, setupRequest }, { connections: CONNECTIONS, amount: ATTEMPTS });
      expectStatuses(`POST /bookings, ${label}`, [run], [200, 400]);
      runs.push({ label, run, asked });
      floorRuns.push(await fire(server, floor, { connections: CONNECTIONS, seconds: 3 }));
    }
    log("writes", `holds and buffers in the mix: ${MIX_ATTEMPTS} slots from ${CONNECTIONS} clients`);
    const mix = await holdsAndBuffersMix(server.port, key);
    floorRuns.push(await fire(server, floor, { connections: CONNECTIONS, seconds: 3 }));
    log(
      "writes",
      `waitlist: ${WAITLIST_RESOURCES.length * WAITLIST_TIMES_PER_RESOURCE} full times, ${WAITLIST_SEATS} cancels at once against a line of ${WAITLIST_LINE}`,
    );
    const waitlist = await waitlistBursts(server.port, waitlistShop.apiKey);
    log("writes", "paid: creates with a checkout on contended slots, payments, refunds, lapses, late payments against newcomers, the sweep");
    const paidOutcome = await paidMix(server.port, paid.apiKey, standIn);
    // Refusals alone: every client asks for the probe's slot, full since the probe took it.
    const full = { ...target, body: bookingBody(1, PROBE_FROM) };
    log("writes", `refusals of one full slot: ${CONNECTIONS} clients for ${REFUSAL_SECONDS} s`);
    const refusals = await fire(server, full, { connections: CONNECTIONS, seconds: REFUSAL_SECONDS });
    expectStatuses("POST /bookings of a full slot", [refusals], [400]);
    floorRuns.push(await fire(server, floor, { connections: CONNECTIONS, seconds: 3 }));
    expectStatuses("POST floor", floorRuns, [200]);

    // Sequential waits of one refusal and one create, from their Server-Timing: the refusal first,
    // as the load met it (the create changes the availability version, after which the next
    // refusal of the slot is the guard's again and only the one after it comes from memory).
    const refusalCost = await costOf(server, full);
    const createCost = await costOf(server, { ...target, body: bookingBody(1, PROBE_FROM + SLOT_MS) });
    const paidCreateCost = await costOf(server, { ...target, key: paid.apiKey, body: paidProbeBody });
    // One create at a time on free slots, unpaid then paid: what taking payment adds to a create's wait.
    const oneByOne = async (apiKey: string, bodyOf: (n: number) => unknown) => {
      const ms: number[] = [];
      for (let n = 0; n < ONE_BY_ONE; n++) {
        const at = performance.now();
        const res = await server.request("/api/v1/bookings", { method: "POST", key: apiKey, body: bodyOf(n) });
        if (res.status !== 200) throw new Error(`POST /bookings one by one: ${res.status} ${res.text}`);
        ms.push(performance.now() - at);
      }
      return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)];
    };
    const unpaidAlone = await oneByOne(key, (n) => JSON.parse(bookingBody(1, PROBE_FROM + (2 + n) * SLOT_MS)));
    const paidAlone = await oneByOne(paid.apiKey, (n) => ({ ...paidBooking(201, PROBE_FROM + n * SLOT_MS, SLOT_MS), checkout: true }));
    await server.stop();
    const allRows = server.query<Row>(
      `SELECT resource_id, occupied_from AS booked_from, occupied_to AS booked_to, count FROM bookings WHERE account_id = ${ACCOUNT_ID} AND active = 1 AND booked_from < ${PROBE_FROM}`,
    );
    const mixIds = new Set(MIX_RESOURCES);
    const rows = allRows.filter((r) => !mixIds.has(r.resource_id));
    // The mix's bookings over their occupied span, with the holds no booking took over (as if none had lapsed).
    const mixRows = [
      ...allRows.filter((r) => mixIds.has(r.resource_id)),
      ...server.query<Row>(
        `SELECT resource_id, occupied_from AS booked_from, occupied_to AS booked_to, count FROM slot_holds WHERE account_id = ${ACCOUNT_ID} AND ended_at IS NULL`,
      ),
    ];
    const mixPeaks = peakPerResource(mixRows);
    const mixOver = [...mixPeaks].filter(([, peak]) => peak > 1);
    const mixBooked = allRows.length - rows.length;
    const mixPass = mixOver.length === 0 && mix.conversionsRefused === 0 && mix.other.length === 0 && mixBooked === mix.converted + mix.plainBooked;
    const capacity = 1;
    const peaks = peakPerResource(rows);
    const over = [...peaks].filter(([, peak]) => peak > capacity);
    const created = runs.reduce((n, r) => n + (r.run.statuses.get(200) ?? 0), 0);
    const slots = runs.reduce((n, r) => n + r.asked.size, 0);
    const distinct = new Set(rows.map((r) => `${r.resource_id}@${(r.booked_from - FIRST_SLOT) / SLOT_MS}`)).size;
    // The waitlist shop: bookings and live holds (offers) within capacity, and every live offer hold owned.
    const checkedAt = Date.now();
    const waitlistRows = [
      ...server.query<Row>(
        `SELECT resource_id, occupied_from AS booked_from, occupied_to AS booked_to, count FROM bookings WHERE account_id = ${WAITLIST_ACCOUNT_ID} AND active = 1`,
      ),
      ...server.query<Row>(
        `SELECT resource_id, occupied_from AS booked_from, occupied_to AS booked_to, count FROM slot_holds WHERE account_id = ${WAITLIST_ACCOUNT_ID} AND ended_at IS NULL AND expires_at > ${checkedAt}`,
      ),
    ];
    const waitlistOver = [...peakPerResource(waitlistRows)].filter(([, peak]) => peak > WAITLIST_SEATS);
    const unpaired = server.query<{ kind: string; id: number }>(unpairedOffersSql(WAITLIST_ACCOUNT_ID, checkedAt));
    const waitlistPass = waitlistOver.length === 0 && unpaired.length === 0 && waitlist.misordered.length === 0 && waitlist.other.length === 0;
    const paidCheck = paidInvariant(server.query<PaidRow>(paidRowsSql), paidOutcome, checkedAt + paidOutcome.aheadMs, peakPerResource);
    const pass = over.length === 0 && rows.length === created && created === slots && distinct === slots && mixPass && waitlistPass && paidCheck.pass;

    const floorFigure = floorSummary("POST /bookings", floorRuns, bytes);
    const out: Figure[] = [];
    for (const { label, run } of runs) {
      const figure = summarise(`http: POST /bookings, ${label} (${CONNECTIONS} clients)`, [run], { bytes });
      const booked = run.statuses.get(200) ?? 0;
      out.push({
        ...figure,
        ratio: round(figure.median! / floorFigure.median!),
        rps_ratio: round(floorFigure.rps! / figure.rps!),
        bookings_per_s: round(booked / run.seconds, 1),
        detail: `${booked} booked, ${run.statuses.get(400) ?? 0} refused as full (each slot asked ${ASKS_PER_SLOT}x)`,
      });
    }
    const refusalFigure = summarise(`http: POST /bookings refused, one full slot (${CONNECTIONS} clients)`, [refusals], { bytes });
    out.push({
      ...refusalFigure,
      ratio: round(refusalFigure.median! / floorFigure.median!),
      rps_ratio: round(floorFigure.rps! / refusalFigure.rps!),
      d1_round_trips: refusalCost.d1,
      do_calls: refusalCost.doCalls,
      detail: `${refusals.statuses.get(400) ?? 0} refused (${round((refusals.statuses.get(400) ?? 0) / refusals.seconds, 1)}/s); a create: ${createCost.d1} D1 + ${createCost.doCalls} DO waits`,
    });
    out.push({
      name: `http: slot holds and buffers in the mix: hold, then book with its secret or release (${CONNECTIONS} clients)`,
      unit: "requests/s",
      calls: mix.holds + mix.holdsRefused + mix.converted + mix.conversionsRefused + mix.released + mix.plainBooked + mix.plainRefused,
      rps: round((mix.holds + mix.holdsRefused + mix.converted + mix.conversionsRefused + mix.released + mix.plainBooked + mix.plainRefused) / mix.seconds, 1),
      bookings_per_s: round((mix.converted + mix.plainBooked) / mix.seconds, 1),
      detail:
        `${mix.holds} held (${mix.holdsRefused} refused), ${mix.converted} converted (${mix.conversionsRefused} refused), ${mix.released} released, ` +
        `${mix.plainBooked} plain creates after a refused hold (${mix.plainRefused} refused)${mix.other.length ? `; unexpected: ${mix.other.slice(0, 5).join(", ")}` : ""}`,
    });
    const cancelMs = [...waitlist.cancelMs].sort((a, b) => a - b);
    out.push({
      name: `http: waitlist: ${WAITLIST_SEATS} cancels at once against a line of ${WAITLIST_LINE} (${WAITLIST_RESOURCES.length} resources at once)`,
      unit: "ms",
      calls: waitlist.cancels,
      median: round(cancelMs[Math.floor(cancelMs.length / 2)] ?? 0),
      p95: round(cancelMs[Math.floor(cancelMs.length * 0.95)] ?? 0),
      rps: round(waitlist.cancels / waitlist.seconds, 1),
      detail:
        `${waitlist.cancels} cancels, each with its offer pass; ${waitlist.misordered.length} lines not offered in order` +
        `${waitlist.misordered.length ? ` (${waitlist.misordered.slice(0, 3).join("; ")})` : ""}${waitlist.other.length ? `; unexpected: ${waitlist.other.slice(0, 5).join(", ")}` : ""}`,
    });
    const paidMs = (list: number[]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return { median: round(sorted[Math.floor(sorted.length / 2)] ?? 0), p95: round(sorted[Math.floor(sorted.length * 0.95)] ?? 0) };
    };
    out.push({
      name: `http: POST /bookings of a paid service with its checkout (Stripe stand-in), each slot asked ${ASKS_PER_SLOT}x (${CONNECTIONS} clients)`,
      unit: "ms",
      calls: paidOutcome.createdMs.length + paidOutcome.refusedMs.length,
      ...paidMs(paidOutcome.createdMs),
      d1_round_trips: paidCreateCost.d1,
      do_calls: paidCreateCost.doCalls,
      detail:
        `${paidOutcome.createdMs.length} awaiting payment with a checkout (median ${paidMs(paidOutcome.createdMs).median} ms), ` +
        `${paidOutcome.refusedMs.length} refused as taken (median ${paidMs(paidOutcome.refusedMs).median} ms); ` +
        `one at a time: an unpaid create ${round(unpaidAlone)} ms (${createCost.d1} D1 + ${createCost.doCalls} DO waits), ` +
        `a paid one ${round(paidAlone)} ms (${paidCreateCost.d1} D1 + ${paidCreateCost.doCalls} DO waits and one call to the provider)`,
    });
    out.push(floorFigure, {
      name: "bookings: capacity invariant, read back from D1 after the runs",
      unit: "",
      calls: rows.length,
      check: pass ? "pass" : "FAIL",
      detail:
        `${rows.length} rows on ${peaks.size} resources, max concurrent ${Math.max(0, ...peaks.values())} (capacity ${capacity}), ` +
        `${over.length} over capacity; ${created} answered 200, ${slots} slots asked, ${distinct} booked; ` +
        `holds and buffers: ${mixBooked} bookings and ${mixRows.length - mixBooked} live holds on ${mixPeaks.size} resources over their occupied spans, ` +
        `max concurrent ${Math.max(0, ...mixPeaks.values())}, ${mixOver.length} over capacity, ${mix.conversionsRefused} conversions refused; ` +
        `waitlist: ${waitlistRows.length} bookings and live offers, ${waitlistOver.length} over capacity, ${unpaired.length} orphan holds or offers without a hold, ` +
        `${waitlist.misordered.length} lines out of order; ${paidCheck.detail}`,
    });
    return out;
  },
  { vars: standIn.vars },
);

await standIn.close();
process.stdout.write(JSON.stringify(figures));
