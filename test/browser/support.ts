// Helpers of the browser tests: the system Chromium, the dev server's operator and private APIs for
// setting up an account and reading the messages it stored, and the mail catcher's inbox, where
// the e-mails it sent over SMTP arrived.
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { afterAll, beforeAll, expect, inject } from "vitest";

const USER_AGENT = "booking-browser-tests/1.0";
export const port = () => inject("devPort");
export const siteOrigin = (subdomain: string) => `http://${subdomain}.localhost:${port()}`;

/** Debian's Chromium (the binary, not the /usr/bin wrapper script), or CHROMIUM_PATH. */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync("/usr/lib/chromium/chromium")) return "/usr/lib/chromium/chromium";
  return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
}

export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // *.localhost is loopback by spec; the rule keeps Chromium on IPv4, where wrangler listens.
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--host-resolver-rules=MAP *.localhost 127.0.0.1"],
  });
}

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port()}${path}`, {
    method,
    headers: { "user-agent": USER_AGENT, authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBe(200);
  return json;
}

let serial = 0;
/**
 * A fresh account that verifies bookings by email, with one chair (one seat) open 09:00 to
 * `closes` every day and a one-hour service: the site's subdomain, the service id and the key.
 */
export async function bookableAccount(closes = "12:00") {
  serial += 1;
  const subdomain = `b${Date.now().toString(36)}${serial}`;
  const created = await call("POST", "/admin/v1/accounts", inject("adminToken"), {
    account: {
      subdomain,
      name: `Salon ${serial}`,
      email: `owner${serial}@example.com`,
      time_zone: "Europe/Oslo",
      country_code: "NO",
      locale: "en",
      verification_method: 2,
    },
  });
  const key: string = created.api_key;
  const hours = ["09:00", closes];
  const week = Object.fromEntries(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [`opening_hours_${d}`, hours]));
  const resource = (await call("POST", "/api/v1/resources", key, { resource: { title: "Chair", capacity: 1, ...week } })).resource;
  const service = (await call("POST", "/api/v1/services", key, { service: { title: "Cut", interval: 60 } })).service;
  await call("POST", "/api/v1/providers", key, { provider: { resource_id: resource.id, service_id: service.id } });
  return { subdomain, serviceId: service.id as number, key, accountId: created.account.id as number };
}

/**
 * A bookable account (above) that takes payment as `npm run dev`'s demo does: NOK, Stripe, a
 * connected account made and onboarded at the stand-in and linked by the operator, and its service
 * at 450 paid in full.
 */
export async function paidAccount() {
  const account = await bookableAccount();
  await call("PUT", "/api/v1/client", account.key, { client: { currency: "NOK", payment_provider: "stripe" } });
  const res = await fetch(`${inject("stripeOrigin")}/v1/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${inject("stripeSecretKey")}`, "content-type": "application/x-www-form-urlencoded" },
    body: "type=express&country=NO",
  });
  const { id: stripeAccountId } = (await res.json()) as { id: string };
  expect((await fetch(`${inject("stripeOrigin")}/_test/accounts/${stripeAccountId}/onboard`, { method: "POST" })).status).toBe(200);
  await call("PUT", `/admin/v1/accounts/${account.accountId}`, inject("adminToken"), { account: { stripe_account_id: stripeAccountId } });
  await call("PUT", `/api/v1/services/${account.serviceId}`, account.key, { service: { price: "450", payment: "full" } });
  return account;
}

/**
 * Keeps the stand-in's payment events from the dev server while `during` runs, then delivers them:
 * the booking page is back from the checkout before the server knows of the payment, as when
 * Stripe's redirect outruns its event.
 */
export async function withPaymentEventsHeld<T>(during: () => Promise<T>): Promise<T> {
  const relay = inject("paymentEventsRelay");
  const release = async () => ((await (await fetch(`${relay}/release`, { method: "POST" })).json()) as { delivered: number[] }).delivered;
  expect((await fetch(`${relay}/hold`, { method: "POST" })).status).toBe(200);
  let result: T;
  try {
    result = await during();
  } catch (error) {
    await release();
    throw error;
  }
  expect(await release(), "the held events' deliveries").toEqual([200]);
  return result;
}

/** axe-core's own bundle, run in the page through DevTools, which the page's CSP (script-src 'self') does not govern. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations of the page as it is now (shadow roots included), each as its rule and the nodes it names. */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate<
    [],
    () => Promise<{ id: string; impact: string; nodes: string[] }[]>
  >(`axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations.map((v) =>
    ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => JSON.stringify(n.target) + " " + n.failureSummary) })))`);
}

/**
 * An element in the widget's shadow root, polled for (puppeteer's selector waits and mutation
 * observers do not see into it); `problems` are the page's errors so far, for the failure message.
 */
export async function inWidget(page: Page, selector: string, problems: string[] = []): Promise<ElementHandle<Element>> {
  const find = `document.querySelector("booking-widget")?.shadowRoot?.querySelector(${JSON.stringify(selector)})`;
  await page.waitForFunction(`!!${find}`, { polling: 100, timeout: 20_000 }).catch((e) => {
    throw new Error(`${selector}: ${e} ${problems.join(" | ")}`);
  });
  return (await page.evaluateHandle(find)).asElement() as ElementHandle<Element>;
}

/** Turns on the account's slot holds, each living `minutes` (PUT /api/v1/client). */
export async function enableSlotHolds(key: string, minutes: number) {
  await call("PUT", "/api/v1/client", key, { client: { slot_holds_enabled: true, slot_hold_minutes: minutes } });
}

/** Waits until the private API's slots count `free` seats at `timestamp` (a hold or release may take a moment to show). */
export async function expectFreeSeats(key: string, serviceId: number, timestamp: string, free: number) {
  const deadline = Date.now() + 10_000;
  let seen: number | undefined;
  for (;;) {
    const slots: { slot: { timestamp: string; free: number } }[] = await call(
      "GET",
      `/api/v1/services/${serviceId}/slots?from=${timestamp.slice(0, 10)}&to=${timestamp.slice(0, 10)}`,
      key,
    );
    seen = slots.find((s) => s.slot.timestamp === timestamp)?.slot.free;
    if (seen === free) return;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(seen, `free seats at ${timestamp}`).toBe(free);
}

/** The five-digit code of a booking's verification message, once it is stored. */
export async function verificationCode(key: string, bookingId: number): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const messages = await call("GET", `/api/v1/messages?booking_id=${bookingId}&kind=verification`, key);
    const body: string | undefined = messages[0]?.message.body;
    const code = body && /code is (\d{5})/.exec(body)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no verification message for booking ${bookingId}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** An e-mail as maildev's REST API shows it (GET /api/email): its parts as the catcher parsed them. */
export interface InboxMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
  attachments?: { filename: string; contentType: string }[];
}

/** The first e-mail in the local inbox to `to` whose subject matches, once it has arrived. */
export async function inboxMail(to: string, subject: RegExp): Promise<InboxMail> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${inject("mailInbox")}/api/email`);
    expect(res.status, "GET /api/email of the mail catcher").toBe(200);
    const mail = ((await res.json()) as InboxMail[]).find((m) => m.to.some((t) => t.address === to) && subject.test(m.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} with a subject like ${subject} in the inbox`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A private API call with the account's key; expects a 200 and answers its JSON. */
export const privateApi = (key: string, method: string, path: string, body?: unknown) => call(method, `/api/v1${path}`, key, body);

/** The link of the latest offer message (kind "offer") e-mailed to `email`, once it is stored. */
export async function offerLink(key: string, email: string): Promise<URL> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const messages: { message: { recipient: string; body: string } }[] = await call("GET", "/api/v1/messages?kind=offer&channel=email", key);
    const body = messages.find((m) => m.message.recipient === email)?.message.body;
    const link = body && /https?:\/\/[^\s"<>]+\?waitlist=\d+&(amp;)?offer=[^\s"<>]+/.exec(body)?.[0];
    if (link) return new URL(link.replace("&amp;", "&"));
    if (Date.now() > deadline) throw new Error(`no offer message to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A day a week ahead (bookable under any notice period), as YYYY-MM-DD. */
export const DAY = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

/**
 * A plain page on another origin (the widget's host website, as the README shows it): serves
 * whatever `html` was last set, on a free loopback port.
 */
async function hostWebsite() {
  let html = "";
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    serve(page: string) {
      html = page;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The host website for the describe block it is called in: opened before its tests, closed after them. */
export function useHostWebsite() {
  let host: Awaited<ReturnType<typeof hostWebsite>> | undefined;
  beforeAll(async () => {
    host = await hostWebsite();
  });
  afterAll(() => host?.close());
  return {
    get origin() {
      return host!.origin;
    },
    serve: (page: string) => host!.serve(page),
  };
}
