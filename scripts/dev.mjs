// npm run dev: local D1 migrations (every shard), wrangler dev on 127.0.0.1:8787, the demo account seeded
// (idempotent), and a ready-to-paste curl line (README, Set up).
import { spawn, spawnSync } from "node:child_process";
import { d1Databases } from "./d1-databases.mjs";
import { adminToken, argValue, DEV_HOST, DEV_PORT, DEV_URL, call } from "./local-config.mjs";
import { seedDemo } from "./seed-demo.mjs";

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

const server = spawn(
  "npx",
  ["wrangler", "dev", "--ip", DEV_HOST, "--port", String(DEV_PORT), "--test-scheduled", "--var", `ADMIN_TOKEN:${token}`, ...withoutPort],
  { stdio: ["inherit", "inherit", "inherit"] },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

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
  const key = await seedDemo(token);
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
 Public booking site:  curl -s -H "User-Agent: curl-tour" http://demo.localhost:${DEV_PORT}/services
────────────────────────────────────────────────────────────────────────
`);
} catch (error) {
  console.error(`Seeding the demo account failed: ${error.message}`);
}
