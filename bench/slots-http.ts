// GET /services/{id}/slots on the large account through a real `wrangler dev`, one week and 31
// days, cached and not, and a month of available dates not cached, each against the floor (the
// misses also against their data floor); prints figures as JSON for bench/run.mjs.
import { computeSlots } from "../src/domain/slots";
import { addDays, startOfDay } from "../src/domain/time";
import { largeAccountInput, ZONE } from "./large-account";
import { compareWithFloor, type DataFloor, type Figure } from "./load";
import { account, bookings, insert, resources, serviceWithProviders } from "./seed-sql";
import { LOAD, log } from "./suite";
import { withBenchServer } from "./wrangler-dev";

const ACCOUNT_ID = 1;
const SERVICE_ID = 1;
/** The same shop again, its resources also busy in calendars kept elsewhere (issue 32). */
const BUSY_ACCOUNT_ID = 2;
const BUSY_SERVICE_ID = 2;
const BUSY_OFFSET = 100;
const BUSY_TIMES = 2_000;

/** The engine bench's large account (bench/large-account.ts) as rows: the same 5,000 bookings. */
function seed() {
  const input = largeAccountInput(2);
  const tenant = account(ACCOUNT_ID, "slots");
  const hours = ["08:00", "12:00", "13:00", "17:00"];
  const sql = [
    tenant.sql,
    resources(
      ACCOUNT_ID,
      input.resources.map((r) => ({ id: r.id, capacity: r.capacity, hours })),
    ),
    serviceWithProviders(
      ACCOUNT_ID,
      SERVICE_ID,
      input.service.interval,
      input.resources.map((r) => r.id),
    ),
    bookings(
      ACCOUNT_ID,
      input.bookings.map((b) => ({ resource_id: b.resource_id, service_id: SERVICE_ID, person_id: null, from: b.from, to: b.to })),
    ),
  ].join("\n");
  // The busy shop: the same resources, hours and bookings, and 2,000 busy intervals of 30 minutes
  // spread over its resources and the month (busy_times rows as a subscription's fetch writes them).
  const busyShop = account(BUSY_ACCOUNT_ID, "slots-busy");
  const now = Date.now();
  const monthStart = startOfDay(input.from, input.timeZone);
  const halfHours = 31 * 48;
  const busyRows = Array.from({ length: BUSY_TIMES }, (_, i) => {
    const from = monthStart + ((i * 7_919) % halfHours) * 1_800_000;
    return {
      account_id: BUSY_ACCOUNT_ID,
      resource_id: BUSY_OFFSET + input.resources[i % input.resources.length].id,
      subscription_id: 1,
      occupied_from: from,
      occupied_to: from + 1_800_000,
    };
  });
  const busySql = [
    busyShop.sql,
    resources(
      BUSY_ACCOUNT_ID,
      input.resources.map((r) => ({ id: BUSY_OFFSET + r.id, capacity: r.capacity, hours })),
    ),
    serviceWithProviders(
      BUSY_ACCOUNT_ID,
      BUSY_SERVICE_ID,
      input.service.interval,
      input.resources.map((r) => BUSY_OFFSET + r.id),
    ),
    bookings(
      BUSY_ACCOUNT_ID,
      input.bookings.map((b) => ({ resource_id: BUSY_OFFSET + b.resource_id, service_id: BUSY_SERVICE_ID, person_id: null, from: b.from, to: b.to })),
    ),
    insert("calendar_subscriptions", [
      {
        id: 1,
        account_id: BUSY_ACCOUNT_ID,
        resource_id: BUSY_OFFSET + 1,
        url: "https://calendar.example.com/busy.ics",
        url_hint: "https://calendar.example.com/….ics",
        next_fetch_at: now + 86_400_000,
        created_at: now,
        updated_at: now,
      },
    ]),
    insert("busy_times", busyRows),
  ].join("\n");
  // With no horizon on the account the far-future month is bookable, as in the engine bench.
  // What the data floor of a range must read: the bookings (and busy times) overlapping its span.
  const occupying = (fromMs: number, toMs: number, busy: boolean) =>
    [...input.bookings, ...(busy ? busyRows.map((r) => ({ from: r.occupied_from, to: r.occupied_to })) : [])].filter((b) => b.from < toMs && b.to > fromMs).length;
  return {
    sql: `${sql}\n${busySql}`,
    key: tenant.apiKey,
    busyKey: busyShop.apiKey,
    expectedSlots: computeSlots(input).length,
    from: input.from,
    to: input.to,
    occupying,
  };
}

const { sql, key, busyKey, expectedSlots, from, to, occupying } = seed();
const figures = await withBenchServer("slots", sql, async (server) => {
  const out: Figure[] = [];
  for (const [label, last] of [
    ["one week", "2030-03-07"],
    ["31 days", to],
  ] as const) {
    const path = `/api/v1/services/${SERVICE_ID}/slots?from=${from}&to=${last}`;
    const probe = await server.request(path, { key });
    if (probe.status !== 200) throw new Error(`${path}: ${probe.status} ${probe.text}`);
    const slots = (JSON.parse(probe.text) as unknown[]).length;
    // The seeded rows must be the engine bench's data, or the two figures would not compare.
    if (last === to && slots !== expectedSlots) throw new Error(`31 days gave ${slots} slots, the engine ${expectedSlots}`);
    log("slots", `${label}: ${slots} slots, ${probe.text.length} bytes`);
    const [route, floor] = await compareWithFloor(
      server,
      {
        label: `http: GET /services/{id}/slots, ${label}, large account`,
        target: { path, key },
        bytes: Buffer.byteLength(probe.text),
      },
      LOAD,
    );
    out.push({ ...route, detail: `${slots} slots` }, floor);
  }

  // Answers never in the isolate's cache (features/slots/answer-cache.ts): each request names all
  // 20 resources in an order of its own, a cache key of its own, cycling through more keys than
  // the cache holds answers of that size (20,000 slots: 89 weeks or 20 months), so every request
  // reads D1 and runs the engine. What a visitor's first look at a range costs.
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  let shuffleSeed = 7;
  const shuffled = () => {
    const order = [...ids];
    for (let i = order.length - 1; i > 0; i -= 1) {
      shuffleSeed = (shuffleSeed * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = shuffleSeed % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  };
  const selecting = (order: number[], offset = 0) => order.map((id) => `selected_resources[]=${id + offset}`).join("&");
  const busyBase = `/api/v1/services/${BUSY_SERVICE_ID}/slots?from=${from}&to=${to}`;
  // Each miss is also set against its data floor (bench/floor-worker.ts): one statement reading
  // the same service, provider resources, exception dates and occupants over the same span.
  const dataFloorOf = (serviceId: number, last: string, busy: boolean): DataFloor & { occupants: number } => {
    const [fromMs, toMs] = [startOfDay(from, ZONE), startOfDay(addDays(last, 1), ZONE)];
    const occupants = occupying(fromMs, toMs, busy);
    return {
      path: `/api/v1/__bench/data-floor/slots?service=${serviceId}&from=${fromMs}&to=${toMs}&date_from=${from}&date_to=${last}`,
      rows: `${occupants.toLocaleString("en")} occupants of 20 resources`,
      occupants,
    };
  };
  const misses: [label: string, path: string, bytes: number, apiKey: string, offset: number, dataFloor: DataFloor & { occupants: number }][] = [
    ["slots, 31 days", `/api/v1/services/${SERVICE_ID}/slots?from=${from}&to=${to}`, out[2].bytes!, key, 0, dataFloorOf(SERVICE_ID, to, false)],
    ["slots, one week", `/api/v1/services/${SERVICE_ID}/slots?from=${from}&to=2030-03-07`, out[0].bytes!, key, 0, dataFloorOf(SERVICE_ID, "2030-03-07", false)],
    ["available_dates, a month", `/api/v1/services/${SERVICE_ID}/available_dates?from=${from}&to=${to}`, 0, key, 0, dataFloorOf(SERVICE_ID, to, false)],
    // Beside the first: the same shop and month with 2,000 busy times from calendar subscriptions (issue 32).
    [`slots, 31 days, with ${BUSY_TIMES.toLocaleString("en")} busy times`, busyBase, 0, busyKey, BUSY_OFFSET, dataFloorOf(BUSY_SERVICE_ID, to, true)],
  ];
  let freeWithoutBusy = 0;
  for (const [label, base, knownBytes, apiKey, offset, dataFloor] of misses) {
    // A data floor reading other rows than its route would not compare.
    const rows = await server.request(dataFloor.path, { key: apiKey });
    const occupants = rows.status === 200 ? (JSON.parse(rows.text) as unknown[][])[3].length : -1;
    if (occupants !== dataFloor.occupants) throw new Error(`${dataFloor.path}: ${rows.status}, ${occupants} occupants, not ${dataFloor.occupants}`);
    log("slots", `${label} miss: its data floor reads ${occupants} occupants, ${rows.text.length} bytes of JSON text`);
    const orders = Array.from({ length: 200 }, shuffled);
    let next = 0;
    // Never one of the 200: the cost probe after the rounds finds no cached answer either.
    const probePath = `${base}&${selecting([...ids.filter((id) => id % 2 === 0), ...ids.filter((id) => id % 2 === 1)], offset)}`;
    const probe = await server.request(probePath, { key: apiKey });
    if (probe.status !== 200) throw new Error(`${probePath}: ${probe.status} ${probe.text}`);
    const missed = await compareWithFloor(
      server,
      {
        label: `http: GET /services/{id}/${label}, large account, answer not cached`,
        target: { path: probePath, key: apiKey, setupRequest: (request) => ({ ...request, path: `${base}&${selecting(orders[next++ % orders.length], offset)}` }) },
        bytes: knownBytes || Buffer.byteLength(probe.text),
        dataFloor,
      },
      LOAD,
    );
    // Every slot is listed (a full one with free: 0), and some resource is free at most times: the seats say what the busy times took.
    const free = label.startsWith("slots, 31 days") ? (JSON.parse(probe.text) as { slot: { free: number } }[]).reduce((n, e) => n + e.slot.free, 0) : 0;
    if (!offset && free) freeWithoutBusy = free;
    const busySlots = offset ? `; ${free} free seats over the ${expectedSlots} slots (${freeWithoutBusy} without the busy times)` : "";
    out.push({ ...missed[0], detail: `every request a miss${busySlots}` }, ...missed.slice(1));
  }
  return out;
});

process.stdout.write(JSON.stringify(figures));
