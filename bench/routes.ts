// `npm run bench -- routes [--rtt N]` (issue 33): every entry of the route catalogue
// (bench/route-catalogue.ts) against one seeded shop through `wrangler dev`, on a warm isolate and
// on a cold one (the isolate's account, slot and list caches emptied just before, by the bench
// entry's POST /api/v1/__bench/forget: a visitor's or integrator's first request). Per entry: p50
// latency, workerd CPU per request, and the waits in sequence read from Server-Timing (the most
// over the samples) against the budget of its kind (a read 1, a write 2).
import os from "node:os";
import { startStripeStandIn } from "../scripts/stripe-stand-in.mjs";
import { BUDGET, catalogue, sample, seedShop, waitsOf, type RouteEntry } from "./route-catalogue";
import { DELIVERY_EVENT_SETTINGS } from "./route-catalogue/provider-settings";
import { round, type Figure } from "./load";
import { log } from "./suite";
import { cpuNanos, workerdProcesses } from "./workerd-cpu";
import { wireClient, type TimedReply } from "./wire-client";
import { ADMIN_TOKEN, withBenchServer } from "./wrangler-dev";

/** Measured samples per entry, after one unmeasured request that warms the isolate for it. */
const WARM = Number(process.env.BENCH_ROUTES_WARM ?? 3);
const COLD = Number(process.env.BENCH_ROUTES_COLD ?? 2);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 0);
const STRIPE_SECRET_KEY = "sk_test_routes";
const STRIPE_WEBHOOK_SECRET = "whsec_routes_standin";

type Waits = ReturnType<typeof waitsOf>;
interface Tally {
  latencies: number[];
  cpuNs: number[];
  worst: Waits;
}

/** Waits of one temperature as the table shows them: the longest chain seen, and its D1 and DO parts. */
export interface RouteWaits {
  kind: RouteEntry["kind"];
  budget: number;
  warm: Waits;
  cold: Waits;
}

/** The middle sample, or the mean of the middle two: with two cold samples, not the slower one. */
function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
const newTally = (): Tally => ({ latencies: [], cpuNs: [], worst: { waits: -1, d1: 0, do: 0 } });
function record(tally: Tally, reply: TimedReply) {
  tally.latencies.push(reply.latencyMs);
  tally.cpuNs.push(reply.cpuNs);
  const waits = waitsOf(reply.headers);
  if (waits.waits > tally.worst.waits) tally.worst = waits;
}

const loadAtStart = os.loadavg();
const started = performance.now();
const standIn = await startStripeStandIn({ webhookSecret: STRIPE_WEBHOOK_SECRET });
let figures: (Figure & { route_waits?: RouteWaits })[];
try {
  figures = await withBenchServer(
    "routes",
    {},
    async (server) => {
      log("routes", `server up after ${round((performance.now() - started) / 1000, 1)} s (migrations, start)`);
      const workerd = workerdProcesses();
      if (!workerd.length) log("routes", "no workerd process found under this one: CPU per request is not measured");
      const client = wireClient(server.port, () => cpuNanos(workerd));
      const shop = await seedShop({ send: client.send, adminToken: ADMIN_TOKEN, stripe: { origin: standIn.origin, secretKey: STRIPE_SECRET_KEY } });
      log("routes", `shop seeded after ${round((performance.now() - started) / 1000, 1)} s; ${catalogue.length} entries, ${WARM} warm and ${COLD} cold samples each`);
      const forget = async () => {
        const reply = await client.send(shop.api("POST", "/__bench/forget"));
        if (reply.status !== 200) throw new Error(`forget: ${reply.status} ${reply.text.slice(0, 200)}`);
      };

      // A first sight of an account also builds what an isolate makes once (the directory's statements):
      // paid here, unmeasured, by a private and a booking-site request, so no entry's cold sample carries it.
      for (const wire of [shop.api("GET", "/client"), shop.site("GET", "/services")]) {
        await forget();
        await client.send(wire);
      }

      const out: (Figure & { route_waits: RouteWaits })[] = [];
      for (const [at, entry] of catalogue.entries()) {
        await sample(entry, shop, client.send);
        const warm = newTally();
        for (let i = 0; i < WARM; i++) record(warm, await sample(entry, shop, client.send));
        const cold = newTally();
        for (let i = 0; i < COLD; i++) record(cold, await sample(entry, shop, client.send, forget));
        const budget = BUDGET[entry.kind];
        const ms = (ns: number[]) => round(median(ns) / 1e6);
        out.push({
          name: `routes: ${entry.name}`,
          unit: "ms",
          calls: WARM + COLD,
          median: round(median(warm.latencies)),
          detail: `cold p50 ${round(median(cold.latencies))} ms; CPU/req p50 warm ${ms(warm.cpuNs)} ms, cold ${ms(cold.cpuNs)} ms`,
          route_waits: { kind: entry.kind, budget, warm: warm.worst, cold: cold.worst },
        });
        if ((at + 1) % 25 === 0) log("routes", `${at + 1} of ${catalogue.length} entries after ${round((performance.now() - started) / 1000, 1)} s`);
      }
      client.close();

      const over = (t: "warm" | "cold") => out.filter((f) => f.route_waits[t].waits > f.route_waits.budget).length;
      const summary: Figure = {
        name: "routes: every entry within its budget (a read 1 wait in sequence, a write 2)",
        unit: "ms",
        calls: out.length,
        detail:
          `${out.length - over("warm")} of ${out.length} warm, ${out.length - over("cold")} cold; ${round((performance.now() - started) / 1000, 1)} s` +
          `${RTT_MS ? ` at ${RTT_MS} ms RTT` : ""}; load average ${loadAtStart.map((n) => n.toFixed(2)).join(" ")} at start, ${os
            .loadavg()
            .map((n) => n.toFixed(2))
            .join(" ")} at end`,
      };
      return [...out, summary];
    },
    { vars: { STRIPE_API_BASE: standIn.origin, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, ENVIRONMENT: "development", ...DELIVERY_EVENT_SETTINGS } },
  );
} finally {
  await standIn.close();
}

process.stdout.write(JSON.stringify(figures));
