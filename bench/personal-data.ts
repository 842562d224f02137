// npm run bench -- personal-data (issue 43): what the personal data tools cost against the Workers
// CPU limits. Wall time and workerd's CPU (bench/workerd-cpu.ts: the Worker, its objects and local
// D1's SQLite together, so an upper bound of what the Worker is billed) for:
//   - erasing one person with 1,000 bookings and 1,000 messages (POST /api/v1/people/{id}/erase);
//   - retention passes over a shard whose account holds 100,000 bookings of 20,000 people, and a
//     pass over a shard with nothing due;
//   - that account's export, its deletion pass once closed and past its grace period, and its
//     import from the export (the operator API).
import { PEOPLE_PER_RUN } from "../src/features/personal-data/retention";
import { round, type Figure } from "./load";
import { account, insert, resources, serviceWithProviders } from "./seed-sql";
import { log } from "./suite";
import { cpuNanos, workerdProcesses } from "./workerd-cpu";
import { ADMIN_TOKEN, USER_AGENT, withBenchServer, type BenchServer } from "./wrangler-dev";

const SUITE = "personal-data";
const DAY = 86_400_000;
const NOW = Date.now();
const ERASED_BOOKINGS = 1_000;
const RETAINED_PEOPLE = 20_000;
const BOOKINGS_PER_PERSON = 5;
const OLD_MESSAGES = 10_000;
const RETENTION_PASSES = 5;
const figures: Figure[] = [];

// A deterministic spread, so runs compare.
let seed = 43;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

const hour = (at: number) => ({ from: at, to: at + 3_600_000 });

function seedSql() {
  const shop = account(1, "erasing");
  const kept = account(2, "keeping", { retention_days_after_last_booking: 365, message_body_retention_days: 90, delivery_payload_retention_days: 90 });
  const out = [shop.sql, kept.sql, resources(1, [{ id: 1, capacity: 1000, hours: null }]), serviceWithProviders(1, 1, 60, [1])];
  out.push(resources(2, [{ id: 2, capacity: 100_000, hours: null }]), serviceWithProviders(2, 2, 60, [2]));
  // One person with 1,000 bookings over three years, each with its confirmation e-mail.
  out.push(insert("people", [{ id: 1, account_id: 1, name: "Kari Nordmann", email: "kari@example.com", phone_number: "+4791234567", created_at: NOW, updated_at: NOW }]));
  const shopBookings = Array.from({ length: ERASED_BOOKINGS }, (_, i) => {
    const { from, to } = hour(NOW - 3 * 365 * DAY + i * DAY);
    return {
      id: i + 1,
      account_id: 1,
      service_id: 1,
      resource_id: 1,
      person_id: 1,
      booked_from: from,
      booked_to: to,
      title: "Kari Nordmann",
      notes: "Allergic to latex",
      custom_data: JSON.stringify({ birthday: "1990-01-01" }),
      state: "confirmed",
      active: true,
      count: 1,
      created_at: from,
      updated_at: from,
    };
  });
  out.push(insert("bookings", shopBookings));
  out.push(
    insert(
      "messages",
      shopBookings.map((b) => ({
        account_id: 1,
        booking_id: b.id,
        person_id: 1,
        kind: "confirmation",
        channel: "email",
        recipient: "kari@example.com",
        subject: "Your booking is confirmed",
        body: "Dear Kari Nordmann, your booking is confirmed.",
        status: "sent",
        provider: "sink",
        sent_at: b.created_at,
        created_at: b.created_at,
        updated_at: b.created_at,
      })),
    ),
  );
  // 20,000 people with five bookings each over the last three years and the next month: a person
  // whose last booking ended over a year ago is due for erasure.
  const people = Array.from({ length: RETAINED_PEOPLE }, (_, i) => ({
    id: 100 + i,
    account_id: 2,
    name: `Person ${i}`,
    email: `person${i}@example.com`,
    created_at: NOW - 3 * 365 * DAY,
    updated_at: NOW - 3 * 365 * DAY,
  }));
  out.push(insert("people", people));
  const bookings = people.flatMap((p) =>
    Array.from({ length: BOOKINGS_PER_PERSON }, () => {
      const { from, to } = hour(NOW - 3 * 365 * DAY + Math.floor(random() * (3 * 365 + 30)) * DAY);
      return {
        account_id: 2,
        service_id: 2,
        resource_id: 2,
        person_id: p.id,
        booked_from: from,
        booked_to: to,
        state: "confirmed",
        active: true,
        count: 1,
        created_at: from,
        updated_at: from,
      };
    }),
  );
  out.push(insert("bookings", bookings));
  out.push(
    insert(
      "messages",
      Array.from({ length: OLD_MESSAGES }, (_, i) => {
        const at = NOW - 365 * DAY + Math.floor(random() * 365) * DAY;
        return {
          account_id: 2,
          person_id: 100 + (i % RETAINED_PEOPLE),
          kind: "reminder",
          channel: "sms",
          recipient: "+4791234567",
          body: `Reminder for Person ${i % RETAINED_PEOPLE}`,
          status: "sent",
          provider: "sink",
          sent_at: at,
          created_at: at,
          updated_at: at,
        };
      }),
    ),
  );
  const lastEnds = new Map<number, number>();
  for (const b of bookings) lastEnds.set(b.person_id, Math.max(lastEnds.get(b.person_id) ?? 0, b.booked_to));
  const due = [...lastEnds.values()].filter((end) => end < NOW - 365 * DAY).length;
  return { sql: out.join("\n"), keys: { shop: shop.apiKey, kept: kept.apiKey }, due };
}

/** Wall time and workerd CPU of one request. */
async function measured(pids: string[], call: () => Promise<{ status: number; text: string }>) {
  const cpuBefore = cpuNanos(pids);
  const started = performance.now();
  const reply = await call();
  const wallMs = performance.now() - started;
  const cpuMs = (cpuNanos(pids) - cpuBefore) / 1e6;
  if (reply.status >= 400) throw new Error(`status ${reply.status}: ${reply.text.slice(0, 300)}`);
  return { wallMs, cpuMs, text: reply.text };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (n: number) => round(n, 1);

async function erasure(server: BenchServer, pids: string[], key: string) {
  const { wallMs, cpuMs, text } = await measured(pids, () => server.request("/api/v1/people/1/erase", { method: "POST", key }));
  const rows = JSON.parse(text).erasure.rows as Record<string, number>;
  figures.push({
    name: `personal data: erase one person with ${ERASED_BOOKINGS.toLocaleString("en")} bookings and ${ERASED_BOOKINGS.toLocaleString("en")} messages (one request)`,
    unit: "ms",
    calls: 1,
    median: ms(wallMs),
    detail: `workerd CPU ${ms(cpuMs)} ms (Worker, objects and local D1 together); rows ${Object.entries(rows)
      .map(([table, n]) => `${table} ${n}`)
      .join(", ")}; rounds of at most 500 rows a table`,
  });
  const left = server.query<{ n: number }>(
    "SELECT (SELECT COUNT(*) FROM bookings WHERE account_id = 1 AND (title IS NOT NULL OR notes IS NOT NULL OR custom_data IS NOT NULL)) + (SELECT COUNT(*) FROM messages WHERE account_id = 1 AND (recipient <> '' OR body <> '')) + (SELECT COUNT(*) FROM people WHERE id = 1 AND (name IS NOT NULL OR email IS NOT NULL)) AS n",
  )[0].n;
  const kept = server.query<{ n: number }>("SELECT COUNT(*) AS n FROM bookings WHERE account_id = 1 AND active = 1 AND state = 'confirmed'")[0].n;
  figures.push({
    name: "personal data: after the erasure no personal field is left, and every booking still occupies its time",
    unit: "",
    calls: 1,
    check: left === 0 && kept === ERASED_BOOKINGS ? "pass" : "FAIL",
    detail: `${left} personal fields left; ${kept} of ${ERASED_BOOKINGS} bookings active and confirmed`,
  });
}

async function retention(server: BenchServer, pids: string[], key: string, due: number) {
  const passes: { wallMs: number; cpuMs: number }[] = [];
  for (let i = 0; i < RETENTION_PASSES; i += 1) passes.push(await measured(pids, () => server.request("/api/v1/__bench/retention/DB", { method: "POST", key })));
  const erased = server.query<{ n: number }>("SELECT COUNT(*) AS n FROM people WHERE account_id = 2 AND erased_at IS NOT NULL")[0].n;
  const cleared = server.query<{ n: number }>("SELECT COUNT(*) AS n FROM messages WHERE account_id = 2 AND body = ''")[0].n;
  figures.push({
    name: `personal data: one retention pass over a shard holding ${(RETAINED_PEOPLE * BOOKINGS_PER_PERSON).toLocaleString("en")} bookings of ${RETAINED_PEOPLE.toLocaleString("en")} people`,
    unit: "ms",
    calls: passes.length,
    median: ms(median(passes.map((p) => p.wallMs))),
    detail: `workerd CPU p50 ${ms(median(passes.map((p) => p.cpuMs)))} ms, max ${ms(Math.max(...passes.map((p) => p.cpuMs)))} ms per pass; ${passes.length} passes erased ${erased} of ${due} people due and cleared ${cleared} message bodies (batch: ${PEOPLE_PER_RUN} people and 1,000 messages a pass)`,
  });
  const idle: { wallMs: number; cpuMs: number }[] = [];
  for (let i = 0; i < 5; i += 1) idle.push(await measured(pids, () => server.request("/api/v1/__bench/retention/DB_SHARD_1", { method: "POST", key })));
  figures.push({
    name: "personal data: one retention pass over a shard with nothing due (no account there limits retention)",
    unit: "ms",
    calls: idle.length,
    median: ms(median(idle.map((p) => p.wallMs))),
    detail: `workerd CPU p50 ${ms(median(idle.map((p) => p.cpuMs)))} ms: one directory read`,
  });
}

async function leaving(server: BenchServer, pids: string[], shopKey: string) {
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${server.port}${path}`, {
      ...init,
      headers: { "user-agent": USER_AGENT, authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers as Record<string, string>) },
    }).then(async (res) => ({ status: res.status, text: await res.text() }));
  const counts = () => server.query<{ n: number }>("SELECT COUNT(*) AS n FROM bookings WHERE account_id = 2")[0].n;
  const before = counts();
  const exported = await measured(pids, () => admin("/admin/v1/accounts/2/export"));
  const bytes = new TextEncoder().encode(exported.text).length;
  figures.push({
    name: "personal data: export the account with 100,000 bookings (operator API, JSON lines)",
    unit: "ms",
    calls: 1,
    median: ms(exported.wallMs),
    bytes,
    detail: `${round(bytes / 1024 / 1024, 1)} MiB; workerd CPU ${ms(exported.cpuMs)} ms (a stream: pages of 500 rows)`,
  });
  await measured(pids, () => admin("/admin/v1/accounts/2", { method: "DELETE" }));
  // Past the grace period (30 days by default) on the bench Worker's clock.
  await server.request("/api/v1/__bench/clock", { method: "POST", key: shopKey, body: { ahead_ms: 31 * DAY } });
  const runs: { wallMs: number; cpuMs: number }[] = [];
  while (runs.length < 200 && server.query<{ n: number }>("SELECT COUNT(*) AS n FROM accounts WHERE id = 2")[0].n > 0) {
    runs.push(await measured(pids, () => server.request("/api/v1/__bench/cron", { method: "POST", key: shopKey })));
  }
  figures.push({
    name: "personal data: delete the closed account's rows, once past its grace period (the every-minute cron)",
    unit: "ms",
    calls: runs.length,
    median: ms(median(runs.map((r) => r.wallMs))),
    detail: `${runs.length} cron runs; workerd CPU p50 ${ms(median(runs.map((r) => r.cpuMs)))} ms, max ${ms(Math.max(...runs.map((r) => r.cpuMs)))} ms per run; ${counts()} bookings left`,
  });
  await server.request("/api/v1/__bench/clock", { method: "POST", key: shopKey, body: { ahead_ms: 0 } });
  const imported = await measured(pids, () =>
    admin("/admin/v1/accounts/import", { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: exported.text }),
  );
  const after = counts();
  figures.push({
    name: "personal data: import the account from its export (operator API)",
    unit: "ms",
    calls: 1,
    median: ms(imported.wallMs),
    detail: `workerd CPU ${ms(imported.cpuMs)} ms; ${after} of ${before} bookings back`,
  });
  figures.push({
    name: "personal data: the account's export, deletion and import give back every booking",
    unit: "",
    calls: 1,
    check: after === before && before === RETAINED_PEOPLE * BOOKINGS_PER_PERSON ? "pass" : "FAIL",
    detail: `${before} before, ${after} after`,
  });
}

const seeded = seedSql();
log(SUITE, `seeding ${ERASED_BOOKINGS} + ${RETAINED_PEOPLE * BOOKINGS_PER_PERSON} bookings`);
await withBenchServer(SUITE, seeded.sql, async (server) => {
  const pids = workerdProcesses();
  // One request first: the Worker's first load is not any figure's.
  await server.request("/api/v1/client", { key: seeded.keys.shop });
  await erasure(server, pids, seeded.keys.shop);
  log(SUITE, "erasure measured; retention passes");
  await retention(server, pids, seeded.keys.shop, seeded.due);
  log(SUITE, "retention measured; the account that leaves");
  await leaving(server, pids, seeded.keys.shop);
});

process.stdout.write(JSON.stringify(figures));
