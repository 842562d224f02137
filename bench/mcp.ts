// `npm run bench -- mcp`: assistants booking through the MCP endpoint (issue 24) on many small
// shops, beside visitors walking the same shops' REST routes. Each assistant is a new client: the
// stateless handshake (initialize, initialized, tools/list) and then list_services,
// find_available_dates over a month and find_times of a day, each a tools/call; the REST visitor
// asks the same three questions. Who goes first on a shop is drawn, so neither gets the other's
// cached answers more often. Per kind: latency, workerd CPU, cache hits; each tool call against its
// REST twin; and the first MCP request of a fresh isolate, which loads the SDK.
import os from "node:os";
import { endOfMonth, todayIn } from "../src/domain/time";
import { fleetClient, type Answer, type Ask } from "./fleet-client";
import { seedFleet } from "./fleet-seed";
import { round, type Figure } from "./load";
import { log } from "./suite";
import { cpuNanos, workerdProcesses } from "./workerd-cpu";
import { withBenchServer } from "./wrangler-dev";
import { pick, seededRandom, zipf } from "./zipf";

const ACCOUNTS = Number(process.env.BENCH_FLEET_ACCOUNTS ?? 500);
const SECONDS = Number(process.env.BENCH_MCP_SECONDS ?? 30);
const WARMUP_SECONDS = 5;
const SEED = 24;

const KINDS = {
  initialize: "MCP initialize (stateless handshake)",
  initialized: "MCP notifications/initialized (202)",
  list: "MCP tools/list",
  services: "MCP tools/call list_services",
  dates: "MCP tools/call find_available_dates, a month",
  times: "MCP tools/call find_times, one day",
  restServices: "REST GET /services (booking site)",
  restDates: "REST GET available_dates, a month (booking site)",
  restSlots: "REST GET slots, one day (booking site)",
} as const;
type Kind = keyof typeof KINDS;
/** Each tool call and the REST read that asks the same question. */
const TWINS: [Kind, Kind][] = [
  ["services", "restServices"],
  ["dates", "restDates"],
  ["times", "restSlots"],
];

const MCP_HEADERS = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

interface Tally {
  latencies: number[];
  cpuNs: number[];
  hits: number;
  misses: number;
}
const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
const quantile = (list: number[], q: number) => sorted(list)[Math.min(list.length - 1, Math.floor(q * list.length))];
const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;

const now = Date.now();
const random = seededRandom(SEED);
const fleet = seedFleet(random, ACCOUNTS, now);
const draw = zipf(random, ACCOUNTS, 1.0);

const figures = await withBenchServer(
  "mcp",
  fleet.sql,
  async (server) => {
    const workerd = workerdProcesses();
    const client = fleetClient(server.port, () => cpuNanos(workerd));
    const tallies = new Map<Kind, Tally>();
    let measuring = false;
    let sessions = 0;
    let rpcId = 0;

    async function send(kind: Kind, ask: Ask, ok = (a: Answer) => a.status === 200): Promise<Answer> {
      const answer = await client.send(ask);
      if (!ok(answer)) throw new Error(`${KINDS[kind]} on ${ask.host}: ${answer.status} ${answer.text.slice(0, 300)}`);
      if (measuring) {
        const t = tallies.get(kind) ?? tallies.set(kind, { latencies: [], cpuNs: [], hits: 0, misses: 0 }).get(kind)!;
        t.latencies.push(answer.latencyMs);
        t.cpuNs.push(answer.cpuNs);
        const cache = /cache;desc="(hit|miss)"/.exec(answer.serverTiming)?.[1];
        if (cache === "hit") t.hits += 1;
        if (cache === "miss") t.misses += 1;
      }
      return answer;
    }

    const rpc = (kind: Kind, site: { host: string; ip: string }, method: string, params?: unknown) =>
      send(kind, { method: "POST", path: "/mcp", ...site, headers: MCP_HEADERS, body: { jsonrpc: "2.0", id: ++rpcId, method, ...(params ? { params } : {}) } });

    async function tool(kind: Kind, site: { host: string; ip: string }, name: string, args: Record<string, unknown>) {
      const answer = await rpc(kind, site, "tools/call", { name, arguments: args });
      const result = (JSON.parse(answer.text) as { result?: { isError?: boolean; structuredContent?: any; content?: { text: string }[] } }).result;
      if (!result || result.isError) throw new Error(`${name}: ${answer.text.slice(0, 300)}`);
      return result.structuredContent;
    }

    /** An assistant's session on a shop: the handshake, then the three questions a booking starts with. */
    async function assistant(site: { host: string; ip: string }, serviceId: number, month: string, day: () => string) {
      await rpc("initialize", site, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-assistant", version: "1.0" } });
      await send(
        "initialized",
        { method: "POST", path: "/mcp", ...site, headers: MCP_HEADERS, body: { jsonrpc: "2.0", method: "notifications/initialized" } },
        (a) => a.status === 202,
      );
      await rpc("list", site, "tools/list");
      await tool("services", site, "list_services", {});
      const { dates } = await tool("dates", site, "find_available_dates", { service_id: serviceId, from: `${month}-01`, to: endOfMonth(`${month}-01`) });
      await tool("times", site, "find_times", { service_id: serviceId, from: dates[0] ?? day() });
    }

    /** A widget's visitor asking the same three questions of the REST routes. */
    async function visitor(site: { host: string; ip: string }, serviceId: number, month: string, day: () => string) {
      const get = (kind: Kind, path: string) => send(kind, { method: "GET", path, ...site });
      await get("restServices", "/services");
      const dates = await get("restDates", `/services/${serviceId}/available_dates?from=${month}-01&to=${endOfMonth(`${month}-01`)}`);
      const first = (JSON.parse(dates.text) as { available_date: { date: string } }[])[0]?.available_date.date ?? day();
      await get("restSlots", `/services/${serviceId}/slots?from=${first}&to=${first}`);
    }

    async function session() {
      sessions += 1;
      const shop = fleet.accounts[draw() - 1];
      const host = `${shop.subdomain}.localhost`;
      // Each client its own address, as assistants and visitors come from many places.
      const ip = (offset: number) => `10.${offset}.${(sessions >> 8) & 255}.${sessions & 255}`;
      const serviceId = pick(random, shop.services).id;
      const month = todayIn(Date.now(), shop.timeZone).slice(0, 7);
      const day = () => todayIn(Date.now() + 86_400_000, shop.timeZone);
      const runs = [() => assistant({ host, ip: ip(1) }, serviceId, month, day), () => visitor({ host, ip: ip(2) }, serviceId, month, day)];
      if (random() < 0.5) runs.reverse();
      for (const run of runs) await run();
    }

    // The first MCP requests this isolate serves: initialize loads the MCP feature and the SDK's
    // modules; the first tools/list converts the site's tool schemas to JSON Schema.
    const firstShop = fleet.accounts[0];
    const firstSite = { host: `${firstShop.subdomain}.localhost`, ip: "10.250.0.1" };
    const bare = (id: number, method: string, params?: unknown) =>
      client.send({ method: "POST", path: "/mcp", ...firstSite, headers: MCP_HEADERS, body: { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) } });
    await client.send({ method: "GET", path: "/services", ...firstSite });
    const coldInitialize = await bare(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-assistant", version: "1.0" } });
    const coldList = await bare(1, "tools/list");
    const warmList = await bare(2, "tools/list");
    for (const answer of [coldInitialize, coldList, warmList])
      if (answer.status !== 200) throw new Error(`first MCP requests: ${answer.status} ${answer.text.slice(0, 300)}`);
    const ms = (a: Answer) => `${round(a.latencyMs)} ms (${round(a.cpuNs / 1e6)} ms CPU)`;
    log("mcp", `first initialize of the isolate ${ms(coldInitialize)}, first tools/list ${ms(coldList)}, the next ${ms(warmList)}`);

    const loadAtStart = os.loadavg();
    for (const [phase, seconds] of [
      ["warm-up", WARMUP_SECONDS],
      ["measured", SECONDS],
    ] as const) {
      measuring = phase === "measured";
      const until = performance.now() + seconds * 1000;
      while (performance.now() < until) await session();
      log("mcp", `${phase}: ${sessions} sessions so far`);
    }
    client.close();

    const figure = (kind: Kind): Figure => {
      const t = tallies.get(kind)!;
      const hits = t.hits + t.misses ? `, cache hits ${Math.round((t.hits / (t.hits + t.misses)) * 100)}%` : "";
      return {
        name: `mcp: ${KINDS[kind]}`,
        unit: "ms",
        calls: t.latencies.length,
        median: round(quantile(t.latencies, 0.5)),
        p95: round(quantile(t.latencies, 0.95)),
        p99: round(quantile(t.latencies, 0.99)),
        mean: round(mean(t.latencies)),
        detail: `${round(mean(t.cpuNs) / 1e6)} ms CPU/req (p50 ${round(quantile(t.cpuNs, 0.5) / 1e6)})${hits}`,
      };
    };
    const out: Figure[] = [];
    for (const kind of ["initialize", "initialized", "list"] as Kind[]) out.push(figure(kind));
    for (const [toolKind, restKind] of TWINS) {
      const tool = figure(toolKind);
      const rest = figure(restKind);
      tool.detail += `; × its REST twin: p50 ${round(tool.median! / rest.median!)}, CPU ${round(mean(tallies.get(toolKind)!.cpuNs) / mean(tallies.get(restKind)!.cpuNs))}`;
      out.push(tool, rest);
    }
    const sessionMs = ["initialize", "initialized", "list", "services", "dates", "times"].map((k) => mean(tallies.get(k as Kind)!.latencies)).reduce((a, b) => a + b, 0);
    const visit = ["restServices", "restDates", "restSlots"].map((k) => mean(tallies.get(k as Kind)!.latencies)).reduce((a, b) => a + b, 0);
    out.push({
      name: "mcp: first initialize of a fresh isolate (loads the SDK)",
      unit: "ms",
      calls: 1,
      median: round(coldInitialize.latencyMs),
      detail: `${round(coldInitialize.cpuNs / 1e6)} ms CPU; then the isolate's first tools/list ${ms(coldList)}, its second ${ms(warmList)}`,
    });
    out.push({
      name: "mcp: an assistant's session, handshake and three calls (sum of means)",
      unit: "ms",
      calls: sessions,
      mean: round(sessionMs),
      detail: `the REST visitor's three reads ${round(visit)} ms; ${sessions} sessions over ${ACCOUNTS} shops (Zipf s=1); load average ${loadAtStart.map((n) => n.toFixed(2)).join(" ")} at start, ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")} at end`,
    });
    return out;
  },
  { limits: "production" },
);

process.stdout.write(JSON.stringify(figures));
