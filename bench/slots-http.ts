// GET /services/{id}/slots on the large account through a real `wrangler dev`, one week and 31
// days, each against the floor; prints figures as JSON for bench/run.mjs.
import { computeSlots } from "../src/domain/slots";
import { largeAccountInput } from "./large-account";
import { compareWithFloor, type Figure } from "./load";
import { account, bookings, resources, serviceWithProviders } from "./seed-sql";
import { LOAD, log } from "./suite";
import { withBenchServer } from "./wrangler-dev";

const ACCOUNT_ID = 1;
const SERVICE_ID = 1;

/** The engine bench's large account (bench/large-account.ts) as rows: the same 5,000 bookings. */
function seed() {
  const input = largeAccountInput(2);
  const tenant = account(ACCOUNT_ID, "slots");
  const hours = ["08:00", "12:00", "13:00", "17:00"];
  const sql = [
    tenant.sql,
    resources(ACCOUNT_ID, input.resources.map((r) => ({ id: r.id, capacity: r.capacity, hours }))),
    serviceWithProviders(ACCOUNT_ID, SERVICE_ID, input.service.interval, input.resources.map((r) => r.id)),
    bookings(ACCOUNT_ID, input.bookings.map((b) => ({ resource_id: b.resource_id, service_id: SERVICE_ID, person_id: null, from: b.from, to: b.to }))),
  ].join("\n");
  // With no horizon on the account the far-future month is bookable, as in the engine bench.
  return { sql, key: tenant.apiKey, expectedSlots: computeSlots(input).length, from: input.from, to: input.to };
}

const { sql, key, expectedSlots, from, to } = seed();
const figures = await withBenchServer("slots", sql, async (server) => {
  const out: Figure[] = [];
  for (const [label, last] of [["one week", "2030-03-07"], ["31 days", to]] as const) {
    const path = `/api/v1/services/${SERVICE_ID}/slots?from=${from}&to=${last}`;
    const probe = await server.request(path, { key });
    if (probe.status !== 200) throw new Error(`${path}: ${probe.status} ${probe.text}`);
    const slots = (JSON.parse(probe.text) as unknown[]).length;
    // The seeded rows must be the engine bench's data, or the two figures would not compare.
    if (last === to && slots !== expectedSlots) throw new Error(`31 days gave ${slots} slots, the engine ${expectedSlots}`);
    log("slots", `${label}: ${slots} slots, ${probe.text.length} bytes`);
    const [route, floor] = await compareWithFloor(server, {
      label: `http: GET /services/{id}/slots, ${label}, large account`,
      target: { path, key },
      bytes: Buffer.byteLength(probe.text),
    }, LOAD);
    out.push({ ...route, detail: `${slots} slots` }, floor);
  }

  // The same 31 days with the answer never in the isolate's cache (features/slots/answer-cache.ts):
  // each request names all 20 resources in one of 40 orders, a key of its own, and 40 answers of
  // this size are more than the cache keeps, so every request reads D1 and runs the engine.
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  const orders = ids.flatMap((_, k) => [[...ids.slice(k), ...ids.slice(0, k)], [...ids.slice(k), ...ids.slice(0, k)].reverse()]);
  const selecting = (order: number[]) => `/api/v1/services/${SERVICE_ID}/slots?from=${from}&to=${to}&${order.map((id) => `selected_resources[]=${id}`).join("&")}`;
  let next = 0;
  const missed = await compareWithFloor(server, {
    label: "http: GET /services/{id}/slots, 31 days, large account, answer not cached",
    // Never one of the 40: the cost probe after the rounds finds no cached answer either.
    target: { path: selecting([...ids.filter((id) => id % 2 === 0), ...ids.filter((id) => id % 2 === 1)]), key, setupRequest: (request) => ({ ...request, path: selecting(orders[next++ % orders.length]) }) },
    bytes: out[2].bytes!,
  }, LOAD);
  out.push({ ...missed[0], detail: "every request a miss" }, missed[1]);
  return out;
});

process.stdout.write(JSON.stringify(figures));
