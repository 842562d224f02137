// `npm run bench -- fleet`: a deployment's traffic rather than one account's hot loop. Thousands of
// small shops (fleet-seed.ts); visitors chosen by a Zipf law over the shops walk the widget's path
// on the booking site, the shops' staff write through the private API, and the floor route of the
// same sizes runs in the same stream. Per request kind: latency, ratio to the floor, cache hit
// rate and workerd CPU; plus the Worker's start-up. Figures as JSON for bench/run.mjs.
import os from "node:os";
import { endOfMonth, todayIn } from "../src/domain/time";
import { fleetClient, type Answer, type Ask } from "./fleet-client";
import { futureDate, openHours, seedFleet, type FleetAccount } from "./fleet-seed";
import { floorPath, kib, round, type Figure } from "./load";
import { profileWhile } from "./cpu-profile";
import { measureStartup } from "./startup-cost";
import { log } from "./suite";
import { cpuNanos, workerdProcesses } from "./workerd-cpu";
import { withBenchServer } from "./wrangler-dev";
import { pick, seededRandom, topShare, zipf } from "./zipf";

const ACCOUNTS = Number(process.env.BENCH_FLEET_ACCOUNTS ?? 2000);
/** Measured seconds, after the warm-up. */
const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 40);
const WARMUP_SECONDS = 5;
/** P(rank k) ∝ 1/k^s over the shops. */
const ZIPF_EXPONENT = 1.0;
/** Private API writes (creates, cancels, edits) as a share of the shops' requests (the floor aside). */
const WRITE_SHARE = 0.05;
/** One request in this many is the floor route, cycling through the kinds' answer sizes. */
const FLOOR_EVERY = 4;
const SEED = 21;
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 0);
if (!(ACCOUNTS >= 1) || !(SECONDS > 0)) throw new Error("BENCH_FLEET_ACCOUNTS and BENCH_FLEET_SECONDS must be positive numbers");

const KINDS = {
  services: { label: "GET /services (booking site)", method: "GET", public: true },
  dates: { label: "GET available_dates, a month (booking site)", method: "GET", public: true },
  slots: { label: "GET slots, one day (booking site)", method: "GET", public: true },
  next: { label: "GET next_available_date (booking site)", method: "GET", public: true },
  siteCreate: { label: "POST /bookings (booking site)", method: "POST", public: true },
  create: { label: "POST /api/v1/bookings (private)", method: "POST", public: false },
  cancel: { label: "PUT /api/v1/bookings/{id}/cancel (private)", method: "PUT", public: false },
  edit: { label: "PUT /api/v1/bookings/{id} (private)", method: "PUT", public: false },
} as const;
type Kind = keyof typeof KINDS;
const PUBLIC_READS: Kind[] = ["services", "dates", "slots", "next"];
/** A create refused because the slot is taken is a right answer, not a failure. */
const expected = (kind: Kind, status: number) => status === 200 || ((kind === "siteCreate" || kind === "create") && status === 400);

interface Tally {
  latencies: number[];
  cpuNs: number[];
  bytes: number[];
  statuses: Map<number, number>;
  hits: number;
  misses: number;
  d1: number[];
  doCalls: number[];
  d1Ms: number[];
  doMs: number[];
  totalMs: number[];
}
const newTally = (): Tally => ({ latencies: [], cpuNs: [], bytes: [], statuses: new Map(), hits: 0, misses: 0, d1: [], doCalls: [], d1Ms: [], doMs: [], totalMs: [] });
const timingCount = (timing: string, name: string, unit: string) => Number(new RegExp(`${name};desc="(\\d+) ${unit}"`).exec(timing)?.[1] ?? NaN);
/** A Server-Timing entry's `dur`: the Worker's own wall time (`total`) or its waits on D1 and Durable Objects. */
const timingDuration = (timing: string, name: string) => Number(new RegExp(`(?:^|, )${name};(?:desc="[^"]*";)?dur=([\\d.]+)`).exec(timing)?.[1] ?? NaN);

function record(tally: Tally, answer: Answer) {
  tally.latencies.push(answer.latencyMs);
  tally.cpuNs.push(answer.cpuNs);
  tally.bytes.push(answer.bytes);
  tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
  const cache = /cache;desc="(hit|miss)"/.exec(answer.serverTiming)?.[1];
  if (cache === "hit") tally.hits += 1;
  if (cache === "miss") tally.misses += 1;
  tally.d1.push(timingCount(answer.serverTiming, "d1", "round trips"));
  tally.doCalls.push(timingCount(answer.serverTiming, "do", "calls"));
  tally.d1Ms.push(timingDuration(answer.serverTiming, "d1"));
  tally.doMs.push(timingDuration(answer.serverTiming, "do"));
  tally.totalMs.push(timingDuration(answer.serverTiming, "total"));
}

const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
const quantile = (list: number[], q: number) => {
  const s = sorted(list);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;

const now = Date.now();
const random = seededRandom(SEED);
const fleet = seedFleet(random, ACCOUNTS, now);
const draw = zipf(random, ACCOUNTS, ZIPF_EXPONENT);
log(
  "fleet",
  `${ACCOUNTS} accounts seeded as SQL (${(fleet.sql.length / 1e6).toFixed(1)} MB); Zipf s=${ZIPF_EXPONENT}: the busiest shop gets ${(topShare(ACCOUNTS, ZIPF_EXPONENT) * 100).toFixed(1)}% of visits`,
);

const loadAtStart = os.loadavg();
const suiteStarted = performance.now();
const figures = await withBenchServer(
  "fleet",
  fleet.sql,
  async (server) => {
    log("fleet", `server up after ${round((performance.now() - suiteStarted) / 1000, 1)} s (migrations, seeding, start)`);
    const workerd = workerdProcesses();
    if (!workerd.length) log("fleet", "no workerd process found under this one: CPU per request is not measured");
    const client = fleetClient(server.port, () => cpuNanos(workerd));
    let visitors = 0;
    let floorCalls = 0;
    let edits = 0;
    let phase: "probe" | "warm-up" | "measured" | "profile" = "probe";
    const tallies = new Map<Kind, Tally>();
    const floors = new Map<Kind, Tally>();
    const sizes = new Map<Kind, number[]>();
    const tallyOf = (map: Map<Kind, Tally>, kind: Kind) => map.get(kind) ?? map.set(kind, newTally()).get(kind)!;

    const floorSize = (kind: Kind) => Math.max(12, Math.round(quantile(sizes.get(kind) ?? [12], 0.5)));
    let floorTurn = 0;
    /** Every request sent while the profile runs, so its summary is per request, not per visitor. */
    const profiled: number[] = [];
    async function floor() {
      const kinds = [...sizes.keys()];
      if (!kinds.length) return;
      const kind = kinds[floorTurn++ % kinds.length];
      floorCalls += 1;
      const answer = await client.send({
        method: KINDS[kind].method,
        path: floorPath(floorSize(kind)),
        key: fleet.floorKeys[floorCalls % fleet.floorKeys.length],
        ip: `192.168.0.${floorCalls % 64}`,
      });
      if (answer.status !== 200) throw new Error(`floor: ${answer.status} ${answer.text.slice(0, 200)}`);
      if (phase === "measured") record(tallyOf(floors, kind), answer);
      if (phase === "profile") profiled.push(answer.latencyMs);
    }

    let sent = 0;
    /** Every request of the stream: a private write now and then, the floor every FLOOR_EVERY-th. */
    async function timed(kind: Kind, ask: Ask, interleave = true): Promise<Answer> {
      if (interleave && phase !== "probe") {
        if (random() < WRITE_SHARE / (1 - WRITE_SHARE)) await privateWrite(fleet.accounts[draw() - 1]);
        if (++sent % FLOOR_EVERY === 0) await floor();
      }
      const answer = await client.send(ask);
      if (phase === "probe" && !expected(kind, answer.status))
        throw new Error(`${KINDS[kind].label} on ${ask.host ?? "the private API"} ${ask.path}: ${answer.status} ${answer.text.slice(0, 300)}`);
      if (phase !== "probe" && expected(kind, answer.status)) (sizes.get(kind) ?? sizes.set(kind, []).get(kind)!).push(answer.bytes);
      if (phase === "measured") record(tallyOf(tallies, kind), answer);
      if (phase === "profile") profiled.push(answer.latencyMs);
      return answer;
    }

    const office = (shop: FleetAccount) => `172.16.${shop.id >> 8}.${shop.id & 255}`;
    /** What a shop's staff do in their back office: book a customer in, cancel one, change one's title. */
    async function privateWrite(shop: FleetAccount) {
      const roll = random();
      const ip = office(shop);
      if (roll < 0.3 && shop.bookings.length) {
        const id = shop.bookings.splice(Math.floor(random() * shop.bookings.length), 1)[0];
        await timed("cancel", { method: "PUT", path: `/api/v1/bookings/${id}/cancel`, key: shop.apiKey, ip, body: {} }, false);
      } else if (roll < 0.6 && shop.bookings.length) {
        await timed(
          "edit",
          { method: "PUT", path: `/api/v1/bookings/${pick(random, shop.bookings)}`, key: shop.apiKey, ip, body: { booking: { title: `Edited ${++edits}` } } },
          false,
        );
      } else {
        const service = pick(random, shop.services);
        const resourceId = pick(random, service.resources);
        const resource = shop.resources.find((r) => r.id === resourceId)!;
        const date = futureDate(random, shop.timeZone, now);
        const hours = openHours(resource, date);
        const hour = String(hours.length ? pick(random, hours) : 12).padStart(2, "0");
        const answer = await timed(
          "create",
          {
            method: "POST",
            path: "/api/v1/bookings",
            key: shop.apiKey,
            ip,
            body: {
              booking: {
                resource_id: resource.id,
                service_id: service.id,
                booked_from: `${date} ${hour}:00`,
                booked_to: `${date} ${String(Number(hour) + 1).padStart(2, "0")}:00`,
              },
            },
          },
          false,
        );
        if (answer.status === 200) shop.bookings.push((JSON.parse(answer.text) as { booking: { id: number } }).booking.id);
      }
    }

    /** A visitor on a shop's booking site, as the widget walks it: services, a month, a day or two, maybe a booking. */
    async function visit(shop: FleetAccount) {
      visitors += 1;
      const site = { host: `${shop.subdomain}.localhost`, ip: `10.${(visitors >> 16) & 255}.${(visitors >> 8) & 255}.${visitors & 255}` };
      const get = (kind: Kind, path: string) => timed(kind, { method: "GET", path, ...site });
      await get("services", "/services");
      const service = pick(random, shop.services);
      const base = `/services/${service.id}`;
      if (random() < 0.35) await get("next", `${base}/next_available_date`);
      const today = todayIn(Date.now(), shop.timeZone);
      const month = random() < 0.75 ? today.slice(0, 7) : endOfMonthNext(today);
      const dates = await get("dates", `${base}/available_dates?from=${month}-01&to=${endOfMonth(`${month}-01`)}`);
      const free = dates.status === 200 ? (JSON.parse(dates.text) as { available_date: { date: string } }[]).map((d) => d.available_date.date) : [];
      for (let days = random() < 0.3 ? 2 : 1; days > 0; days -= 1) {
        const day = free.length ? pick(random, free) : futureDate(random, shop.timeZone, now);
        const slots = await get("slots", `${base}/slots?from=${day}&to=${day}`);
        if (days > 1 || random() >= 0.2 || slots.status !== 200) continue;
        const open = (JSON.parse(slots.text) as { slot: { timestamp: string; timestamp_end: string; free: number } }[]).filter((s) => s.slot.free > 0);
        if (!open.length) continue;
        const { slot } = pick(random, open);
        await timed("siteCreate", {
          method: "POST",
          path: "/bookings",
          ...site,
          body: {
            booking: {
              service_id: service.id,
              booked_from: slot.timestamp,
              booked_to: slot.timestamp_end,
              person_attributes: { name: `Visitor ${visitors}`, email: `visitor${visitors}@example.com` },
            },
          },
        });
      }
    }

    // Probe: every kind on the busiest shop must answer as the figures assume before anything is timed.
    const first = fleet.accounts[0];
    const probeSite = { host: `${first.subdomain}.localhost`, ip: "10.255.255.254" };
    const probeBase = `/services/${first.services[0].id}`;
    await timed("services", { method: "GET", path: "/services", ...probeSite });
    await timed("next", { method: "GET", path: `${probeBase}/next_available_date`, ...probeSite });
    let probeDates: string[] = [];
    for (const month of [todayIn(now, first.timeZone).slice(0, 7), endOfMonthNext(todayIn(now, first.timeZone))]) {
      const dates = await timed("dates", { method: "GET", path: `${probeBase}/available_dates?from=${month}-01&to=${endOfMonth(`${month}-01`)}`, ...probeSite });
      probeDates = [...probeDates, ...(JSON.parse(dates.text) as { available_date: { date: string } }[]).map((d) => d.available_date.date)];
    }
    const probeSlots = await timed("slots", { method: "GET", path: `${probeBase}/slots?from=${probeDates[0]}&to=${probeDates[0]}`, ...probeSite });
    const probeSlot = (JSON.parse(probeSlots.text) as { slot: { timestamp: string; timestamp_end: string; free: number } }[]).find((s) => s.slot.free > 0);
    if (!probeSlot) throw new Error(`probe: no free slot on ${probeDates[0]}: ${probeSlots.text.slice(0, 300)}`);
    await timed("siteCreate", {
      method: "POST",
      path: "/bookings",
      ...probeSite,
      body: {
        booking: {
          service_id: first.services[0].id,
          booked_from: probeSlot.slot.timestamp,
          booked_to: probeSlot.slot.timestamp_end,
          person_attributes: { name: "Probe", email: "probe@example.com" },
        },
      },
    });
    const probeResource = first.services[0].resources[0];
    await timed("create", {
      method: "POST",
      path: "/api/v1/bookings",
      key: first.apiKey,
      ip: office(first),
      body: { booking: { resource_id: probeResource, service_id: first.services[0].id, booked_from: `${probeDates[0]} 03:00`, booked_to: `${probeDates[0]} 04:00` } },
    });
    await timed("edit", { method: "PUT", path: `/api/v1/bookings/${first.bookings[0]}`, key: first.apiKey, ip: office(first), body: { booking: { title: "Probed" } } });
    await timed("cancel", { method: "PUT", path: `/api/v1/bookings/${first.bookings.shift()}/cancel`, key: first.apiKey, ip: office(first), body: {} });
    log("fleet", "probe: every request kind answered as expected");

    for (const [name, seconds] of [
      ["warm-up", WARMUP_SECONDS],
      ["measured", SECONDS],
    ] as const) {
      phase = name;
      const until = performance.now() + seconds * 1000;
      while (performance.now() < until) await visit(fleet.accounts[draw() - 1]);
      log("fleet", `${name}: ${visitors} visitors so far`);
    }
    if (process.env.BENCH_CPU_PROFILE) {
      // After the measured phase, so the profiler's own cost never lands in a figure: 10 s of more
      // visitors, each a shop's reads as above (their creates included).
      phase = "profile";
      console.error(
        await profileWhile(server.inspectorPort, "fleet-visits", async () => {
          const until = performance.now() + 10_000;
          while (performance.now() < until) await visit(fleet.accounts[draw() - 1]);
          return { latencies: profiled };
        }),
      );
    }
    client.close();

    const out: Figure[] = [];
    const waits = (t: Tally): Partial<Figure> => {
      const d1 = quantile(t.d1, 0.5);
      const doCalls = quantile(t.doCalls, 0.5);
      return { d1_round_trips: d1, do_calls: doCalls, ...(RTT_MS > 0 ? { rtt_wait_ms: (d1 + doCalls) * RTT_MS } : {}) };
    };
    const latencyFigure = (name: string, t: Tally): Figure => ({
      name,
      unit: "ms",
      calls: t.latencies.length,
      median: round(quantile(t.latencies, 0.5)),
      p95: round(quantile(t.latencies, 0.95)),
      p99: round(quantile(t.latencies, 0.99)),
      mean: round(mean(t.latencies)),
    });
    // The Worker's own wall time and its waits, from Server-Timing (p50s; waits on D1 and objects overlap).
    const inWorker = (t: Tally) =>
      `in the Worker p50 ${round(quantile(t.totalMs, 0.5))} ms (D1 wait ${round(quantile(t.d1Ms, 0.5))}, DO wait ${round(quantile(t.doMs, 0.5))})`;
    const cpu = (t: Tally) => (workerd.length ? `${round(mean(t.cpuNs) / 1e6)} ms CPU/req (p50 ${round(quantile(t.cpuNs, 0.5) / 1e6)})` : "CPU not measured");
    const hitRate = (t: Tally) =>
      t.hits + t.misses ? `cache hits ${Math.round((t.hits / (t.hits + t.misses)) * 100)}% (${t.hits}/${t.hits + t.misses})` : "no answer cache";
    const others = (kind: Kind, t: Tally) => {
      const odd = [...t.statuses].filter(([status]) => status !== 200).map(([status, n]) => `${status}×${n}${expected(kind, status) ? " refused" : ""}`);
      return odd.length ? `non-200: ${odd.join(", ")}` : "";
    };
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const t = tallies.get(kind);
      const f = floors.get(kind);
      if (!t) continue;
      const route = latencyFigure(`fleet: ${KINDS[kind].label}`, t);
      const floorFigure = f
        ? {
            ...latencyFigure(`  floor: ${kib(floorSize(kind))} JSON, same Worker and middleware`, f),
            bytes: floorSize(kind),
            floor_for: route.name,
            detail: `${cpu(f)}; ${inWorker(f)}`,
            ...waits(f),
          }
        : undefined;
      if (floorFigure) route.ratio = round(route.median! / floorFigure.median!);
      out.push({ ...route, bytes: floorSize(kind), ...waits(t), detail: [hitRate(t), cpu(t), inWorker(t), others(kind, t)].filter(Boolean).join(", ") });
      if (floorFigure) out.push(floorFigure);
    }
    // Every public read together, against the floors of their sizes: the figure the targets name.
    const merge = (list: (Tally | undefined)[]) =>
      list
        .filter((t): t is Tally => !!t)
        .reduce(
          (all, t) => ({
            // biome-ignore lint/performance/noAccumulatingSpread: a few tallies, merged once at the end
            ...all,
            latencies: [...all.latencies, ...t.latencies],
            cpuNs: [...all.cpuNs, ...t.cpuNs],
            hits: all.hits + t.hits,
            misses: all.misses + t.misses,
            d1: [...all.d1, ...t.d1],
            doCalls: [...all.doCalls, ...t.doCalls],
            d1Ms: [...all.d1Ms, ...t.d1Ms],
            doMs: [...all.doMs, ...t.doMs],
            totalMs: [...all.totalMs, ...t.totalMs],
          }),
          newTally(),
        );
    const reads = merge(PUBLIC_READS.map((k) => tallies.get(k)));
    const readFloors = merge(PUBLIC_READS.map((k) => floors.get(k)));
    const all = latencyFigure("fleet: every public read (the four above)", reads);
    all.ratio = round(all.median! / quantile(readFloors.latencies, 0.5));
    const requests = [...tallies.values()].reduce((n, t) => n + t.latencies.length, 0) + [...floors.values()].reduce((n, t) => n + t.latencies.length, 0);
    const writes = ["create", "cancel", "edit"].reduce((n, k) => n + (tallies.get(k as Kind)?.latencies.length ?? 0), 0);
    out.push({
      ...all,
      ...waits(reads),
      detail:
        `${hitRate(reads)}, ${cpu(reads)}, ${inWorker(reads)}; floors ${inWorker(readFloors)}; p95 ${round(all.p95! / quantile(readFloors.latencies, 0.95))} × the floors' p95. ` +
        `${visitors} visitors over ${ACCOUNTS} shops (Zipf s=${ZIPF_EXPONENT}), ${requests} measured requests in ${SECONDS} s, ` +
        `private writes ${round((writes / (requests - [...floors.values()].reduce((n, t) => n + t.latencies.length, 0))) * 100, 1)}% of the shops' requests; ` +
        `load average ${loadAtStart.map((n) => n.toFixed(2)).join(" ")} at start, ${os
          .loadavg()
          .map((n) => n.toFixed(2))
          .join(" ")} at end`,
    });
    return out;
  },
  { limits: "production" },
);

/** The month after today's, as YYYY-MM. */
function endOfMonthNext(today: string): string {
  const [year, month] = today.slice(0, 7).split("-").map(Number);
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, "0")}`;
}

// The start-up a new isolate pays before its first request: three profiled start-ups, the median.
const startups = [1, 2, 3].map((run) => measureStartup(run)).sort((a, b) => a.busyMs - b.busyMs);
const middle = startups[1];
figures.push({
  name: "fleet: Worker start-up (wrangler check startup, 3 runs)",
  unit: "ms",
  calls: startups.length,
  median: round(middle.busyMs),
  p95: round(startups[2].busyMs),
  mean: round(mean(startups.map((s) => s.busyMs))),
  detail: `sampled start-up CPU, idle excluded (GC ${round(middle.gcMs)} ms), span ${round(middle.spanMs)} ms; profile ${middle.file.replace(/^.*\/bench\//, "bench/")}`,
});

process.stdout.write(JSON.stringify(figures));
