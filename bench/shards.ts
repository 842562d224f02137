// Write throughput with one shard and with two (docs/scaling.md): two accounts take POST /bookings
// from the same clients, first both on DB, then one on DB and one on DB_SHARD_1; every slot is
// asked once, so each answer 200 is one accepted booking. Run twice: local D1 as it is, and with
// each database taking one write at a time for a few ms (bench/single-writer.ts), as D1 does.
// Figures as JSON.
import { expectStatuses, fire, round, summarise, type Figure } from "./load";
import { account, resources, serviceWithProviders } from "./seed-sql";
import { log } from "./suite";
import { withBenchServer } from "./wrangler-dev";

const CONNECTIONS = 20;
const ATTEMPTS = 200;
const RESOURCES_PER_ACCOUNT = 10;
const SLOT_MS = 30 * 60_000;
const FIRST_SLOT = Date.UTC(2031, 0, 1, 7);

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

interface Tenant {
  id: number;
  shard: string;
  key: string;
  sql: { directory: string; data: string };
}

function tenant(id: number, shard: string): Tenant {
  const seeded = account(id, `shards${id}`, { shard });
  // Resource and service ids are the account's own on its shard: 100 × id keeps them apart on DB.
  const resourceIds = Array.from({ length: RESOURCES_PER_ACCOUNT }, (_, i) => id * 100 + i + 1);
  const data = [
    resources(
      id,
      resourceIds.map((rid) => ({ id: rid, capacity: 1, hours: null })),
    ),
    serviceWithProviders(id, id * 100, 30, resourceIds),
  ].join("\n");
  return { id, shard, key: seeded.apiKey, sql: { directory: seeded.sql, data } };
}

// Accounts 1 and 2 share DB; account 3 is on DB_SHARD_1. "One shard" loads 1 and 2, "two shards" 1 and 3.
const tenants = [tenant(1, "DB"), tenant(2, "DB"), tenant(3, "DB_SHARD_1")];
const seed: Record<string, string> = { DB: "", DB_SHARD_1: "" };
for (const t of tenants) {
  seed.DB += `${t.sql.directory}\n`;
  seed[t.shard] += `${t.sql.data}\n`;
}

/** Request n goes to account n mod 2, a resource of it in turn, and a slot no request asked before. */
function alternating(pair: Tenant[], firstSlot: number) {
  let n = 0;
  return (request: { headers?: Record<string, string> }) => {
    const ask = n;
    n += 1;
    const t = pair[ask % pair.length];
    const within = Math.floor(ask / pair.length);
    const resourceId = t.id * 100 + 1 + (within % RESOURCES_PER_ACCOUNT);
    const from = firstSlot + Math.floor(within / RESOURCES_PER_ACCOUNT) * SLOT_MS;
    return {
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ booking: { resource_id: resourceId, service_id: t.id * 100, booked_from: iso(from), booked_to: iso(from + SLOT_MS) } }),
    };
  };
}

/** Both cases on one fresh server; `writer` names the D1 model the server runs with. */
const measure = (writer: string) =>
  withBenchServer("shards", seed, async (server) => {
    for (const t of tenants) {
      const probe = await server.request("/api/v1/bookings", { method: "POST", key: t.key, body: JSON.parse(alternating([t], Date.UTC(2035, 0, 1, 7))({}).body) });
      if (probe.status !== 200) throw new Error(`POST /bookings on ${t.shard}: ${probe.status} ${probe.text}`);
    }
    const target = { path: "/api/v1/bookings", method: "POST" as const, key: tenants[0].key, body: "{}" };
    const cases = [
      { label: "one shard (2 accounts on DB)", pair: [tenants[0], tenants[1]], firstSlot: FIRST_SLOT },
      { label: "two shards (1 account on DB, 1 on DB_SHARD_1)", pair: [tenants[0], tenants[2]], firstSlot: Date.UTC(2033, 0, 1, 7) },
    ];
    const out: Figure[] = [];
    // Warm both paths, then alternate the cases twice so background load falls on both alike.
    for (const [i, { pair }] of cases.entries()) {
      await fire(server, { ...target, setupRequest: alternating(pair, Date.UTC(2037 + i, 0, 1, 7)) as never }, { connections: CONNECTIONS, amount: 100 });
    }
    const runs = new Map<string, Awaited<ReturnType<typeof fire>>[]>();
    for (const pass of [0, 1]) {
      for (const { label, pair, firstSlot } of pass === 0 ? cases : [...cases].reverse()) {
        log("shards", `${label}, round ${pass + 1}: ${ATTEMPTS} attempts from ${CONNECTIONS} clients`);
        const run = await fire(
          server,
          { ...target, setupRequest: alternating(pair, firstSlot + pass * 365 * 86_400_000) as never },
          { connections: CONNECTIONS, amount: ATTEMPTS },
        );
        runs.set(label, [...(runs.get(label) ?? []), run]);
      }
    }
    for (const { label } of cases) {
      const list = runs.get(label)!;
      expectStatuses(`POST /bookings, ${label}`, list, [200]);
      const booked = list.reduce((n, r) => n + (r.statuses.get(200) ?? 0), 0);
      const seconds = list.reduce((n, r) => n + r.seconds, 0);
      out.push({
        ...summarise(`shards: POST /bookings, ${label}, ${writer} (${CONNECTIONS} clients)`, list, {}),
        bookings_per_s: round(booked / seconds, 1),
        detail: `${booked} accepted in ${round(seconds, 1)} s`,
      });
    }
    return out;
  });

/** Simulated time one write holds its database (bench/single-writer.ts); BENCH_D1_WRITE_MS overrides. */
const WRITE_MS = process.env.BENCH_D1_WRITE_MS ?? "20";
delete process.env.BENCH_D1_WRITE_MS;
const figures = await measure("local D1 as is");
process.env.BENCH_D1_WRITE_MS = WRITE_MS;
figures.push(...(await measure(`single writer of ${WRITE_MS} ms per write`)));
process.stdout.write(JSON.stringify(figures));
