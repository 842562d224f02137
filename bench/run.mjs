// npm run bench: builds each benchmark with esbuild, runs it in its own Node process, prints a
// table and writes bench/results.json. Figures are measured in the same run, never asserted. A
// suite that fails is reported with why (its last output) and the others still run; the run then
// exits 1 with results.json written all the same.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, ".build");
mkdirSync(out, { recursive: true });

// `entry` suites are TypeScript bundled for Node, their npm packages left to node_modules (the
// HTTP ones start `wrangler dev` themselves); `script` suites run as they are.
// `npm run bench -- slots lists` runs only the named suites.
const allSuites = [
  { name: "engine", entry: join(here, "engine.ts") },
  { name: "slots", entry: join(here, "slots-http.ts") },
  { name: "lists", entry: join(here, "lists-http.ts") },
  { name: "writes", entry: join(here, "booking-writes.ts") },
  { name: "paid", entry: join(here, "paid-writes.ts") },
  { name: "updates", entry: join(here, "booking-updates.ts") },
  { name: "calendars", entry: join(here, "calendar-sync.ts") },
  { name: "rate-limit", script: join(here, "rate-limit.mjs") },
  { name: "shards", entry: join(here, "shards.ts") },
  { name: "fleet", entry: join(here, "fleet.ts") },
  { name: "mcp", entry: join(here, "mcp.ts") },
  { name: "routes", entry: join(here, "routes.ts") },
  { name: "messages", entry: join(here, "messages.ts") },
  { name: "personal-data", entry: join(here, "personal-data.ts") },
];
const args = process.argv.slice(2);
// --profile: each HTTP read figure also takes a CPU profile of the Worker (after measuring).
const profile = args.includes("--profile");
// --rtt N: every D1 and Durable Object call of the bench Worker waits N ms (bench/rtt.ts).
const rttAt = args.indexOf("--rtt");
const rtt = rttAt >= 0 ? Number(args[rttAt + 1]) : 0;
if (rttAt >= 0 && !(rtt > 0)) throw new Error("--rtt takes a number of milliseconds, e.g. --rtt 50");
// --near M: with --rtt, what a hop within the database's region costs (a guard's own D1 batch, a rate limiter): default 2.
const nearAt = args.indexOf("--near");
const near = nearAt >= 0 ? Number(args[nearAt + 1]) : undefined;
if (nearAt >= 0 && !(near >= 0 && rtt > 0)) throw new Error("--near takes a number of milliseconds (0 or more) and goes with --rtt, e.g. --rtt 50 --near 2");
// --accounts N: how many shops the fleet suite seeds (default 2,000).
const accountsAt = args.indexOf("--accounts");
const accounts = accountsAt >= 0 ? Number(args[accountsAt + 1]) : 0;
if (accountsAt >= 0 && !(Number.isInteger(accounts) && accounts > 0)) throw new Error("--accounts takes a whole number of shops, e.g. --accounts 500");
const valueAt = new Set([rttAt, accountsAt, nearAt].filter((i) => i >= 0).flatMap((i) => [i, i + 1]));
const only = args.filter((a, i) => a !== "--profile" && !valueAt.has(i));
const unknown = only.filter((name) => !allSuites.some((s) => s.name === name));
if (unknown.length) throw new Error(`unknown suite ${unknown.join(", ")}: use ${allSuites.map((s) => s.name).join(", ")}`);
const suites = only.length ? allSuites.filter((s) => only.includes(s.name)) : allSuites;
// The load average tells a reader of results.json how much else the machine was doing.
const results = {
  generated_at: new Date().toISOString(),
  rtt_ms: rtt,
  near_ms: rtt ? (near ?? 2) : 0,
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, loadavg_at_start: os.loadavg().map((n) => Number(n.toFixed(2))) },
  figures: [],
  /** Each suite run: how long it took and, when it failed, why. */
  suites: [],
};

/**
 * The last resort for a suite that stops making progress after its server answered (a server
 * that never answers fails at start-up within a minute: bench/bench-worker.mjs). The longest suite
 * takes a few minutes on two busy cores.
 */
const SUITE_TIMEOUT_MS = 30 * 60_000;

/** Runs one suite's process: its stderr passes through as it comes, and its tail is kept for a failure's report. */
function runSuite(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk).slice(-8000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    }, SUITE_TIMEOUT_MS);
    let settled = false;
    const settle = (code, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    };
    child.on("close", settle);
    // A server process the suite left behind may hold its pipes open: its exit is enough, after a grace.
    child.on("exit", (code, signal) => setTimeout(() => settle(code, signal), 5_000).unref());
    child.on("error", (error) => {
      stderr += `\n${error.stack}`;
      settle(null, null);
    });
  });
}

/** A failure's report: the suite's last lines, without the terminal's colours. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes (ESC [ … m)
const COLOURS = /\u001b\[[0-9;]*m/g;
const lastLines = (text, n = 30) => text.replace(COLOURS, "").trim().split("\n").slice(-n).join("\n");

for (const suite of suites) {
  const started = performance.now();
  let failure;
  try {
    let file = suite.script;
    if (suite.entry) {
      file = join(out, `${suite.name}.mjs`);
      await build({ entryPoints: [suite.entry], bundle: true, platform: "node", format: "esm", outfile: file, logLevel: "error", packages: "external" });
    }
    // Node 20 has a WebSocket (for the DevTools protocol) only behind this flag.
    const flags = profile && typeof WebSocket === "undefined" ? ["--experimental-websocket"] : [];
    const run = await runSuite([...flags, file], {
      ...process.env,
      ...(profile ? { BENCH_CPU_PROFILE: "1" } : {}),
      ...(rtt ? { BENCH_RTT_MS: String(rtt) } : {}),
      ...(near !== undefined ? { BENCH_NEAR_MS: String(near) } : {}),
      ...(accounts ? { BENCH_FLEET_ACCOUNTS: String(accounts) } : {}),
    });
    if (run.timedOut) failure = `did not finish within ${SUITE_TIMEOUT_MS / 60_000} min; its last output:\n${lastLines(run.stderr)}`;
    else if (run.code !== 0) failure = `exited with ${run.code ?? run.signal}:\n${lastLines(run.stderr)}`;
    else {
      // A suite's figures are its last line: wrangler's in-process dev server may log lines before it.
      results.figures.push(...JSON.parse(run.stdout.trim().split("\n").at(-1)));
    }
  } catch (error) {
    failure = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  results.suites.push({ name: suite.name, seconds, ...(failure ? { failure } : {}) });
  console.error(`[bench] ${suite.name}: ${failure ? "FAILED" : "done"} in ${seconds} s`);
}

const pad = (s, n) => String(s).padEnd(n);
const withUnit = (f, key) => (f[key] === undefined ? "-" : `${f[key]} ${f.unit}`);
/** A route's waits in sequence, warm and cold (bench/routes.ts), and whether they keep its budget. */
const waitsText = ({ kind, budget, warm, cold }) => {
  const one = (t, w) => `${t} ${w.waits} (${w.d1} d1 + ${w.do} do)${rtt ? ` = ${w.waits * rtt} ms` : ""}`;
  const over = [
    ["warm", warm],
    ["cold", cold],
  ]
    .filter(([, w]) => w.waits > budget)
    .map(([t]) => t);
  return `${one("warm", warm)}, ${one("cold", cold)}${rtt ? ` at ${rtt} ms RTT` : ""}; ${kind} budget ${budget}: ${over.length ? `OVER ${over.join(" and ")}` : "within"}`;
};
const other = (f) =>
  [
    f.route_waits && waitsText(f.route_waits),
    f.slots && `${f.slots} slots`,
    f.bookings_per_s !== undefined && `${f.bookings_per_s} bookings/s`,
    f.rps_ratio !== undefined && `floor req/s ÷ req/s ${f.rps_ratio}`,
    f.d1_round_trips !== undefined && `${f.d1_round_trips} D1 + ${f.do_calls} DO waits${f.rtt_wait_ms !== undefined ? ` = ${f.rtt_wait_ms} ms at ${rtt} ms RTT` : ""}`,
    f.cpu_ms !== undefined && `workerd CPU ${f.cpu_ms} ms per request`,
    f.detail,
  ]
    .filter(Boolean)
    .join(", ");
const width = Math.max(10, ...results.figures.map((f) => f.name.length)) + 1;
console.log(
  `\n${pad("benchmark", width)} ${pad("p50", 11)} ${pad("p95", 11)} ${pad("p99", 11)} ${pad("mean", 11)} ${pad("calls", 6)} ${pad("req/s", 8)} ${pad("x floor", 8)} ${pad("x data floor", 13)} other`,
);
for (const f of results.figures) {
  if (f.check) {
    console.log(`${pad(f.name, width)} ${f.check === "pass" ? "PASS" : "FAIL"}: ${f.detail}`);
    continue;
  }
  console.log(
    `${pad(f.name, width)} ${pad(withUnit(f, "median"), 11)} ${pad(withUnit(f, "p95"), 11)} ${pad(withUnit(f, "p99"), 11)} ` +
      `${pad(withUnit(f, "mean"), 11)} ${pad(f.calls, 6)} ${pad(f.rps ?? "-", 8)} ${pad(f.ratio ?? "-", 8)} ${pad(f.data_floor_ratio ?? "-", 13)} ${other(f)}`,
  );
}
writeFileSync(join(here, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
// A broken invariant is a failed run, not just a line in the table; so is a suite that failed.
if (results.figures.some((f) => f.check && f.check !== "pass")) process.exitCode = 1;
const failed = results.suites.filter((s) => s.failure);
for (const s of failed) console.log(`\nsuite ${s.name} FAILED after ${s.seconds} s: ${s.failure}`);
if (failed.length) process.exitCode = 1;
console.log(
  "\nwritten: bench/results.json. x floor: p50 over the p50 of the same Worker's floor route answering as many bytes," +
    " measured in the same run (target for slots: 1.5 or less). x data floor (cache misses): p50 over the p50 of a route answering" +
    " as many bytes from ONE D1 statement that reads the miss's rows (target: 2 or less). Engine target: under 5 ms per call.",
);
