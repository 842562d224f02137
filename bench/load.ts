// Load with autocannon against a bench server, and figures as ratios to the floor measured in
// the same run: each route alternates with its same-size floor, so drift lands on both alike.
import autocannon from "autocannon";
import { profileWhile } from "./cpu-profile";
import { cpuNanos, workerdProcesses } from "./workerd-cpu";
import type { BenchServer } from "./wrangler-dev";
import { USER_AGENT } from "./wrangler-dev";

export interface Figure {
  name: string;
  unit: string;
  calls: number;
  median?: number;
  p95?: number;
  p99?: number;
  mean?: number;
  rps?: number;
  /** The route's p50 over the floor's p50, measured in the same run. */
  ratio?: number;
  /** A cache miss's p50 over its data floor's p50 (ONE D1 statement reading the same rows), same run. */
  data_floor_ratio?: number;
  /** The floor's req/s over the route's (for throughput figures). */
  rps_ratio?: number;
  /** Writes that took capacity per second (throughput figures). */
  bookings_per_s?: number;
  bytes?: number;
  /** On a floor figure: the route it is the floor of. */
  floor_for?: string;
  /** On a data floor figure: the route it is the data floor of. */
  data_floor_for?: string;
  /** "pass" or "FAIL" for invariant lines, with what was checked. */
  check?: string;
  detail?: string;
  /** Sequential waits of one warm request, from its Server-Timing: D1 round trips and DO calls. */
  d1_round_trips?: number;
  do_calls?: number;
  /** With `--rtt N`: the waits × N, to set against the p50 (the rest is CPU and local transport). */
  rtt_wait_ms?: number;
  /** Median CPU time of the local runtime per request (workerd-cpu.ts), beside a data floor's. */
  cpu_ms?: number;
}

/** D1 round trips and Durable Object calls of one warm request (http/server-timing.ts). */
export async function costOf(server: BenchServer, target: Target): Promise<{ d1: number; doCalls: number }> {
  const res = await server.request(target.path, { key: target.key, method: target.method, body: target.body ? JSON.parse(target.body) : undefined });
  const timing = res.headers.get("server-timing") ?? "";
  const count = (name: string, unit: string) => Number(new RegExp(`${name};desc="(\\d+) ${unit}"`).exec(timing)?.[1] ?? NaN);
  return { d1: count("d1", "round trips"), doCalls: count("do", "calls") };
}

const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 0);

async function withCost(server: BenchServer, target: Target, figure: Figure): Promise<Figure> {
  const { d1, doCalls } = await costOf(server, target);
  figure.d1_round_trips = d1;
  figure.do_calls = doCalls;
  if (RTT_MS > 0) figure.rtt_wait_ms = (d1 + doCalls) * RTT_MS;
  return figure;
}

export interface Target {
  path: string;
  method?: "GET" | "POST";
  key: string;
  body?: string;
  /** Rewrites each request before it is sent (e.g. a fresh booking time). */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

export interface Run {
  latencies: number[];
  statuses: Map<number, number>;
  seconds: number;
}

export interface Load {
  connections: number;
  /** Seconds, or a fixed number of requests when `amount` is set. */
  seconds?: number;
  amount?: number;
}

export function fire(server: BenchServer, target: Target, load: Load): Promise<Run> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  // Until the last answer: autocannon ends a fixed `amount` run only on its next one-second
  // tick, which rounded every write figure's duration up to whole seconds.
  let lastAnswer = started;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${server.port}`,
        connections: load.connections,
        ...(load.amount ? { amount: load.amount } : { duration: load.seconds ?? 3 }),
        // Slow answers are measured, never cut off: a timeout would hide the slowest path.
        timeout: 60,
        requests: [
          {
            method: target.method ?? "GET",
            path: target.path,
            headers: {
              "user-agent": USER_AGENT,
              authorization: `Bearer ${target.key}`,
              ...(target.body !== undefined ? { "content-type": "application/json" } : {}),
            },
            ...(target.body !== undefined ? { body: target.body } : {}),
            ...(target.setupRequest ? { setupRequest: target.setupRequest } : {}),
          },
        ],
      },
      (error) => {
        if (error) reject(error);
        else resolve({ latencies, statuses, seconds: ((load.amount ? lastAnswer : performance.now()) - started) / 1000 });
      },
    );
    instance.on("response", (_client, status, _bytes, time) => {
      latencies.push(time);
      lastAnswer = performance.now();
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
export const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export function summarise(name: string, runs: Run[], extra: Partial<Figure> = {}): Figure {
  const sorted = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((t, r) => t + r.seconds, 0);
  return {
    name,
    unit: "ms",
    calls: sorted.length,
    median: round(quantile(sorted, 0.5)),
    p95: round(quantile(sorted, 0.95)),
    p99: round(quantile(sorted, 0.99)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    rps: round(sorted.length / seconds, 1),
    ...extra,
  };
}

/** Anything but the expected statuses means the figure would not measure what it says. */
export function expectStatuses(what: string, runs: Run[], allowed: number[]) {
  for (const run of runs) {
    for (const [status, n] of run.statuses) {
      if (!allowed.includes(status)) throw new Error(`${what}: ${n} answers with status ${status}`);
    }
  }
}

export const floorPath = (bytes: number) => `/api/v1/__bench/floor?bytes=${bytes}`;

/** The data floor of a cache miss (bench/floor-worker.ts): its path without `bytes`, and what it reads. */
export interface DataFloor {
  path: string;
  /** For the figure's name: the rows the statement reads, e.g. "5,000 bookings of 20 resources". */
  rows: string;
}

export interface Comparison {
  label: string;
  target: Target;
  /** Size of the route's answer: the floor answers exactly this many bytes. */
  bytes: number;
  /** A cache miss is also set against a floor that reads its rows in one statement and does nothing else. */
  dataFloor?: DataFloor;
}

const dataFloorPath = (dataFloor: DataFloor, bytes: number) => `${dataFloor.path}${dataFloor.path.includes("?") ? "&" : "?"}bytes=${bytes}`;

type Side = "route" | "floor" | "data";

/**
 * The route and its floor (and data floor) in rounds at the same concurrency, after a warm-up of
 * each, the order reversed every round (so each side's mean position is the same); p50/p99 and
 * req/s over all rounds, and the ratios of the p50s. Returns the route's figure, the floor's and,
 * with a data floor, its figure.
 */
export async function compareWithFloor(
  server: BenchServer,
  { label, target, bytes, dataFloor }: Comparison,
  load: { connections: number; seconds: number; rounds: number },
): Promise<Figure[]> {
  const targets: Partial<Record<Side, Target>> = { route: target, floor: { path: floorPath(bytes), key: target.key, method: target.method } };
  if (dataFloor) targets.data = { path: dataFloorPath(dataFloor, bytes), key: target.key };
  const sides = Object.keys(targets) as Side[];
  const once = { connections: load.connections, seconds: 1 };
  for (const side of [...sides].reverse()) await fire(server, targets[side]!, once);
  const runs: Record<Side, Run[]> = { route: [], floor: [], data: [] };
  for (let r = 0; r < load.rounds; r += 1) {
    for (const side of r % 2 === 0 ? sides : [...sides].reverse()) runs[side].push(await fire(server, targets[side]!, load));
  }
  expectStatuses(label, [...runs.route, ...runs.floor, ...runs.data], [200]);
  if (process.env.BENCH_CPU_PROFILE) {
    // After the measured rounds, so the profiler's own cost never lands in a figure.
    const slug = label
      .replace(/[^a-z0-9]+/gi, "-")
      .replace(/^-|-$/g, "")
      .toLowerCase();
    for (const side of sides) {
      const name = side === "data" ? "data-floor" : side;
      console.error(await profileWhile(server.inspectorPort, `${slug}-${name}`, () => fire(server, targets[side]!, { connections: load.connections, seconds: 3 })));
    }
  }
  const floorFigure = floorSummary(label, runs.floor, bytes);
  const routeFigure = summarise(label, runs.route, { bytes });
  routeFigure.ratio = round(routeFigure.median! / floorFigure.median!);
  routeFigure.rps_ratio = round(floorFigure.rps! / routeFigure.rps!);
  const figures = [routeFigure, floorFigure];
  if (dataFloor) {
    const dataFigure = summarise(`  data floor: one D1 statement, ${dataFloor.rows}, as ${kib(bytes)}`, runs.data, { bytes, data_floor_for: label });
    routeFigure.data_floor_ratio = round(routeFigure.median! / dataFigure.median!);
    // What reading the rows alone costs over reading nothing: the part of `x floor` no code of the route can remove.
    dataFigure.ratio = round(dataFigure.median! / floorFigure.median!);
    figures.push(dataFigure);
    // What the runtime itself spent per request, beside the wall time that other work on the machine stretches.
    const cpu = await cpuPerRequest(
      server,
      sides.map((side) => targets[side]!),
    );
    cpu.forEach((ms, i) => {
      figures[i].cpu_ms = ms;
    });
  }
  const out: Figure[] = [];
  for (const [i, side] of sides.entries()) out.push(await withCost(server, targets[side]!, figures[i]));
  return out;
}

/**
 * The median CPU time workerd spent per request of each target (all its threads: the Worker, the
 * limiter objects, D1's SQLite), over `n` requests of each in turn, one at a time. Empty where
 * /proc cannot be read. A route with `setupRequest` gets a fresh path each time, as under load.
 */
async function cpuPerRequest(server: BenchServer, targets: Target[], n = 40): Promise<number[]> {
  const pids = workerdProcesses();
  if (pids.length === 0) return [];
  const samples = targets.map(() => [] as number[]);
  for (let i = 0; i < n; i += 1) {
    for (const [t, target] of targets.entries()) {
      const path = target.setupRequest?.({ path: target.path, method: target.method ?? "GET" } as autocannon.Request).path ?? target.path;
      const before = cpuNanos(pids);
      const res = await server.request(path, { key: target.key, method: target.method });
      samples[t].push((cpuNanos(pids) - before) / 1e6);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} while measuring CPU`);
    }
  }
  return samples.map((ms) => round(ms.sort((a, b) => a - b)[ms.length >> 1]));
}

/** The floor's row sits under its route's in the table; `floor_for` names the route in results.json. */
export const floorSummary = (route: string, runs: Run[], bytes: number): Figure =>
  summarise(`  floor: ${kib(bytes)} JSON, same Worker and middleware`, runs, { bytes, floor_for: route });

export const kib = (bytes: number) => (bytes >= 1024 ? `${round(bytes / 1024, 1)} KiB` : `${bytes} B`);
