// A real `wrangler dev` on loopback for the HTTP benchmarks: a fresh --persist-to directory with the
// migrations applied and seed SQL loaded, the floor entry on wrangler.toml, and a stop that always runs.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { d1Databases } from "../scripts/d1-databases.mjs";
import { emptyEnvFile, waitForServer } from "./bench-worker.mjs";

// Bundled into bench/.build/, so the repository is two levels up from the running file.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const ADMIN_TOKEN = "bench-admin-token";
export const USER_AGENT = "booking-bench/1.0";
const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };

/**
 * The bench Worker is wrangler.toml itself with the floor entry and a name of its own given on top
 * (bench/bench-worker.mjs): its aliases, bindings and migrations are the product's, never a copy.
 */
const config = join(root, "wrangler.toml");
const FLOOR_ENTRY = join(root, "bench", "floor-worker.ts");
const FLOOR_NAME = "booking-bench-floor";
// Unminified: --profile names the Worker's functions (cpu-profile.ts), which minifying renames;
// the code run is the same (start-up is measured on the minified build: npm run bench:startup).
const FLOOR_MINIFY = false;

function wrangler(args: string[], what: string): string {
  const run = spawnSync("npx", ["wrangler", ...args], { cwd: root, env: wranglerEnv, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${what} failed: ${run.stderr || run.stdout}`);
  return run.stdout;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

interface BenchResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface BenchServer {
  port: number;
  /** wrangler's DevTools endpoint for the Worker: how a CPU profile of a route is taken. */
  inspectorPort: number;
  request(path: string, init?: { method?: string; key?: string; body?: unknown }): Promise<BenchResponse>;
  /** SELECT against the server's local D1 (a shard's, DB by default), read from the SQLite file by wrangler itself. */
  query<T>(sql: string, shard?: string): T[];
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
/** Each server runs in its own process group, so npx, wrangler and workerd stop together. */
function signal(child: ChildProcess, name: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, name);
  } catch {
    /* already gone */
  }
}
// Last resort when a suite dies early: nothing may keep listening after the benchmark.
process.on("exit", () => {
  for (const child of children) signal(child, "SIGKILL");
});
for (const name of ["SIGINT", "SIGTERM"] as const) process.on(name, () => process.exit(1));

async function stopChild(child: ChildProcess) {
  if (!children.delete(child)) return;
  signal(child, "SIGTERM");
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  signal(child, "SIGKILL");
}

/** The shards wrangler.toml binds (docs/scaling.md); each gets the migrations. */
const SHARDS = d1Databases(join(root, "wrangler.toml")).map((db) => db.binding);

/**
 * Runs `work` against a fresh server seeded with `seedSql` (on DB, or per shard); the server is
 * stopped and its state removed afterwards, also when `work` throws. Seeding is not part of any figure.
 */
export async function withBenchServer<T>(
  label: string,
  seedSql: string | Record<string, string>,
  work: (server: BenchServer) => Promise<T>,
  /** `limits: "production"` keeps wrangler.toml's rate limits (the fleet suite's visitors stay within them). */
  /** `vars`: more plain-text bindings (the writes suite's Stripe stand-in). */
  options: { limits?: "production"; vars?: Record<string, string> } = {},
): Promise<T> {
  const persistTo = mkdtempSync(join(os.tmpdir(), `booking-bench-${label}-`));
  let child: ChildProcess | undefined;
  let disposeLast: (() => Promise<void>) | undefined;
  let restoreConsole = () => {};
  try {
    for (const shard of SHARDS) wrangler(["d1", "migrations", "apply", shard, "--local", "--persist-to", persistTo, "-c", config], "migrations");
    for (const [shard, sql] of Object.entries(typeof seedSql === "string" ? { DB: seedSql } : seedSql)) {
      const seedFile = join(persistTo, `seed-${shard}.sql`);
      writeFileSync(seedFile, sql);
      wrangler(["d1", "execute", shard, "--local", "--persist-to", persistTo, "-c", config, "--file", seedFile], "seeding");
    }

    const [port, inspectorPort] = [await freePort(), await freePort()];
    const vars: Record<string, string> = {
      ADMIN_TOKEN,
      ...(options.limits === "production"
        ? {}
        : {
            // A budget no benchmark reaches: the limiter still runs in full on every request.
            RATE_LIMIT_REQUESTS: "1000000000",
            // The per-key budget too: one bench key sends thousands of requests a second.
            RATE_LIMIT_KEY_REQUESTS: "1000000000",
          }),
      // `--rtt N` (bench/rtt.ts): the floor entry delays every D1 and Durable Object call.
      ...(process.env.BENCH_RTT_MS ? { BENCH_RTT_MS: process.env.BENCH_RTT_MS } : {}),
      ...(process.env.BENCH_NEAR_MS ? { BENCH_NEAR_MS: process.env.BENCH_NEAR_MS } : {}),
      // The shards suite: each shard's database takes one write at a time (bench/single-writer.ts).
      ...(process.env.BENCH_D1_WRITE_MS ? { BENCH_D1_WRITE_MS: process.env.BENCH_D1_WRITE_MS } : {}),
      ...options.vars,
    };
    let stderr = "";
    let stopServer: () => Promise<void>;
    let exited = () => false;
    let failed = false;
    let proxyReady = () => true;
    if (process.env.BENCH_CPU_PROFILE) {
      // Profiling needs the DevTools inspector, which only the CLI's `wrangler dev` keeps open here.
      const started = spawn(
        "npx",
        [
          "wrangler",
          "dev",
          FLOOR_ENTRY,
          "-c",
          config,
          "--name",
          FLOOR_NAME,
          `--minify=${FLOOR_MINIFY}`,
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
          ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
        ],
        { cwd: root, env: wranglerEnv, detached: true, stdio: ["ignore", "ignore", "pipe"] },
      );
      child = started;
      children.add(started);
      started.stderr!.on("data", (chunk) => {
        stderr = (stderr + chunk).slice(-8000);
      });
      stopServer = () => stopChild(started);
      exited = () => started.exitCode !== null;
    } else {
      // Without the inspector: `wrangler dev` keeps DevTools attached, and its network events cost
      // about two thirds of the Worker's CPU per D1 call, which is not the product's cost (issue 9).
      process.env.WRANGLER_SEND_METRICS = "false";
      const { unstable_startWorker } = await import("wrangler");
      // wrangler reports a failed build on the console (and keeps its proxy waiting for a good one):
      // what it says while the server starts is kept for the error that ends the suite.
      const consoleError = console.error;
      console.error = (...args: unknown[]) => {
        stderr = (stderr + args.map(String).join(" ") + "\n").slice(-8000);
        consoleError(...args);
      };
      restoreConsole = () => {
        console.error = consoleError;
      };
      const worker = await unstable_startWorker({
        config,
        entrypoint: FLOOR_ENTRY,
        name: FLOOR_NAME,
        envFiles: [emptyEnvFile(root)],
        build: { minify: FLOOR_MINIFY },
        dev: { server: { hostname: "127.0.0.1", port }, inspector: false, persist: persistTo, watch: false, logLevel: "error" },
        bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }])),
      });
      let disposed = false;
      stopServer = async () => {
        if (!disposed) {
          disposed = true;
          await worker.dispose();
        }
      };
      disposeLast = stopServer;
      let ready = false;
      worker.ready.then(
        () => {
          ready = true;
        },
        (error: unknown) => {
          stderr += `\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
          failed = true;
        },
      );
      exited = () => failed;
      proxyReady = () => ready;
    }

    const request = async (path: string, init: { method?: string; key?: string; body?: unknown; signal?: AbortSignal } = {}) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        signal: init.signal,
        method: init.method ?? "GET",
        headers: {
          "user-agent": USER_AGENT,
          ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
          ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };

    try {
      await waitForServer({
        what: `the ${label} suite's Worker (wrangler dev on port ${port})`,
        probe: async (signal) => proxyReady() && (await request("/admin/v1/accounts", { key: ADMIN_TOKEN, signal })).status === 200,
        output: () => stderr,
        exited,
      });
    } finally {
      restoreConsole();
    }

    return await work({
      port,
      inspectorPort,
      request,
      query: <R>(sql: string, shard = "DB") => {
        const out = wrangler(["d1", "execute", shard, "--local", "--persist-to", persistTo, "-c", config, "--json", "--command", sql], "query");
        return (JSON.parse(out) as { results: R[] }[])[0].results;
      },
      stop: () => stopServer(),
    });
  } finally {
    restoreConsole();
    if (child) await stopChild(child);
    if (disposeLast) await disposeLast();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
