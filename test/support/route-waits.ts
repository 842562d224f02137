// The wait tests' harness (test/integration/route-waits-*.test.ts): the route catalogue's shop
// seeded through the Worker's entry, and each entry's waits in sequence measured warm and cold.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import { forgetIsolateCaches } from "../../bench/isolate-caches";
import { BUDGET, catalogue, sample, seedShop, type RouteEntry, type Shop, type Surface, type Transport } from "../../bench/route-catalogue";
import { ADMIN_TOKEN } from "./api";
import { contractViolation } from "./openapi";
import { OVER_BUDGET, type Temperature } from "./over-budget";
import { costOf } from "./server-timing";

/** Through the Worker's entry, each answer checked against the OpenAPI document as every test's is. */
const transport: Transport = async (wire) => {
  const url = `http://${wire.host ?? "api.test"}${wire.path}`;
  const res = await exports.default.fetch(new Request(url, { method: wire.method, headers: wire.headers, body: wire.body ?? null }));
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* non-JSON bodies stay text */
  }
  const violation = contractViolation(wire.method, url, res.status, res.headers.get("content-type"), body);
  if (violation) throw new Error(`OpenAPI contract: ${violation}`);
  return { status: res.status, headers: res.headers, text };
};

/**
 * The shop, and one cold request of each kind of caller first: the first request after the caches
 * are emptied loads the directory's modules through the pool's module runner, an I/O wait that
 * would lengthen the first cold entry's chain.
 */
export async function seededShop(): Promise<Shop> {
  const shop = await seedShop({ send: transport, adminToken: ADMIN_TOKEN, stripe: { origin: env.STRIPE_API_BASE, secretKey: env.STRIPE_SECRET_KEY } });
  for (const wire of [shop.api("GET", "/client"), shop.site("GET", "/services")]) {
    forgetIsolateCaches();
    expect((await transport(wire)).status).toBe(200);
  }
  return shop;
}

/**
 * Waits in sequence warm (asked twice, the second measured: the first also loads the feature's
 * modules) and cold (the isolate's account and answer caches emptied just before: a first request).
 */
async function waitsOf(entry: RouteEntry, shop: Shop): Promise<Record<Temperature, number>> {
  await sample(entry, shop, transport);
  const warm = costOf((await sample(entry, shop, transport)).headers).waits;
  const cold = costOf((await sample(entry, shop, transport, async () => forgetIsolateCaches())).headers).waits;
  return { warm, cold };
}

/**
 * The counts allowed over budget in this project: none where every write is answered beside the
 * database (the workers-at-distance project, as a Worker far from its database answers them),
 * OVER_BUDGET's where the Worker beside a local D1 answers writes itself.
 */
const writesBesideDatabase = env.WRITES_BESIDE_DATABASE === "always";
const overBudget: typeof OVER_BUDGET = writesBesideDatabase ? {} : OVER_BUDGET;
export const writesAnswered = writesBesideDatabase ? "beside the database" : "in the Worker";

/** What the test compares: "within budget", or the count where it is over, or where overBudget names one. */
function judged(entry: RouteEntry, measured: Record<Temperature, number>): Record<Temperature, number | "within budget"> {
  const known = overBudget[entry.name];
  const shown = (t: Temperature) => (known?.[t] === undefined && measured[t] <= BUDGET[entry.kind] ? "within budget" : measured[t]);
  return { warm: shown("warm"), cold: shown("cold") };
}

/** One test per entry of the surface: its waits within the budget of its kind, or exactly overBudget's count. */
export function pinWaits(surface: Surface, shop: () => Shop) {
  for (const entry of catalogue.filter((e) => e.surface === surface)) {
    const known = overBudget[entry.name];
    const expected = { warm: known?.warm ?? "within budget", cold: known?.cold ?? "within budget" };
    it(`${entry.name}: ${entry.kind}, at most ${BUDGET[entry.kind]} wait(s) in sequence${known ? ` (over today: ${JSON.stringify(known)})` : ""}`, async () => {
      expect(judged(entry, await waitsOf(entry, shop()))).toEqual(expected);
    });
  }
}

/** OVER_BUDGET names only entries of the catalogue, and only counts over their budget. */
export function overBudgetIsCurrent(surface: Surface) {
  it("OVER_BUDGET names only this surface's entries, with counts over their budget", () => {
    const entries = new Map(catalogue.map((e) => [e.name, e]));
    const names = Object.keys(OVER_BUDGET).filter((name) => entries.get(name)?.surface === surface || !entries.has(name));
    for (const name of names) {
      const entry = entries.get(name);
      expect(entry, `${name} is not in the catalogue`).toBeDefined();
      for (const count of Object.values(OVER_BUDGET[name])) expect(count, name).toBeGreaterThan(BUDGET[entry!.kind]);
    }
  });
}
