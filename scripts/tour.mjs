// npm run tour: runs the README's curl tour against a fresh `npm run dev` server (a free port, a
// throwaway --persist-to directory), twice in a row, and fails on the first line that gets a
// non-2xx answer or lacks a value the tour captures. Keeps the README's tour from rotting.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const README = "README.md";
const FIRST = "## A curl tour";
const END = "## Configuration"; // operator examples create fixed accounts: not part of the tour
const WINDOW_SECONDS = 20;

/** The ```sh blocks between the tour's heading and the configuration section, in order. */
export function tourBlocks(markdown) {
  const start = markdown.indexOf(FIRST);
  const end = markdown.indexOf(END, start);
  if (start === -1 || end === -1) throw new Error(`${README} has no "${FIRST}" … "${END}" section`);
  return [...markdown.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** One bash script: strict mode, curl failing on non-2xx, the server's port, key and mail inbox filled in. */
export function tourScript(blocks, { port, key, inbox }) {
  const body = blocks
    .join("\n")
    .replace(/^PORT=\S+/m, `PORT=${port}`)
    .replace(/^KEY=\S+/m, `KEY=${key}`)
    .replace(/^INBOX=\S+/m, `INBOX=${inbox ?? "http://127.0.0.1:1080"}`);
  return [
    "set -Eeuo pipefail", // -E: the ERR trap also reports failures inside $(...)
    `trap 'echo "tour: failed at: $BASH_COMMAND" >&2' ERR`,
    // --fail-with-body: a 4xx/5xx is an error (exit 22) and its body is still shown.
    // One run makes about 100 requests from one address, more than the budget of 80 per 20 s
    // (spec: Limits): like a polite client, the tour waits out the window after 60 requests in it.
    // Kept in a file ("<window start> <requests>"), since most requests run in a $(...) subshell.
    "TOUR_WINDOW=$(mktemp)",
    `curl() { local now start n; now=$(date +%s); read -r start n < "$TOUR_WINDOW" || { start=$now; n=0; }
  if (( now - start > ${WINDOW_SECONDS} )); then start=$now; n=0; fi
  if (( n >= 60 )); then echo "tour: waiting for a fresh rate-limit window" >&2; sleep $(( ${WINDOW_SECONDS + 1} - (now - start) )); start=$(date +%s); n=0; fi
  echo "$start $(( n + 1 ))" > "$TOUR_WINDOW"
  command curl --fail-with-body --show-error --max-time 60 "$@"; echo; }`,
    body,
  ].join("\n");
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
      .listen(0, "127.0.0.1", () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      })
      .on("error", reject);
  });

async function main() {
  const port = await freePort();
  const state = mkdtempSync(path.join(tmpdir(), "booking-tour-"));
  console.log(`tour: starting npm run dev on port ${port}, state in ${state}`);
  // Its own process group, so stopping it stops wrangler and workerd too.
  const server = spawn(process.execPath, ["scripts/dev.mjs", "--port", String(port), "--persist-to", state], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    // STRIPE_PORT=0 and MAIL_*_PORT=0: the Stripe stand-in and the mail catcher on free ports too,
    // beside an `npm run dev` that holds 8790, 1025 and 1080.
    env: { ...process.env, PORT: String(port), STRIPE_PORT: "0", MAIL_SMTP_PORT: "0", MAIL_WEB_PORT: "0" },
  });
  let output = "";
  server.stdout.on("data", (d) => (output += d));
  server.stderr.on("data", (d) => (output += d));
  const signalGroup = (signal) => {
    try {
      process.kill(-server.pid, signal);
    } catch {
      /* already gone */
    }
  };
  let exited = false;
  server.on("exit", () => (exited = true));
  /** Stops wrangler and workerd (the whole group), forcibly if they linger, then removes the state. */
  const finish = async (code) => {
    signalGroup("SIGTERM");
    for (let i = 0; i < 50 && !exited; i += 1) await new Promise((r) => setTimeout(r, 100));
    signalGroup("SIGKILL");
    rmSync(state, { recursive: true, force: true });
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => finish(130));

  const key = await new Promise((resolve) => {
    // A failure to start must still stop whatever did start.
    let ready = false;
    const fail = (message) => {
      console.error(`tour: ${message}:\n${output}`);
      void finish(1);
    }; // finish ends the process
    const timer = setTimeout(() => fail("no API key printed within 300 s"), 300_000);
    server.stdout.on("data", () => {
      const match = /API key: (bk_\S+)/.exec(output);
      if (match && !ready) {
        ready = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on("exit", (code) => {
      if (!ready) fail(`npm run dev exited (${code}) before it was ready`);
    });
  });

  const inbox = /Mail inbox[^:]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  if (!inbox) {
    console.error(`tour: npm run dev printed no mail inbox:\n${output}`);
    return finish(1);
  }
  const script = tourScript(tourBlocks(readFileSync(README, "utf8")), { port, key, inbox });
  for (const run of [1, 2]) {
    // Each run starts with a whole budget of 80 requests per 20 s (spec: Limits): the first after
    // the demo seeding's requests, the second after the first run's.
    console.log(`\ntour: waiting ${WINDOW_SECONDS + 1} s for a fresh rate-limit window`);
    await new Promise((resolve) => setTimeout(resolve, (WINDOW_SECONDS + 1) * 1000));
    console.log(`\ntour: run ${run} of 2`);
    // Not spawnSync: while the tour runs, this process must keep reading the server's output.
    // Blocked, it left the pipe full, and wrangler, writing its request log to that pipe, stopped
    // answering part-way through the second run.
    const status = await new Promise((resolve) => spawn("bash", ["-c", script], { stdio: "inherit" }).on("exit", resolve));
    if (status !== 0) {
      console.error(`\ntour: run ${run} failed (exit ${status}); see "failed at" above. The server's last output:\n${output.slice(-4000)}`);
      return finish(1);
    }
  }
  console.log("\ntour: both runs passed");
  return finish(0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error) => {
    console.error(`tour: ${error.message}`);
    process.exit(1);
  });
}
