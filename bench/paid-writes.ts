// The writes suite's paid mix on a server of its own (`npm run bench -- paid`): contended paid
// creates, payments on time, late, and with their event lost, cancels after payment, lapses and
// the sweep (bench/paid-mix.ts), then its invariant: no seat held twice, no money kept without a
// seat by the Stripe stand-in's own ledger, nothing unpaid past its window.
import { round, type Figure } from "./load";
import { paidInvariant, paidMix, paidRowsSql, paidShop, paidStandIn, type PaidRow } from "./paid-mix";
import { peakPerResource } from "./peaks";
import { log } from "./suite";
import { withBenchServer } from "./wrangler-dev";

const standIn = await paidStandIn();
const paid = paidShop(standIn.stripeAccount);

const figures = await withBenchServer(
  "paid",
  paid.sql,
  async (server): Promise<Figure[]> => {
    log("paid", "creates with a checkout on contended slots, payments (some events lost), cancels after payment, lapses, late payments against newcomers, the sweep");
    const outcome = await paidMix(server.port, paid.apiKey, standIn);
    const checkedAt = Date.now();
    await server.stop();
    const check = paidInvariant(server.query<PaidRow>(paidRowsSql), outcome, checkedAt + outcome.aheadMs, peakPerResource);
    const created = [...outcome.createdMs].sort((a, b) => a - b);
    return [
      {
        name: "paid: money and seats, read back from D1 and the Stripe stand-in's ledger after the mix",
        unit: "ms",
        calls: created.length,
        median: round(created[Math.floor(created.length / 2)] ?? 0),
        p95: round(created[Math.floor(created.length * 0.95)] ?? 0),
        check: check.pass ? "pass" : "FAIL",
        detail: `paid creates (median and p95 above); mix ${round(outcome.seconds)} s; ${check.detail}`,
      },
    ];
  },
  { vars: standIn.vars },
);

await standIn.close();
process.stdout.write(JSON.stringify(figures));
