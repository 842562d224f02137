// What a booking update costs beside a create (issue 33): each kind of PUT /bookings/{id}, the
// other booking writes (cancel, status, delete, confirm, decline) and POST /bookings asked one at
// a time through a real `wrangler dev`, with the CPU workerd spent on each request
// (bench/workerd-cpu.ts: Worker, capacity guard, rate limiter and D1's SQLite together), its wall
// time and its sequential waits from Server-Timing. With --profile, a CPU profile of the Worker
// per kind instead (bench/cpu-profile.ts), to say where the time goes.
import { profileWhile } from "./cpu-profile";
import { round, type Figure } from "./load";
import { account, insert, resources, serviceWithProviders } from "./seed-sql";
import { log } from "./suite";
import { cpuNanos, workerdProcesses } from "./workerd-cpu";
import { withBenchServer, type BenchServer } from "./wrangler-dev";

const ACCOUNT_ID = 1;
const SERVICE_ID = 1;
const BUFFERED_SERVICE_ID = 2;
const ATTENDANCE_SERVICE_ID = 3;
const RESOURCES = Array.from({ length: 10 }, (_, i) => i + 1);
/** Where moves to another resource go. */
const OTHER_RESOURCES = Array.from({ length: 10 }, (_, i) => i + 11);
const EVENT_RESOURCE = 21;
/** A second shop that confirms bookings by hand, so confirm and decline have bookings to act on. */
const MANUAL_ACCOUNT_ID = 2;
const MANUAL_SERVICE_ID = 4;
const MANUAL_RESOURCES = Array.from({ length: 10 }, (_, i) => i + 31);
/** Measured requests per kind, after as many warm-up requests as `WARM_UP`. */
const MEASURED = Number(process.env.BENCH_UPDATES_N ?? 80);
const WARM_UP = 10;
const PROFILE_SECONDS = 4;
const HOUR = 3_600_000;
const FIRST = Date.UTC(2031, 0, 1, 7);
const PEOPLE = 4 * (MEASURED + WARM_UP) + 200;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

const tenant = account(ACCOUNT_ID, "updates");
const manualTenant = account(MANUAL_ACCOUNT_ID, "updates-manual", { confirm_manually: 1 });
const now = Date.now();
const seed = [
  tenant.sql,
  resources(
    ACCOUNT_ID,
    [...RESOURCES, ...OTHER_RESOURCES].map((id) => ({ id, capacity: 1, hours: null })),
  ),
  resources(ACCOUNT_ID, [{ id: EVENT_RESOURCE, capacity: 1, hours: null }]),
  serviceWithProviders(ACCOUNT_ID, SERVICE_ID, 60, [...RESOURCES, ...OTHER_RESOURCES]),
  serviceWithProviders(ACCOUNT_ID, BUFFERED_SERVICE_ID, 60, [...RESOURCES, ...OTHER_RESOURCES], { buffer_after: 15 }),
  serviceWithProviders(ACCOUNT_ID, ATTENDANCE_SERVICE_ID, 60, [EVENT_RESOURCE], { booking_type: "attendance" }),
  manualTenant.sql,
  resources(
    MANUAL_ACCOUNT_ID,
    MANUAL_RESOURCES.map((id) => ({ id, capacity: 1, hours: null })),
  ),
  serviceWithProviders(MANUAL_ACCOUNT_ID, MANUAL_SERVICE_ID, 60, MANUAL_RESOURCES),
  // People known by email only, so an update naming one with a phone fills it.
  insert(
    "people",
    Array.from({ length: PEOPLE }, (_, i) => ({
      id: i + 1,
      account_id: ACCOUNT_ID,
      name: `Known ${i + 1}`,
      email: `known${i + 1}@example.com`,
      created_at: now,
      updated_at: now,
    })),
  ),
].join("\n");

type Answer = { status: number; headers: Headers; body: any };

interface Sample {
  cpuMs: number;
  wallMs: number;
}

const quantile = (list: number[], q: number) => {
  const s = [...list].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const waitsOf = (headers: Headers) =>
  /waits;desc="(\d+) in sequence: (\d+) d1, (\d+) do"/
    .exec(headers.get("server-timing") ?? "")
    ?.slice(1)
    .map(Number);

const figures = await withBenchServer("updates", seed, async (server: BenchServer) => {
  const key = tenant.apiKey;
  const workerd = workerdProcesses();
  if (!workerd.length) log("updates", "no workerd process found under this one: CPU per request is not measured");
  const call = async (method: string, path: string, body: unknown, asKey = key): Promise<Answer> => {
    const res = await server.request(`/api/v1${path}`, { method, key: asKey, body });
    return { status: res.status, headers: res.headers, body: JSON.parse(res.text) };
  };
  const must = async (answer: Promise<Answer>, what: string) => {
    const res = await answer;
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };

  /** Hours of the resources in turn, each asked once: every booking made from them fits. */
  const slotsOf = (resourceIds: number[]) => {
    let slot = 0;
    return () => {
      const n = slot++;
      return { resource_id: resourceIds[n % resourceIds.length], from: FIRST + Math.floor(n / resourceIds.length) * HOUR };
    };
  };
  const bookingOn = (nextSlot: ReturnType<typeof slotsOf>, serviceId: number) => {
    const { resource_id, from } = nextSlot();
    return { resource_id, service_id: serviceId, booked_from: iso(from), booked_to: iso(from + HOUR) };
  };
  const nextSlot = slotsOf(RESOURCES);
  const createBody = (extra: Record<string, unknown> = {}) => ({ booking: { ...bookingOn(nextSlot, SERVICE_ID), ...extra } });
  // Bookings each update kind changes: made before it is measured, one per request.
  const total = MEASURED + WARM_UP;
  const made = async (count: number) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push((await must(call("POST", "/bookings", createBody()), "POST /bookings")).body.booking.id);
    return ids;
  };
  const event = (
    await must(
      call("POST", "/events", {
        event: {
          resource_id: EVENT_RESOURCE,
          service_id: ATTENDANCE_SERVICE_ID,
          capacity: 100_000,
          starts_at: iso(FIRST),
          ends_at: iso(FIRST + HOUR),
          title: "Class",
          published: true,
        },
      }),
      "POST /events",
    )
  ).body.event;
  const nextManualSlot = slotsOf(MANUAL_RESOURCES);
  /** Bookings awaiting the second shop's confirmation. */
  const awaitingConfirmation = async (count: number) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const booking = bookingOn(nextManualSlot, MANUAL_SERVICE_ID);
      const made = (await must(call("POST", "/bookings", { booking, confirm: false }, manualTenant.apiKey), "POST /bookings (confirmed by hand)")).body.booking;
      if (made.state !== "awaiting_confirmation") throw new Error(`the second shop's booking is ${made.state}, not awaiting_confirmation`);
      ids.push(made.id);
    }
    return ids;
  };
  const eventBookings: number[] = [];
  for (let i = 0; i < total; i++) eventBookings.push((await must(call("POST", "/bookings", { booking: { event_id: event.id } }), "event booking")).body.booking.id);

  let person = 0;
  let far = 0;
  /** A time no other booking has: moves always fit. */
  const farSlot = () => FIRST + (100_000 + far++) * HOUR;
  const kinds: { label: string; prepare?: () => Promise<number[]>; ask: (id: number, n: number) => Promise<Answer> }[] = [
    { label: "POST /bookings (resource and service)", ask: () => call("POST", "/bookings", createBody()) },
    {
      label: "POST /bookings with a new person",
      ask: (_, n) => call("POST", "/bookings", createBody({ person_attributes: { name: "New", email: `create${n}@example.com` } })),
    },
    { label: "PUT /bookings/{id}: title", prepare: () => made(total), ask: (id, n) => call("PUT", `/bookings/${id}`, { booking: { title: `Edited ${n}` } }) },
    {
      label: "PUT /bookings/{id}: move in time",
      prepare: () => made(total),
      ask: (id) => {
        const from = farSlot();
        return call("PUT", `/bookings/${id}`, { booking: { booked_from: iso(from), booked_to: iso(from + HOUR) } });
      },
    },
    {
      label: "PUT /bookings/{id}: another resource and service",
      prepare: () => made(total),
      ask: (id, n) =>
        call("PUT", `/bookings/${id}`, {
          booking: {
            resource_id: OTHER_RESOURCES[n % OTHER_RESOURCES.length],
            service_id: BUFFERED_SERVICE_ID,
            ...(() => {
              const from = farSlot();
              return { booked_from: iso(from), booked_to: iso(from + HOUR) };
            })(),
          },
        }),
    },
    {
      label: "PUT /bookings/{id}: a new person",
      prepare: () => made(total),
      ask: (id, n) => call("PUT", `/bookings/${id}`, { booking: { person_attributes: { name: "New", email: `update${n}@example.com` } } }),
    },
    {
      label: "PUT /bookings/{id}: a known person, phone filled",
      prepare: () => made(total),
      ask: (id) => {
        person += 1;
        return call("PUT", `/bookings/${id}`, {
          booking: { person_attributes: { email: `known${person}@example.com`, phone_number: `+4790${String(person).padStart(6, "0")}` } },
        });
      },
    },
    { label: "PUT /bookings/{id}: event booking count", prepare: async () => eventBookings, ask: (id) => call("PUT", `/bookings/${id}`, { booking: { count: 2 } }) },
    { label: "PUT /bookings/{id}/cancel", prepare: () => made(total), ask: (id) => call("PUT", `/bookings/${id}/cancel`, {}) },
    { label: "PUT /bookings/{id}/status", prepare: () => made(total), ask: (id, n) => call("PUT", `/bookings/${id}/status`, { status: `label ${n}` }) },
    { label: "DELETE /bookings/{id}", prepare: () => made(total), ask: (id) => call("DELETE", `/bookings/${id}`, {}) },
    { label: "PUT /bookings/{id}/confirm", prepare: () => awaitingConfirmation(total), ask: (id) => call("PUT", `/bookings/${id}/confirm`, {}, manualTenant.apiKey) },
    { label: "PUT /bookings/{id}/decline", prepare: () => awaitingConfirmation(total), ask: (id) => call("PUT", `/bookings/${id}/decline`, {}, manualTenant.apiKey) },
  ];

  const out: Figure[] = [];
  let createCpu = 0;
  for (const kind of kinds) {
    const ids = kind.prepare ? await kind.prepare() : Array.from({ length: total }, () => 0);
    if (process.env.BENCH_CPU_PROFILE) {
      // Profiled: as many requests as fit in the profile's seconds, one at a time.
      const more = kind.prepare ? await kind.prepare() : [];
      const pool = [...ids, ...more];
      let n = 0;
      await kind.ask(pool[n], n++);
      const slug = `updates-${kind.label.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;
      console.error(
        await profileWhile(server.inspectorPort, slug, async () => {
          const latencies: number[] = [];
          const until = performance.now() + PROFILE_SECONDS * 1000;
          while (performance.now() < until && n < pool.length) {
            const at = performance.now();
            await must(kind.ask(pool[n], n++), kind.label);
            latencies.push(performance.now() - at);
          }
          return { latencies };
        }),
      );
      continue;
    }
    const samples: Sample[] = [];
    let waits: number[] | undefined;
    for (let n = 0; n < total; n++) {
      const cpuAt = cpuNanos(workerd);
      const at = performance.now();
      const res = await must(kind.ask(ids[n], n), kind.label);
      const wallMs = performance.now() - at;
      const cpuMs = (cpuNanos(workerd) - cpuAt) / 1e6;
      if (n >= WARM_UP) samples.push({ cpuMs, wallMs });
      waits = waitsOf(res.headers);
    }
    const cpu = samples.map((s) => s.cpuMs);
    const median = quantile(cpu, 0.5);
    if (out.length === 0) createCpu = median;
    log("updates", `${kind.label}: CPU p50 ${round(median)} ms`);
    out.push({
      name: `http: ${kind.label}, one at a time: workerd CPU per request`,
      unit: "ms",
      calls: samples.length,
      median: round(median),
      p95: round(quantile(cpu, 0.95)),
      mean: round(cpu.reduce((a, b) => a + b, 0) / cpu.length),
      detail:
        `${round(median / createCpu)} × a create's CPU; wall p50 ${round(
          quantile(
            samples.map((s) => s.wallMs),
            0.5,
          ),
        )} ms; ` + `${waits ? `${waits[0]} waits in sequence (${waits[1]} D1, ${waits[2]} DO)` : "no waits header"}`,
    });
  }
  return out;
});

process.stdout.write(JSON.stringify(figures));
