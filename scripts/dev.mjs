// npm run dev: local D1 migrations (every shard), the Stripe stand-in on 127.0.0.1:8790, the mail
// catcher (SMTP on 127.0.0.1:1025, its inbox on :1080), wrangler dev on 127.0.0.1:8787 pointed at
// both, the demo account seeded (idempotent), and a ready-to-paste curl line (README, Set up).
import { spawn, spawnSync } from "node:child_process";
import { d1Databases } from "./d1-databases.mjs";
import {
  adminToken,
  argValue,
  DEV_HOST,
  DEV_PORT,
  DEV_URL,
  call,
  LOCAL_MAIL_FROM,
  MAIL_SMTP_PORT,
  MAIL_WEB_PORT,
  STRIPE_PORT,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
} from "./local-config.mjs";
import { catcherVarArgs, startMailCatcher } from "./mail-catcher.mjs";
import { seedDemo } from "./seed-demo.mjs";
import { startStripeStandIn } from "./stripe-stand-in.mjs";

process.env.WRANGLER_SEND_METRICS ??= "false";
const token = adminToken();
const passThrough = process.argv.slice(2);
// --port belongs to wrangler dev only (and is given to it below); the rest goes to both commands.
const withoutPort = passThrough.filter((a, i) => !a.startsWith("--port") && passThrough[i - 1] !== "--port");
const persistTo = argValue("persist-to");

// Every shard takes the same migrations (docs/scaling.md): DB and DB_SHARD_1 locally.
for (const { binding } of d1Databases()) {
  const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", binding, "--local", ...(persistTo ? ["--persist-to", persistTo] : [])], {
    stdio: "inherit",
    env: { ...process.env, CI: "true" }, // no interactive confirmation prompt
  });
  if (migrate.status !== 0) process.exit(migrate.status ?? 1);
}

// Paid bookings pay at the stand-in: its checkout page's Pay delivers the signed event straight
// to this dev server (not to DEV_URL, which may name another server the scripts talk to).
const stripe = await startStripeStandIn({
  port: STRIPE_PORT,
  webhookSecret: STRIPE_WEBHOOK_SECRET,
  deliverTo: `http://${DEV_HOST}:${DEV_PORT}/api/v1/payments/stripe/events`,
}).catch((error) => {
  console.error(`The Stripe stand-in could not listen on port ${STRIPE_PORT} (${error.message}): choose another with STRIPE_PORT=…`);
  process.exit(1);
});

// E-mail leaves the Worker over real SMTP and lands in the catcher's inbox; SMS stay in the sink's rows.
const mail = await startMailCatcher({ smtpPort: MAIL_SMTP_PORT, webPort: MAIL_WEB_PORT }).catch((error) => {
  console.error(`The mail catcher could not listen on ports ${MAIL_SMTP_PORT}/${MAIL_WEB_PORT} (${error.message}): choose others with MAIL_SMTP_PORT=… MAIL_WEB_PORT=…`);
  process.exit(1);
});

const server = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--ip",
    DEV_HOST,
    "--port",
    String(DEV_PORT),
    "--test-scheduled",
    "--var",
    `ADMIN_TOKEN:${token}`,
    "--var",
    `STRIPE_API_BASE:${stripe.origin}`,
    "--var",
    `STRIPE_SECRET_KEY:${STRIPE_SECRET_KEY}`,
    "--var",
    `STRIPE_WEBHOOK_SECRET:${STRIPE_WEBHOOK_SECRET}`,
    ...catcherVarArgs(mail, LOCAL_MAIL_FROM),
    ...withoutPort,
  ],
  { stdio: ["inherit", "inherit", "inherit"] },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => {
  // Exits whether or not the stand-ins close cleanly (allSettled never rejects).
  void Promise.allSettled([stripe.close(), mail.close()]).finally(() => process.exit(code ?? 0));
});

async function waitForServer() {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    try {
      await call("GET", "/api/v1/client");
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`the dev server did not answer on ${DEV_URL}`);
}

try {
  await waitForServer();
  const key = await seedDemo(token, { stripeOrigin: stripe.origin, stripeKey: STRIPE_SECRET_KEY });
  const { body: secret } = await call("GET", "/api/v1/client/webhook_secret", { token: key });
  console.log(`
────────────────────────────────────────────────────────────────────────
 Booking API running on ${DEV_URL}
 Demo account "demo"   API key: ${key}
 Web hook secret:      ${secret?.webhook_secret?.secret ?? "(could not be read)"}
 Operator token (local only): ${token}

   curl -s -H "Authorization: Bearer ${key}" -H "User-Agent: curl-tour" ${DEV_URL}/api/v1/services

 README tour:  PORT=${DEV_PORT}  KEY=${key}

 Booking page (open in a browser):  http://demo.localhost:${DEV_PORT}/
 Mail inbox (every e-mail the API sends, with its invitation): ${mail.inbox}
 Stripe stand-in (test checkout, no card, no money): ${stripe.origin}
   "Massage, paid online" takes payment there: its page's Pay confirms the booking.
 Public booking site:  curl -s -H "User-Agent: curl-tour" http://demo.localhost:${DEV_PORT}/services
────────────────────────────────────────────────────────────────────────
`);
} catch (error) {
  console.error(`Seeding the demo account failed: ${error.message}`);
}
