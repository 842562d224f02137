// The receivers of the tests' outbound HTTP: a real HTTP server in the Node process that runs
// vitest, which workerd reaches as the test Worker's `outboundService` (vitest.config.ts). Every
// outbound fetch lands here whatever its host: web hooks under `receiver.test`, message providers
// at `messages-receiver.test`. Being outside workerd, a fault such as a dropped connection reaches
// the Worker under test as the network error it is, and no Worker has to throw to stage it.
//   POST https://hooks.receiver.test/<key>?fail=N&status=S  fails the first N requests for <key>
//        with S (default 500), then answers 200; fail=always never succeeds.
//   POST https://hooks.receiver.test/<key>?seq=down,hang,503  answers request n as the n-th item, then
//        200: `down` drops the connection without an answer, `hang` never answers (the caller's
//        timeout ends it), a number is that status.
//   GET  https://hooks.receiver.test/_log/<key>  the requests received for <key>, oldest first.
//   POST http://messages-receiver.test/<bucket>/ok|fail  records the message, answers 200 or 503;
//   GET  http://messages-receiver.test/<bucket>  what the bucket received.
//   POST <origin>/resend/emails  a stand-in of Resend's send endpoint (src/features/messages/resend.ts):
//        key `re_test_standin` or 401; an Idempotency-Key seen before answers its first id again
//        without sending twice; recipients choose a fault by prefix: ratelimited- 429, invalid- 422,
//        down- 500. GET <origin>/resend/_log/<address>: { requests, emails } for the address.
//   POST <origin>/twilio/2010-04-01/Accounts/<sid>/Messages.json  a stand-in of Twilio's Messages API:
//        Basic `<sid>:twilio-test-token` or 401 (code 20003); To +15005550001 answers 400 code 21211
//        (invalid number), +15005550004 400 code 21610 (the recipient replied STOP), +15005550429 429,
//        +15005550500 500, as Twilio's own test numbers do for the first two.
//        GET <origin>/twilio/_log/<To>: the forms received for the number.
//   GET  <origin>/mail/<address>  what the test SMTP server (mail-server.ts) received for the address.
//   PUT  <origin>/calendars/<key>?etag=E&mode=M  sets the iCalendar text served at GET /calendars/<key>,
//        with ETag E (a request whose If-None-Match names it answers 304); mode `hang` never answers,
//        `huge` streams more than any feed may be, `redirect-ftp` redirects to an ftp address, `status-N`
//        answers N. GET /calendars/_log/<key>: the GETs received (their headers), oldest first.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mailFor } from "./mail-server.ts";

interface Logged {
  method?: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const received = new Map<string, Logged[]>();
const messages = new Map<string, unknown[]>();

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

function answer(res: ServerResponse, status: number, body: string, type = "text/plain") {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

async function messageProvider(req: IncomingMessage, res: ServerResponse, url: URL) {
  const [bucket, outcome] = url.pathname.slice(1).split("/");
  if (req.method === "GET") return answer(res, 200, JSON.stringify(messages.get(bucket) ?? []), "application/json");
  const entry = {
    outcome,
    authorization: req.headers.authorization ?? null,
    idempotency_key: req.headers["idempotency-key"] ?? null,
    content_type: req.headers["content-type"] ?? null,
    body: JSON.parse(await readBody(req)),
  };
  messages.set(bucket, [...(messages.get(bucket) ?? []), entry]);
  answer(res, outcome === "fail" ? 503 : 200, outcome === "fail" ? "unavailable" : "ok");
}

const resendRequests = new Map<string, number>();
const resendEmails = new Map<string, { id: string; idempotency_key: string | null; body: any }[]>();
const resendIds = new Map<string, string>();

async function resendStandIn(req: IncomingMessage, res: ServerResponse, url: URL) {
  const json = (status: number, body: unknown) => answer(res, status, JSON.stringify(body), "application/json");
  if (req.method === "GET" && url.pathname.startsWith("/_log/")) {
    const to = decodeURIComponent(url.pathname.slice("/_log/".length));
    return json(200, { requests: resendRequests.get(to) ?? 0, emails: resendEmails.get(to) ?? [] });
  }
  if (req.method !== "POST" || url.pathname !== "/emails") return json(404, { statusCode: 404, name: "not_found", message: "Not found" });
  const body = JSON.parse(await readBody(req));
  const to = String(body.to?.[0] ?? "");
  resendRequests.set(to, (resendRequests.get(to) ?? 0) + 1);
  if (req.headers.authorization !== "Bearer re_test_standin") return json(401, { statusCode: 401, name: "invalid_api_key", message: "API key is invalid" });
  if (to.startsWith("ratelimited-")) return json(429, { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" });
  if (to.startsWith("invalid-")) return json(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." });
  if (to.startsWith("down-")) return json(500, { statusCode: 500, name: "application_error", message: "Something went wrong" });
  const key = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
  const replay = key ? resendIds.get(key) : undefined;
  if (replay) return json(200, { id: replay });
  const id = crypto.randomUUID();
  if (key) resendIds.set(key, id);
  resendEmails.set(to, [...(resendEmails.get(to) ?? []), { id, idempotency_key: key, body }]);
  json(200, { id });
}

const twilioForms = new Map<string, Record<string, string>[]>();

async function twilioStandIn(req: IncomingMessage, res: ServerResponse, url: URL) {
  const json = (status: number, body: unknown) => answer(res, status, JSON.stringify(body), "application/json");
  if (req.method === "GET" && url.pathname.startsWith("/_log/")) return json(200, twilioForms.get(decodeURIComponent(url.pathname.slice("/_log/".length))) ?? []);
  const sid = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/.exec(url.pathname)?.[1];
  if (req.method !== "POST" || !sid) return json(404, { code: 20404, message: "The requested resource was not found", status: 404 });
  if (req.headers.authorization !== `Basic ${Buffer.from(`${sid}:twilio-test-token`).toString("base64")}`) {
    return json(401, { code: 20003, message: "Authenticate", status: 401 });
  }
  const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
  const to = form.To ?? "";
  if (to === "+15005550001") return json(400, { code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 });
  if (to === "+15005550004") return json(400, { code: 21610, message: "Attempt to send to unsubscribed recipient", status: 400 });
  if (to === "+15005550429") return json(429, { code: 20429, message: "Too Many Requests", status: 429 });
  if (to === "+15005550500") return json(500, { code: 20500, message: "Internal Server Error", status: 500 });
  twilioForms.set(to, [...(twilioForms.get(to) ?? []), form]);
  json(201, { sid: `SM${crypto.randomUUID().replace(/-/g, "")}`, status: "queued", to, body: form.Body });
}

function misbehave(req: IncomingMessage, res: ServerResponse, fault: string) {
  if (fault === "down") {
    req.socket.destroy();
    return;
  }
  // Never answered: the caller's own timeout ends the exchange and closes the socket.
  if (fault === "hang") return;
  answer(res, Number(fault) || 500, "not now");
}

async function webHookReceiver(req: IncomingMessage, res: ServerResponse, url: URL) {
  if (req.method === "GET" && url.pathname.startsWith("/_log/")) {
    return answer(res, 200, JSON.stringify(received.get(url.pathname.slice("/_log/".length)) ?? []), "application/json");
  }
  const key = url.pathname.slice(1);
  const log = received.get(key) ?? [];
  received.set(key, log);
  const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
  log.push({ method: req.method, url: url.href, headers, body: await readBody(req) });
  const scripted = url.searchParams.get("seq")?.split(",")[log.length - 1];
  if (scripted) return misbehave(req, res, scripted);
  const fail = url.searchParams.get("fail");
  const failing = fail === "always" || log.length <= Number(fail ?? 0);
  answer(res, failing ? Number(url.searchParams.get("status") ?? 500) : 200, failing ? "not now" : "ok");
}

interface Feed {
  text: string;
  etag: string | null;
  mode: string | null;
}
const feeds = new Map<string, Feed>();
const feedLog = new Map<string, Logged[]>();

async function calendarHost(req: IncomingMessage, res: ServerResponse, url: URL) {
  if (req.method === "GET" && url.pathname.startsWith("/_log/")) {
    return answer(res, 200, JSON.stringify(feedLog.get(url.pathname.slice("/_log/".length)) ?? []), "application/json");
  }
  const key = url.pathname.slice(1);
  if (req.method === "PUT") {
    feeds.set(key, { text: await readBody(req), etag: url.searchParams.get("etag"), mode: url.searchParams.get("mode") });
    return answer(res, 200, "ok");
  }
  const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
  feedLog.set(key, [...(feedLog.get(key) ?? []), { method: req.method, url: url.href, headers, body: "" }]);
  const feed = feeds.get(key);
  if (!feed) return answer(res, 404, "no such calendar");
  if (feed.mode === "hang") return;
  if (feed.mode?.startsWith("status-")) return answer(res, Number(feed.mode.slice("status-".length)), "not now");
  if (feed.mode === "redirect-ftp") {
    res.writeHead(302, { location: `ftp://calendar.example.com/${key}.ics` });
    return res.end();
  }
  if (feed.mode === "huge") {
    res.writeHead(200, { "content-type": "text/calendar" });
    const line = `${"X-FILLER:".padEnd(1023, "x")}\n`;
    for (let i = 0; i < 6 * 1024 && !res.destroyed; i++) {
      if (!res.write(line)) await new Promise((r) => res.once("drain", r));
    }
    return res.end();
  }
  if (feed.etag && req.headers["if-none-match"] === feed.etag) {
    res.writeHead(304, { etag: feed.etag });
    return res.end();
  }
  res.writeHead(200, { "content-type": "text/calendar; charset=utf-8", ...(feed.etag ? { etag: feed.etag } : {}) });
  res.end(feed.text);
}

async function route(req: IncomingMessage, res: ServerResponse, origin: string) {
  const url = new URL(req.url ?? "/", origin);
  const [, area] = url.pathname.split("/");
  const within = new URL(url.pathname.slice(area.length + 1) + url.search, origin);
  if (area === "messages") return messageProvider(req, res, within);
  if (area === "hooks") return webHookReceiver(req, res, within);
  if (area === "calendars") return calendarHost(req, res, within);
  if (area === "resend") return resendStandIn(req, res, within);
  if (area === "twilio") return twilioStandIn(req, res, within);
  if (area === "mail") return answer(res, 200, JSON.stringify(mailFor(decodeURIComponent(within.pathname.slice(1)))), "application/json");
  answer(res, 404, `the test receiver has no ${area}`);
}

let listening: Promise<string> | undefined;
/** Starts the receiver once per process; resolves to its origin, e.g. `http://127.0.0.1:41234`. */
export function startReceiver() {
  listening ??= new Promise<string>((resolve, reject) => {
    let origin = "";
    const server = createServer((req, res) => {
      route(req, res, origin).catch((error) => answer(res, 500, String(error)));
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      // The test run ends when vitest is done, not when this server is.
      server.unref();
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve(origin);
    });
  });
  return listening;
}
