// Where the local dev server lives and how scripts reach its operator API.
import { existsSync, readFileSync } from "node:fs";

/** `--name value` or `--name=value` from the command line (npm run dev -- --port 8788). */
export function argValue(name, argv = process.argv.slice(2)) {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i === -1) return undefined;
  return argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : argv[i + 1];
}

export const DEV_HOST = "127.0.0.1";
export const DEV_PORT = Number(argValue("port") ?? process.env.PORT ?? 8787);
/** Where local state lives: wrangler's default, or what `--persist-to` names. */
export const STATE_DIR = argValue("persist-to") ?? ".wrangler";
export const DEV_URL = process.env.BOOKING_API_URL ?? `http://${DEV_HOST}:${DEV_PORT}`;
export const USER_AGENT = "booking-dev-scripts/1.0";

/**
 * The local Stripe stand-in beside the dev server (scripts/stripe-stand-in.mjs), on a fixed port so
 * its address is the same at every start (its objects are not: they live in its memory).
 * STRIPE_PORT=0 takes any free port (npm run tour, beside a running npm run dev).
 */
export const STRIPE_PORT = Number(process.env.STRIPE_PORT ?? 8790);
/** The platform's keys as the local Worker gets them; the stand-in takes any sk_test_ key and signs with this secret. */
export const STRIPE_SECRET_KEY = "sk_test_local";
export const STRIPE_WEBHOOK_SECRET = "whsec_local_dev";

/**
 * The local mail catcher beside the dev server (maildev): SMTP on MAIL_SMTP_PORT, its web inbox on
 * MAIL_WEB_PORT, both on 127.0.0.1. The Worker sends it every e-mail over SMTP (MESSAGE_PROVIDER=smtp,
 * given to wrangler dev on its command line; .dev.vars, which the tests read too, keeps the sink).
 * MAIL_SMTP_PORT=0 and MAIL_WEB_PORT=0 take any free ports.
 */
export const MAIL_SMTP_PORT = Number(process.env.MAIL_SMTP_PORT ?? 1025);
export const MAIL_WEB_PORT = Number(process.env.MAIL_WEB_PORT ?? 1080);
/** The local deployment's sending address: the shop's name is its display name. */
export const LOCAL_MAIL_FROM = "bookings@mail.localhost";

/** ADMIN_TOKEN from the environment, else from .dev.vars, else the local-only default. */
export function adminToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  if (existsSync(".dev.vars")) {
    const line = readFileSync(".dev.vars", "utf8")
      .split("\n")
      .find((l) => l.startsWith("ADMIN_TOKEN="));
    if (line) return line.slice("ADMIN_TOKEN=".length).trim().replace(/^"|"$/g, "");
  }
  return "local-dev-admin-token";
}

export async function call(method, path, { token, body } = {}) {
  const res = await fetch(`${DEV_URL}${path}`, {
    method,
    headers: {
      "user-agent": USER_AGENT,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}
