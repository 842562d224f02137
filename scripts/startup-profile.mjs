// npm run bench:startup [-- --runs N] [-- --top N]: what a fresh isolate pays before its first
// answer. Builds the Worker as a deploy does (`wrangler deploy --dry-run`, no account needed), then
// runs `wrangler check startup` on that one build N times (workerd via Miniflare, offline) and
// reads each .cpuprofile: sampled CPU (every sample but idle), the span, garbage collection, and
// where the CPU went by function and by module of the bundle. The report goes to stderr; stdout's
// last line is the figures' JSON, the protocol of a bench/run.mjs `script` suite.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const wranglerPackage = createRequire(import.meta.url).resolve("wrangler/package.json");
const wranglerBin = path.join(path.dirname(wranglerPackage), JSON.parse(readFileSync(wranglerPackage, "utf8")).bin.wrangler);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
// The machine is shared: one profile is noise, the median of several is the figure.
const runs = option("--runs", 5);
const top = option("--top", 15);
const say = (line = "") => console.error(line);

function wrangler(argv) {
  const run = spawnSync(process.execPath, [wranglerBin, ...argv], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (run.status !== 0) throw new Error(`wrangler ${argv.join(" ")} failed:\n${run.stdout}${run.stderr}`);
}

/** The upload form wrangler writes with --outfile (what `check startup --worker` reads): its modules by name. */
async function modulesOf(bundleFile) {
  const bytes = readFileSync(bundleFile);
  const boundary = bytes.subarray(2, bytes.indexOf(10)).toString().trim();
  const form = await new Response(bytes, { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } }).formData();
  const modules = new Map();
  for (const [name, value] of form) if (typeof value !== "string") modules.set(name, await value.text());
  return modules;
}

/**
 * An unminified build: esbuild heads each input's code with a `// path` comment, so the module of
 * a line is the last one above it.
 */
function lineToModule(text) {
  let current = "(bundle prelude)";
  const modules = text.split("\n").map((line) => {
    const head = /^\/\/ (\S+\.(?:[cm]?[jt]s|json))$/.exec(line);
    if (head) current = head[1];
    return current;
  });
  return (line) => ({ module: modules[line], line });
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A source map's `mappings`, per generated line: [column, source, name, source line] segments in column order. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0,
    sourceLine = 0,
    name = 0;
  for (const line of mappings.split(";")) {
    const segments = [];
    let column = 0;
    for (const text of line ? line.split(",") : []) {
      const fields = [];
      let value = 0,
        shift = 0;
      for (const char of text) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
          continue;
        }
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
      column += fields[0];
      if (fields.length >= 4) {
        source += fields[1];
        sourceLine += fields[2];
      }
      if (fields.length >= 5) name += fields[4];
      segments.push([column, fields.length >= 4 ? source : -1, fields.length >= 5 ? name : -1, sourceLine]);
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * Some packages ship source maps whose sources point outside the package (drizzle-orm's
 * `../../src/…`, a path of its own repository), which the bundle's map then names as
 * `node_modules/src/…`. This finds, among the runtime dependencies, the package whose maps name
 * each such source.
 */
function packagesOfStraySources() {
  const owners = new Map();
  const { dependencies = {} } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  for (const name of Object.keys(dependencies)) {
    const dir = path.join(root, "node_modules", name);
    let files = [];
    try {
      files = readdirSync(dir, { recursive: true }).filter((file) => file.endsWith(".js.map") && !file.includes("node_modules"));
    } catch {
      continue;
    }
    for (const file of files) {
      let sources = [];
      try {
        sources = JSON.parse(readFileSync(path.join(dir, file), "utf8")).sources ?? [];
      } catch {
        continue;
      }
      for (const source of sources) {
        const resolved = path.relative(root, path.resolve(dir, path.dirname(file), source));
        if (!resolved.startsWith(`node_modules${path.sep}${name}${path.sep}`)) owners.set(resolved, name);
      }
    }
  }
  return owners;
}

/**
 * A minified build has no `// path` comments and only a few long lines: its source map (uploaded
 * with the Worker, `upload_source_maps`) names the input of each (line, column), and the source's
 * own name of a renamed function where esbuild records one.
 */
function sourceMapLocator(map) {
  const segmentsOf = decodeMappings(map.mappings);
  // The uploaded map names sources from the project's root (a map of `--outdir`, from its folder).
  let strays;
  const sources = map.sources.map((source) => {
    const absolute = source.startsWith("../") ? path.resolve("/", source.replace(/^(\.\.\/)+/, "")) : path.resolve(root, source);
    const relative = path.relative(root, absolute);
    if (relative.startsWith("..")) return source;
    if (!relative.startsWith(`node_modules${path.sep}src${path.sep}`)) return relative;
    strays ??= packagesOfStraySources();
    const owner = strays.get(relative);
    return owner ? `node_modules/${owner}/(its own map) ${relative.slice("node_modules/".length)}` : relative;
  });
  return (line, column) => {
    const segments = segmentsOf[line] ?? [];
    let low = 0,
      high = segments.length - 1,
      found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (segments[mid][0] <= column) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (found < 0 || segments[found][1] < 0) return { module: "(bundle prelude)" };
    const [, source, name, sourceLine] = segments[found];
    return { module: sources[source], line: sourceLine, name: name >= 0 ? map.names[name] : undefined };
  };
}

/** node_modules/zod/v4/core/api.js → zod; src/… stays a file: the unit a change would defer. */
const packageOf = (module) => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module);
  return match ? match[1] : module;
};

function summarise(profile, modules) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const locators = new Map(
    [...modules]
      .filter(([name]) => !name.endsWith(".map"))
      .map(([name, text]) => {
        const map = modules.get(`${name}.map`);
        return [name, map ? sourceMapLocator(JSON.parse(map)) : lineToModule(text)];
      }),
  );
  const locate = ({ url, lineNumber, columnNumber }) => {
    if (!url) return { module: "(engine)" };
    const script = [...locators.keys()].find((name) => url === name || url.endsWith(`/${name}`));
    if (!script) return { module: url };
    // The bundle's top-level code runs as one frame without a line: module evaluation itself.
    return lineNumber < 0 ? { module: "(module evaluation, top level)" } : locators.get(script)(lineNumber, columnNumber);
  };
  const selfByFunction = new Map();
  const selfByModule = new Map();
  let cpu = 0;
  let gc = 0;
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id);
    const ms = profile.timeDeltas[i] / 1000;
    if (callFrame.functionName === "(idle)") return;
    cpu += ms;
    if (callFrame.functionName === "(garbage collector)") gc += ms;
    const { module, line, name } = locate(callFrame);
    add(selfByFunction, `${name ?? (callFrame.functionName || "(anonymous)")}  ${module}${line >= 0 ? `:${line + 1}` : ""}`, ms);
    add(selfByModule, packageOf(module), ms);
  });
  return { cpu, gc, span: (profile.endTime - profile.startTime) / 1000, selfByFunction, selfByModule };
}

/**
 * What a fresh isolate evaluates: the modules reached from the entry by static imports and
 * requires, not through an `import()` (esbuild makes each of those a lazy initialiser), with their
 * bytes in the bundle as built (minified when wrangler.toml says so).
 */
function evaluatedAtStartUp(meta) {
  const output = Object.values(meta.outputs).find((out) => out.entryPoint);
  const reached = new Set();
  const pending = [output.entryPoint];
  while (pending.length > 0) {
    const input = pending.pop();
    if (reached.has(input) || !meta.inputs[input]) continue;
    reached.add(input);
    for (const { path: next, kind, external } of meta.inputs[input].imports ?? []) {
      if (kind !== "dynamic-import" && !external) pending.push(next);
    }
  }
  const bytes = [...reached].reduce((sum, input) => sum + (output.inputs[input]?.bytesInOutput ?? 0), 0);
  return { modules: reached.size, bytes, total: output.bytes };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round = (ms) => Math.round(ms * 10) / 10;

const work = mkdtempSync(path.join(os.tmpdir(), "startup-"));
try {
  const bundle = path.join(work, "worker.bundle");
  say(
    `building the Worker (wrangler deploy --dry-run), load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  const metafile = path.join(work, "meta.json");
  wrangler(["deploy", "--dry-run", "--outfile", bundle, "--metafile", metafile]);
  const modules = await modulesOf(bundle);
  const eager = evaluatedAtStartUp(JSON.parse(readFileSync(metafile, "utf8")));
  say(
    `evaluated at start-up (reached from the entry without an import()): ${eager.modules} modules, ` +
      `${(eager.bytes / 1024).toFixed(1)} KiB of the bundle's ${(eager.total / 1024).toFixed(1)} KiB`,
  );
  const summaries = [];
  // A profile without one busy sample measured nothing (seen on a loaded machine): it is taken again.
  for (let i = 0, empty = 0; i < runs; i += 1) {
    const outfile = path.join(work, `run-${i}.cpuprofile`);
    wrangler(["check", "startup", "--worker", bundle, "--outfile", outfile]);
    const summary = summarise(JSON.parse(readFileSync(outfile, "utf8")), modules);
    if (summary.cpu === 0 && empty < runs) {
      empty += 1;
      i -= 1;
      say("a profile without samples, taken again");
      continue;
    }
    summaries.push(summary);
    say(`run ${i + 1}/${runs}: ${round(summary.cpu)} ms sampled CPU (GC ${round(summary.gc)} ms), span ${round(summary.span)} ms`);
  }
  const loadavg = os.loadavg().map((n) => Number(n.toFixed(2)));
  const cpu = median(summaries.map((s) => s.cpu));
  const gc = median(summaries.map((s) => s.gc));
  const span = median(summaries.map((s) => s.span));
  // Breakdowns are means over the runs: a function's median self time is mostly 0 or one sample.
  const mean = (key) => {
    const total = new Map();
    for (const s of summaries) for (const [name, ms] of s[key]) total.set(name, (total.get(name) ?? 0) + ms / runs);
    return [...total].sort((a, b) => b[1] - a[1]).slice(0, top);
  };
  say(
    `\nstart-up, median of ${runs}: ${round(cpu)} ms sampled CPU (min ${round(Math.min(...summaries.map((s) => s.cpu)))}, max ${round(Math.max(...summaries.map((s) => s.cpu)))}), ` +
      `GC ${round(gc)} ms, span ${round(span)} ms; load average at the end ${loadavg.join(" ")}`,
  );
  say(`\nself time by package or source file (mean per run, ms):`);
  for (const [name, ms] of mean("selfByModule")) say(`${round(ms).toFixed(1).padStart(7)}  ${name}`);
  say(`\nself time by function (mean per run, ms):`);
  for (const [name, ms] of mean("selfByFunction")) say(`${round(ms).toFixed(1).padStart(7)}  ${name}`);
  console.log(
    JSON.stringify([
      {
        name: "start-up: sampled CPU (wrangler check startup)",
        unit: "ms",
        calls: runs,
        median: round(cpu),
        mean: round(summaries.reduce((sum, s) => sum + s.cpu, 0) / runs),
        // Other work on the machine inflates samples, never shrinks them: the least run is the cleanest.
        min: round(Math.min(...summaries.map((s) => s.cpu))),
        detail:
          `least ${round(Math.min(...summaries.map((s) => s.cpu)))} ms, GC ${round(gc)} ms, span ${round(span)} ms (medians), ` +
          `${eager.modules} modules (${(eager.bytes / 1024).toFixed(1)} KiB) evaluated at start-up, load average ${loadavg.join(" ")}`,
      },
    ]),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
