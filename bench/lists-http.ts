// Booking listings of an account with 10,000 bookings through a real `wrangler dev`: page 1, the
// last page and a `since` sync (repeated reads: cached answers), and page 1 with every request a
// cache miss, each against a floor of the same size (the miss also against its data floor); figures as JSON.
import { compareWithFloor, type Figure } from "./load";
import { account, bookings, people, resources, serviceWithProviders, type SeedBooking } from "./seed-sql";
import { LOAD, log } from "./suite";
import { withBenchServer } from "./wrangler-dev";

const ACCOUNT_ID = 1;
const SERVICE_ID = 1;
const BOOKINGS = 10_000;
const RESOURCES = 20;
const PEOPLE = 500;
/** The sync asks for what changed after the booking this many from the newest. */
const SYNC_CHANGES = 500;
const PAGE_SIZE = 750; // spec: Limits, bookings

/**
 * Hour-long bookings back to back on 20 resources from 2030 on (never over capacity), one person
 * in twenty, updated one minute apart so a `since` selects exactly the newest ones.
 */
function seed() {
  const tenant = account(ACCOUNT_ID, "lists");
  const start = Date.UTC(2030, 0, 1, 7);
  const updatedFrom = Date.now() - BOOKINGS * 60_000;
  const rows: SeedBooking[] = Array.from({ length: BOOKINGS }, (_, i) => ({
    resource_id: 1 + (i % RESOURCES),
    service_id: SERVICE_ID,
    person_id: 1 + (i % PEOPLE),
    from: start + Math.floor(i / RESOURCES) * 3_600_000,
    to: start + (Math.floor(i / RESOURCES) + 1) * 3_600_000,
    updated_at: updatedFrom + i * 60_000,
  }));
  const ids = Array.from({ length: RESOURCES }, (_, i) => i + 1);
  const sql = [
    tenant.sql,
    resources(
      ACCOUNT_ID,
      ids.map((id) => ({ id, capacity: 1, hours: ["08:00", "17:00"] })),
    ),
    serviceWithProviders(ACCOUNT_ID, SERVICE_ID, 60, ids),
    people(
      ACCOUNT_ID,
      Array.from({ length: PEOPLE }, (_, i) => i + 1),
    ),
    bookings(ACCOUNT_ID, rows),
  ].join("\n");
  // `since` is inclusive (issue 14, docs/decisions/sync.md): the instant of the first booking returned.
  const since = new Date(rows[BOOKINGS - SYNC_CHANGES].updated_at!).toISOString();
  return { sql, key: tenant.apiKey, since };
}

const { sql, key, since } = seed();
const lastPage = Math.ceil(BOOKINGS / PAGE_SIZE);
const cases = [
  { label: "GET /bookings page 1", path: "/api/v1/bookings", rows: PAGE_SIZE, total: BOOKINGS },
  { label: `GET /bookings last page (${lastPage})`, path: `/api/v1/bookings?page=${lastPage}`, rows: BOOKINGS - (lastPage - 1) * PAGE_SIZE, total: BOOKINGS },
  {
    label: `GET /bookings/all?since= (${SYNC_CHANGES} changed)`,
    path: `/api/v1/bookings/all?since=${encodeURIComponent(since)}`,
    rows: SYNC_CHANGES,
    total: SYNC_CHANGES,
  },
];

const figures = await withBenchServer("lists", sql, async (server) => {
  const out: Figure[] = [];
  for (const { label, path, rows, total } of cases) {
    const probe = await server.request(path, { key });
    if (probe.status !== 200) throw new Error(`${path}: ${probe.status} ${probe.text}`);
    const got = (JSON.parse(probe.text) as unknown[]).length;
    // Wrong seeding would make the figure measure another list than it names.
    if (got !== rows || probe.headers.get("total-count") !== String(total)) {
      throw new Error(`${path}: ${got} rows, Total-Count ${probe.headers.get("total-count")}`);
    }
    log("lists", `${label}: ${got} bookings, ${probe.text.length} bytes`);
    const [route, floor] = await compareWithFloor(
      server,
      {
        label: `http: ${label}, 10,000 bookings`,
        target: { path, key },
        bytes: Buffer.byteLength(probe.text),
      },
      LOAD,
    );
    out.push({ ...route, detail: `${got} bookings` }, floor);
  }

  // Page 1 with the answer never in the isolate's cache (features/bookings/list-cache.ts): each
  // request asks from another instant before the first booking (`start`, one second apart), so
  // the rows are page 1's (every booking is confirmed) but the cache key is new every time. What a
  // read costs on an isolate that has not seen the query; after a write to the account a cached
  // entry's version read comes first (+1 round trip).
  const beforeAll = Date.UTC(2029, 0, 1);
  const startingAt = (i: number) => `/api/v1/bookings?start=${encodeURIComponent(new Date(beforeAll + i * 1000).toISOString())}`;
  let next = 1;
  const probe = await server.request(startingAt(0), { key });
  if (probe.status !== 200 || (JSON.parse(probe.text) as unknown[]).length !== PAGE_SIZE || probe.headers.get("total-count") !== String(BOOKINGS)) {
    throw new Error(`page 1 by start: ${probe.status} ${probe.text.slice(0, 200)}`);
  }
  // Its data floor (bench/floor-worker.ts): one statement reading the total, the page's 750 rows and
  // the people, resources and services they name. A data floor reading other rows would not compare.
  const dataFloor = { path: `/api/v1/__bench/data-floor/bookings?start=${beforeAll}&limit=${PAGE_SIZE}`, rows: `${PAGE_SIZE} bookings, their total and related rows` };
  const rows = await server.request(dataFloor.path, { key });
  const [total, page] = rows.status === 200 ? (JSON.parse(rows.text) as [number, unknown[]]) : [-1, []];
  if (total !== BOOKINGS || page.length !== PAGE_SIZE) throw new Error(`${dataFloor.path}: ${rows.status}, total ${total}, ${page.length} rows`);
  log("lists", `page 1 miss: its data floor reads ${page.length} bookings, ${rows.text.length} bytes of JSON text`);
  const missed = await compareWithFloor(
    server,
    {
      label: "http: GET /bookings page 1, 10,000 bookings, answer not cached",
      // A key no round uses: the cost probe after the rounds is a miss too.
      target: { path: startingAt(-1), key, setupRequest: (request) => ({ ...request, path: startingAt(next++) }) },
      bytes: Buffer.byteLength(probe.text),
      dataFloor,
    },
    LOAD,
  );
  out.push({ ...missed[0], detail: "every request a miss" }, ...missed.slice(1));
  return out;
});

process.stdout.write(JSON.stringify(figures));
