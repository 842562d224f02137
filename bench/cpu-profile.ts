// A CPU profile of the bench Worker taken through wrangler dev's DevTools endpoint while a load
// runs, summarised by function: how the slowest path's cause is named rather than guessed.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

// Beside the bundled suite: bench/.build/profiles, ignored by git.
const profilesDir = join(dirname(fileURLToPath(import.meta.url)), "profiles");

/** Node 20 has WebSocket only behind --experimental-websocket, which bench/run.mjs passes when profiling. */
async function devtools(inspectorPort: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  // The inspector proxy refuses a socket without a loopback Origin; Node's (undici's) WebSocket takes headers.
  const init = { headers: { origin: "http://127.0.0.1" } } as unknown as string;
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl, init);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      next += 1;
      pending.set(next, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  return { send, close: () => socket.close() };
}

/**
 * The running server's bundle (wrangler dev writes it under .wrangler/tmp beside wrangler.toml), so an
 * anonymous frame can be named after the declaration it sits in: V8 inlines Drizzle's row mapping
 * into arrow functions, which would otherwise hide it.
 */
function newestBundle(): string | undefined {
  // Bundled into bench/.build/, so the repository is two levels up from the running file.
  const tmp = join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".wrangler", "tmp");
  if (!existsSync(tmp)) return undefined;
  return readdirSync(tmp)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => join(tmp, d, "floor-worker.js"))
    .filter((f) => existsSync(f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

function declarationsOfBundle(): string[] {
  const newest = newestBundle();
  if (!newest) return [];
  // Top-level functions and vars, and class members at two spaces: nested consts would mislead.
  const declaration =
    /^(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(|^(?:var|let|const)\s+([\w$]+)\s*=|^ {2}(?!(?:if|for|while|switch|catch|return|else)\b)(?:async\s+|static\s+)?(#?[\w$]+)\s*(?:\([^)]*\)\s*\{|=)/;
  let last = "";
  return readFileSync(newest, "utf8")
    .split("\n")
    .map((line) => {
      const match = declaration.exec(line);
      if (match) last = match[1] ?? match[2] ?? match[3];
      return last;
    });
}

/**
 * Where busy time went, by the nearest landmark on the stack (leaf first): a frame of the engine,
 * of Drizzle, of the D1 client or of a serialiser. Function names, not lines: the dev bundle's
 * lines move between builds.
 */
const LANDMARKS: [string, (fn: string, url: string) => boolean][] = [
  ["availability engine (computeSlots)", (fn) => fn === "computeSlots" || fn === "nextAvailableDate" || fn === "availableDates"],
  ["D1 client: decoding results (workerd's d1-api)", (_fn, url) => url.includes("d1-api")],
  ["Drizzle: rows to objects", (fn) => ["mapAllResult", "mapResult", "mapResultRow", "d1ToRawMapping", "mapRelationalRow"].includes(fn)],
  [
    "Drizzle: client per request, query building",
    (fn) =>
      [
        "drizzle",
        "extractTablesRelationalConfig",
        "buildSelectQuery",
        "buildQueryFromSourceParams",
        "sqlToQuery",
        "_prepare",
        "prepareQuery",
        "sql",
        "_SQL",
        "orderSelectedFields",
      ].includes(fn),
  ],
  ["serialisers (to*Json, timestamps in the account zone)", (fn) => /^to\w*Json$/.test(fn) || fn === "timestampsOut" || fn === "formatInstant"],
  ["serialising the answer (c.json)", (fn) => fn === "json"],
  ["rate limiter object", (fn) => fn === "hit" || fn === "#forgetBefore"],
  ["zod (request validation)", (fn) => fn.includes("_zod") || fn === "safeParseAsync" || fn === "parseAsync"],
  ["capacity guard object (its D1 batch)", (fn) => fn === "applyBatch"],
  ["request log line (console.log; dearer with the inspector)", (fn) => fn === "requestLog"],
  ["Durable Object stubs (metered proxy, getByName)", (fn) => fn === "meteredNamespace" || fn === "getByName"],
  ["Hono routing", (fn) => fn === "match" || fn === "search"],
];

/** Busy (non-idle) time by landmark, and the largest self times. */
function summarise(profile: Profile, declarations: string[]) {
  const named = ({ functionName, url, lineNumber }: ProfileNode["callFrame"]) =>
    functionName || (url === "floor-worker.js" && declarations[lineNumber] ? `(in ${declarations[lineNumber]})` : "");
  const inside = (frame: ProfileNode["callFrame"]) => named(frame).replace(/^\(in (.*)\)$/, "$1");
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const areas = new Map<string, number>();
  const self = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === "(idle)") {
      idle += micros;
      return;
    }
    busy += micros;
    const name = `${named(leaf) || "(anonymous)"} ${leaf.url ? `${leaf.url.split("/").pop()}:${leaf.lineNumber + 1}` : "native"}`;
    self.set(name, (self.get(name) ?? 0) + micros);
    let area = "everything else (Hono, zod, middleware, runtime)";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const hit = LANDMARKS.find(([, test]) => test(inside(frame), frame.url));
      if (hit) {
        area = hit[0];
        break;
      }
    }
    areas.set(area, (areas.get(area) ?? 0) + micros);
  });
  const share = (entries: Map<string, number>, top: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
  return { busyMs: busy / 1000, idleMs: idle / 1000, areas: share(areas, 10), self: share(self, 6) };
}

/** Profiles the Worker while `load` runs; writes the .cpuprofile and returns a short summary. */
export async function profileWhile(inspectorPort: number, slug: string, load: () => Promise<{ latencies: number[] }>) {
  const tools = await devtools(inspectorPort);
  try {
    await tools.send("Profiler.enable");
    await tools.send("Profiler.setSamplingInterval", { interval: 100 });
    await tools.send("Profiler.start");
    const { latencies } = await load();
    const { profile } = await tools.send<{ profile: Profile }>("Profiler.stop");
    mkdirSync(profilesDir, { recursive: true });
    const file = join(profilesDir, `${slug}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    // The bundle the profile's lines point into: wrangler dev deletes its copy when it stops.
    const bundle = newestBundle();
    if (bundle) copyFileSync(bundle, join(profilesDir, `${slug}.bundle.js`));
    const summary = summarise(profile, declarationsOfBundle());
    return [
      `${slug}: ${latencies.length} requests, Worker busy ${(summary.busyMs / latencies.length).toFixed(1)} ms per request` +
        ` (idle, i.e. waiting on D1 or the network, ${(summary.idleMs / latencies.length).toFixed(1)} ms). Busy time by area:`,
      ...summary.areas,
      "largest self times:",
      ...summary.self,
      `profile: ${file} (open in Chrome DevTools, Performance tab)`,
    ].join("\n");
  } finally {
    tools.close();
  }
}
