// The Worker's start-up cost as a new isolate pays it: `wrangler check startup` builds the
// production Worker (src/index.ts, as a deploy would) and profiles its start-up phase in workerd;
// the sampled time that is not idle (JavaScript, GC, V8's own work) is the figure.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Bundled into bench/.build/, so the repository is two levels up from the running file.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

interface Profile {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface StartupCost {
  busyMs: number;
  gcMs: number;
  spanMs: number;
  file: string;
}

/** One profiled start-up; throws with wrangler's output when the command fails. */
export function measureStartup(run: number): StartupCost {
  const dir = join(root, "bench", ".build", "profiles");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `startup-${run}.cpuprofile`);
  const done = spawnSync("npx", ["wrangler", "check", "startup", "--outfile", file], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
  if (done.status !== 0) throw new Error(`wrangler check startup failed: ${done.stderr || done.stdout}`);
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let busy = 0;
  let gc = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const name = names.get(id);
    if (name === "(idle)") return;
    busy += micros;
    if (name === "(garbage collector)") gc += micros;
  });
  return { busyMs: busy / 1000, gcMs: gc / 1000, spanMs: (profile.endTime - profile.startTime) / 1000, file };
}
