// Rate limit benchmark: the same public request against two local `wrangler dev` servers on one
// D1 state, the production entry and a build without the limiter; prints figures as JSON.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { emptyEnvFile, waitForServer } from "./bench-worker.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const ADMIN_TOKEN = "bench-admin-token";
const USER_AGENT = "booking-bench/1.0";
const SUBDOMAIN = "bench";
const LATENCY_MS = 20_000;
const CONNECTIONS = 8;
const WARMUP_MS = 1_500;
const THROUGHPUT_ROUND_MS = 3_000;
const THROUGHPUT_ROUNDS = 2;
const log = (...args) => console.error("[rate-limit bench]", ...args);

/**
 * Both servers run wrangler.toml itself (bench/bench-worker.mjs); the one without the limiter only
 * has another entry and, so that the two keep their Durable Objects apart, another name.
 */
const CONFIG = join(root, "wrangler.toml");
const NO_LIMITER = { entry: join(here, "no-limiter-worker.ts"), name: "booking-bench-no-limiter" };
/** A request of the benchmark that takes this long means the server stopped answering. */
const REQUEST_TIMEOUT_MS = 60_000;

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const servers = [];
/** `worker`: another entry and name on wrangler.toml; the production Worker when absent. */
function startServer(worker, persistTo, port) {
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };
  return freePort().then((inspectorPort) => {
    const child = spawn(
      "npx",
      [
        "wrangler",
        "dev",
        ...(worker ? [worker.entry, "--name", worker.name] : []),
        "-c",
        CONFIG,
        "--env-file",
        emptyEnvFile(root),
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--inspector-port",
        String(inspectorPort),
        "--persist-to",
        persistTo,
        // A budget no benchmark reaches: the limiter still runs in full on every request.
        "--var",
        `ADMIN_TOKEN:${ADMIN_TOKEN}`,
        "--var",
        "RATE_LIMIT_REQUESTS:1000000000",
      ],
      { cwd: root, env, detached: true, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    servers.push(child);
    return { port, child, stderr: () => stderr, label: worker ? worker.name : "the production Worker" };
  });
}

/** Each server runs in its own process group, so npx, wrangler and workerd stop together. */
function signalServers(signal) {
  for (const child of servers) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
}

async function stopServers() {
  signalServers("SIGTERM");
  const exited = servers.map((child) =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve)),
  );
  await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 5_000))]);
  signalServers("SIGKILL");
}
// Last resort when the suite dies early: nothing may keep listening after the benchmark.
process.on("exit", () => signalServers("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(1));

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS * 2 });
function request(port, { method = "GET", path, host = "127.0.0.1", headers = {}, body, signal }) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        signal,
        headers: {
          host: `${host}:${port}`,
          "user-agent": USER_AGENT,
          ...(body ? { "content-type": "application/json" } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`${method} ${path} on port ${port}: no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const waitUntilUp = (server) =>
  waitForServer({
    what: `${server.label} (wrangler dev on port ${server.port})`,
    probe: async (signal) => (await request(server.port, { path: "/admin/v1/accounts", headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, signal })).status === 200,
    output: server.stderr,
    exited: () => server.child.exitCode !== null,
  });

async function must(promise, what) {
  const res = await promise;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return JSON.parse(res.text);
}

async function seedAccount(port) {
  const { api_key: key } = await must(
    request(port, {
      method: "POST",
      path: "/admin/v1/accounts",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { account: { subdomain: SUBDOMAIN, name: "Bench", email: "bench@example.com", time_zone: "Europe/Oslo", country_code: "NO", locale: "en" } },
    }),
    "creating the bench account",
  );
  for (const title of ["Haircut", "Colour", "Beard trim", "Yoga", "Massage"]) {
    await must(
      request(port, {
        method: "POST",
        path: "/api/v1/services",
        headers: { authorization: `Bearer ${key}` },
        body: { service: { title, price: 450, interval: 30 } },
      }),
      `creating service ${title}`,
    );
  }
}

const publicGet = (port, ip) =>
  request(port, { path: "/services", host: `${SUBDOMAIN}.localhost`, headers: { "cf-connecting-ip": ip } }).then((res) => {
    if (res.status !== 200) throw new Error(`GET /services answered ${res.status}: ${res.text}`);
  });

/**
 * Latency: one client alternating request by request between the two servers, so whatever
 * else loads the machine at a moment lands on both sides alike.
 */
async function pairedLatency(ports, durationMs) {
  const latencies = { with: [], without: [] };
  const deadline = performance.now() + durationMs;
  while (performance.now() < deadline) {
    for (const side of ["with", "without"]) {
      const t = performance.now();
      await publicGet(ports[side], "203.0.113.1");
      latencies[side].push(performance.now() - t);
    }
  }
  return latencies;
}

/** Throughput: CONNECTIONS closed loops on one server, each client with its own address (its own limiter). */
async function throughput(port, durationMs) {
  let calls = 0;
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      while (performance.now() < deadline) {
        await publicGet(port, `203.0.113.${i + 10}`);
        calls += 1;
      }
    }),
  );
  return { calls, seconds: (performance.now() - started) / 1000 };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const round = (n, digits = 2) => Number(n.toFixed(digits));
function summarise(name, latencies, runs) {
  const sorted = latencies.slice().sort((a, b) => a - b);
  return {
    name,
    unit: "ms",
    calls: sorted.length,
    median: round(quantile(sorted, 0.5)),
    p95: round(quantile(sorted, 0.95)),
    p99: round(quantile(sorted, 0.99)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    rps: Math.round(runs.reduce((n, r) => n + r.calls, 0) / runs.reduce((t, r) => t + r.seconds, 0)),
  };
}

const persistTo = mkdtempSync(join(os.tmpdir(), "booking-bench-"));
try {
  const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
    encoding: "utf8",
  });
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);

  const [withPort, withoutPort] = [await freePort(), await freePort()];
  log(`starting wrangler dev on ports ${withPort} (with limiter) and ${withoutPort} (without)`);
  const withLimiter = await startServer(undefined, persistTo, withPort);
  const withoutLimiter = await startServer(NO_LIMITER, persistTo, withoutPort);
  await Promise.all([waitUntilUp(withLimiter), waitUntilUp(withoutLimiter)]);

  await seedAccount(withPort);
  const probe = (port, ip) => request(port, { path: "/services", host: `${SUBDOMAIN}.localhost`, headers: { "cf-connecting-ip": ip } });
  const [first, second, otherIp] = [await probe(withPort, "192.0.2.1"), await probe(withPort, "192.0.2.1"), await probe(withPort, "192.0.2.2")];
  const bare = await probe(withoutPort, "192.0.2.1");
  if (!first.headers["ratelimit-limit"] || bare.headers["ratelimit-limit"] || first.text !== bare.text) {
    throw new Error("the two servers must answer the same body, only one with RateLimit headers");
  }
  // wrangler dev passes CF-Connecting-IP through, so each simulated client has its own limiter.
  const remaining = (res) => Number(res.headers["ratelimit-remaining"]);
  if (remaining(second) !== remaining(first) - 1 || remaining(otherIp) !== remaining(first)) {
    throw new Error("CF-Connecting-IP did not select the limiter: the figures would not mean what they say");
  }

  const ports = { with: withPort, without: withoutPort };
  for (const side of ["with", "without"]) await throughput(ports[side], WARMUP_MS);
  const latencies = await pairedLatency(ports, LATENCY_MS);
  log("latency phase done");
  const runs = { with: [], without: [] };
  // Alternating the order each round spreads drift over both sides.
  for (let r = 0; r < THROUGHPUT_ROUNDS; r += 1) {
    for (const side of r % 2 === 0 ? ["with", "without"] : ["without", "with"]) {
      runs[side].push(await throughput(ports[side], THROUGHPUT_ROUND_MS));
    }
  }
  log("throughput phase done");

  const endpoint = "GET /services (public site)";
  const withFigure = summarise(`rate limit: ${endpoint}, with limiter`, latencies.with, runs.with);
  const withoutFigure = summarise(`rate limit: ${endpoint}, without`, latencies.without, runs.without);
  const ratio = (key) => round(withFigure[key] / withoutFigure[key]);
  const figures = [
    withoutFigure,
    withFigure,
    {
      name: "rate limit: latency ratio with / without",
      unit: "x",
      calls: withFigure.calls + withoutFigure.calls,
      median: ratio("median"),
      p95: ratio("p95"),
      p99: ratio("p99"),
      mean: ratio("mean"),
      rps: ratio("rps"),
    },
    {
      name: "rate limit: added latency per request",
      unit: "ms",
      calls: withFigure.calls,
      median: round(withFigure.median - withoutFigure.median),
      p95: round(withFigure.p95 - withoutFigure.p95),
      p99: round(withFigure.p99 - withoutFigure.p99),
      mean: round(withFigure.mean - withoutFigure.mean),
    },
  ];
  process.stdout.write(JSON.stringify(figures));
} finally {
  agent.destroy();
  await stopServers();
  rmSync(persistTo, { recursive: true, force: true });
}
