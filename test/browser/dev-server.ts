// Global setup of the browser tests: migrations and `wrangler dev` on a free port, state in a
// temporary directory removed afterwards, the rate limit raised (many page loads from one address);
// the Stripe stand-in and the mail catcher beside it as `npm run dev` starts them (scripts/dev.mjs):
// e-mail leaves over real SMTP for maildev's inbox, and the stand-in's payment events reach the dev
// server through a relay a test can hold them in (payment-events-relay.ts).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { catcherVarArgs, startMailCatcher } from "../../scripts/mail-catcher.mjs";
import { startStripeStandIn } from "../../scripts/stripe-stand-in.mjs";
import { startPaymentEventsRelay } from "./payment-events-relay";

const ADMIN_TOKEN = "browser-test-admin-token";
/** The platform's keys as the dev server gets them; the stand-in takes any sk_test_ key and signs with this secret. */
const STRIPE_SECRET_KEY = "sk_test_browser";
const STRIPE_WEBHOOK_SECRET = "whsec_browser_tests";
/** The sending address `npm run dev` gives the Worker (scripts/local-config.mjs). */
const LOCAL_MAIL_FROM = "bookings@mail.localhost";

declare module "vitest" {
  export interface ProvidedContext {
    devPort: number;
    adminToken: string;
    /** The Stripe stand-in's origin: its API (with STRIPE_SECRET_KEY), its checkout pages, its /_test controls. */
    stripeOrigin: string;
    stripeSecretKey: string;
    /** Where a test holds and releases the stand-in's payment events (payment-events-relay.ts). */
    paymentEventsRelay: string;
    /** maildev's web inbox and REST API (GET /api/email), where every e-mail the dev server sends lands. */
    mailInbox: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(port: number, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/admin/v1/accounts`, { headers: { "user-agent": "browser-tests", authorization: `Bearer ${ADMIN_TOKEN}` } });
      if (res.status < 500) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler dev did not answer on port ${port}:\n${log()}`);
}

export default async function setup(project: TestProject) {
  const stateDir = mkdtempSync(path.join(tmpdir(), "booking-browser-"));
  const port = await freePort();
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };
  const wrangler = path.join(process.cwd(), "node_modules/.bin/wrangler");
  const migrate = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], { env, encoding: "utf8" });
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const relay = await startPaymentEventsRelay(`http://127.0.0.1:${port}/api/v1/payments/stripe/events`);
  const stripe = await startStripeStandIn({ webhookSecret: STRIPE_WEBHOOK_SECRET, deliverTo: `${relay.origin}/events` });
  const mail = await startMailCatcher({});

  let output = "";
  const child = spawn(
    wrangler,
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      stateDir,
      "--var",
      `ADMIN_TOKEN:${ADMIN_TOKEN}`,
      "--var",
      "RATE_LIMIT_REQUESTS:1000000",
      // E-mail as `npm run dev` sends it; SMS have no stand-in here and stay queued (no test reads one).
      ...catcherVarArgs(mail, LOCAL_MAIL_FROM),
      "--var",
      `STRIPE_API_BASE:${stripe.origin}`,
      "--var",
      `STRIPE_SECRET_KEY:${STRIPE_SECRET_KEY}`,
      "--var",
      `STRIPE_WEBHOOK_SECRET:${STRIPE_WEBHOOK_SECRET}`,
    ],
    { env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout!.on("data", (d) => {
    output += d;
  });
  child.stderr!.on("data", (d) => {
    output += d;
  });
  const stop = () => {
    // wrangler starts workerd as a child: end the whole process group this setup started.
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
    return Promise.all([stripe.close(), relay.close(), mail.close()]);
  };
  try {
    await waitUntilServing(port, child, () => output.slice(-4000));
  } catch (error) {
    await stop();
    rmSync(stateDir, { recursive: true, force: true });
    throw error;
  }
  project.provide("devPort", port);
  project.provide("adminToken", ADMIN_TOKEN);
  project.provide("stripeOrigin", stripe.origin);
  project.provide("stripeSecretKey", STRIPE_SECRET_KEY);
  project.provide("paymentEventsRelay", relay.origin);
  project.provide("mailInbox", mail.inbox);

  return async () => {
    await stop();
    await new Promise((r) => setTimeout(r, 500));
    rmSync(stateDir, { recursive: true, force: true });
  };
}
