// npm run bench: builds each benchmark with esbuild, runs it in its own Node process, prints a
// table and writes bench/results.json. Figures are measured in the same run, never asserted.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, ".build");
mkdirSync(out, { recursive: true });

// `entry` suites are TypeScript bundled for Node; `script` suites run as they are (they start
// servers of their own). `npm run bench -- rate-limit` runs only the named suites.
const allSuites = [
  { name: "engine", entry: join(here, "engine.ts") },
  { name: "slots", entry: join(here, "slots-http.ts") },
  { name: "lists", entry: join(here, "lists-http.ts") },
  { name: "rate-limit", script: join(here, "rate-limit.mjs") },
];
const only = process.argv.slice(2);
const suites = only.length ? allSuites.filter((s) => only.includes(s.name)) : allSuites;
const results = { generated_at: new Date().toISOString(), machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version }, figures: [] };

for (const suite of suites) {
  let file = suite.script;
  if (suite.entry) {
    file = join(out, `${suite.name}.mjs`);
    await build({ entryPoints: [suite.entry], bundle: true, platform: "node", format: "esm", outfile: file, logLevel: "error", packages: "external" });
  }
  const figures = JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] }));
  results.figures.push(...figures);
}

const pad = (s, n) => String(s).padEnd(n);
const extra = (f) => [f.slots && `${f.slots} slots`, f.p99 !== undefined && `p99 ${f.p99} ${f.unit}`, f.rps !== undefined && (f.unit === "x" ? `req/s ${f.rps} x` : `${f.rps} req/s`)].filter(Boolean).join(", ");
console.log(`\n${pad("benchmark", 72)} ${pad("median", 10)} ${pad("p95", 10)} ${pad("mean", 10)} ${pad("calls", 6)} other`);
for (const f of results.figures) {
  console.log(`${pad(f.name, 72)} ${pad(`${f.median} ${f.unit}`, 10)} ${pad(`${f.p95} ${f.unit}`, 10)} ${pad(`${f.mean} ${f.unit}`, 10)} ${pad(f.calls, 6)} ${extra(f)}`);
}
writeFileSync(join(here, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwritten: bench/results.json (target: engine under 5 ms per call, the Workers free-plan CPU budget is 10 ms)`);
