// How the bench Workers are run and waited for. Each is wrangler.toml itself with only its entry
// and its name given on top (`wrangler dev <entry> --name <name>`, or `entrypoint`/`name` of
// `unstable_startWorker`; the floor Worker also unminified, for --profile's function names): no
// copy of the config is rewritten, so every alias, binding and path
// it names holds for the bench Worker exactly as it does for the product, including one added
// tomorrow. A server that does not build or does not answer fails its suite within a minute, with
// what wrangler said, rather than leaving a request to wait on it for ever.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The bench Workers' one env file, empty (`--env-file`, `envFiles`): naming one keeps wrangler from
 * reading the repository's .dev.vars, so a bench Worker has wrangler.toml's settings as deployed
 * (ENVIRONMENT=production) plus the bench's own variables, as it had from its rewritten copy.
 */
export function emptyEnvFile(root) {
  const dir = join(root, "bench", ".build");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "bench.env");
  writeFileSync(file, "");
  return file;
}

/** From the start of `wrangler dev` to its first answer; a cold build on two busy cores takes ~20 s. */
const STARTUP_DEADLINE_MS = 60_000;
/** One attempt to reach the server while it starts: a dev server that holds a request must not hold the wait. */
const PROBE_TIMEOUT_MS = 5_000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes (ESC [ … m)
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, "");

/** wrangler's report of a failed build, from its "Build failed" (or first "[ERROR]" before it) on. */
function buildFailure(output) {
  const text = plain(output);
  const failed = text.indexOf("Build failed");
  if (failed < 0) return undefined;
  const firstError = text.indexOf("[ERROR]");
  return text.slice(firstError >= 0 && firstError < failed ? text.lastIndexOf("\n", firstError) + 1 : failed).trim();
}

/** The last lines of what wrangler said, for an error message. */
const tail = (output) => plain(output).trim().split("\n").slice(-40).join("\n");

/**
 * Waits until `probe` (given a signal that aborts its one attempt) answers true. Throws at once
 * when the build failed or the server exited, and after `STARTUP_DEADLINE_MS` otherwise, each
 * time with what wrangler said (`output`).
 */
export async function waitForServer({ what, probe, output, exited = () => false }) {
  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    const failure = buildFailure(output());
    if (failure) throw new Error(`${what}: the Worker did not build:\n${failure}`);
    if (exited()) throw new Error(`${what}: wrangler dev exited before answering:\n${tail(output()) || "(no output)"}`);
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new Error(`${what} did not answer within ${STARTUP_DEADLINE_MS / 1000} s; wrangler's last output:\n${tail(output()) || "(no output)"}`);
    }
    const up = await probe(AbortSignal.timeout(Math.min(PROBE_TIMEOUT_MS, left))).catch(() => false);
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
