// npm run bench -- messages (issue 41): the CPU of rendering one confirmation e-mail beside its
// text alone (message-render.ts, in Node), and e-mails delivered per second by the message queue's
// consumer over real SMTP: a `wrangler dev` with MESSAGE_PROVIDER=smtp pointed at an smtp-server
// in this process, N bookings whose confirmations are e-mailed, timed until the server has them all
// and every row reads `sent`.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";
import { round, type Figure } from "./load";
import { account, resources, serviceWithProviders } from "./seed-sql";
import { log } from "./suite";
import { withBenchServer } from "./wrangler-dev";

const here = dirname(fileURLToPath(import.meta.url));
const SUITE = "messages";
const MESSAGES = 200;
const CLIENTS = 8;
const RESOURCES = [1, 2, 3, 4];
const figures: Figure[] = [];

// (b) The render path as the Worker builds it (the workerd conditions pick liquidjs' and
// ical-generator's builds for workers), with the socket and the SMTP session stood in.
const renderBundle = join(here, "message-render.mjs");
await build({
  entryPoints: [join(here, "..", "message-render.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: renderBundle,
  logLevel: "error",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["browser", "module", "main"],
  plugins: [
    {
      name: "render-shims",
      setup(b) {
        b.onResolve({ filter: /^cloudflare:sockets$/ }, () => ({ path: join(here, "..", "render-shims", "sockets.ts") }));
        b.onResolve({ filter: /\/smtp-client$/ }, () => ({ path: join(here, "..", "render-shims", "smtp-submit.ts") }));
      },
    },
  ],
});
const { renderTimings } = (await import(renderBundle)) as typeof import("./message-render");
const renders = await renderTimings();
const us = (n: number) => round(n, 1);
figures.push(
  {
    name: "messages: render one confirmation, text only (Liquid; what sink and http deliver)",
    unit: "µs",
    calls: renders.calls,
    median: us(renders.text.median),
    p95: us(renders.text.p95),
    detail: `process CPU ${us(renders.text.cpu)} µs per call`,
  },
  {
    name: "messages: render one confirmation e-mail, text + HTML + invitation as MIME (smtp.ts)",
    unit: "µs",
    calls: renders.calls,
    median: us(renders.email.median),
    p95: us(renders.email.p95),
    ratio: round(renders.email.median / renders.text.median),
    bytes: renders.bytes,
    detail: `x text-only render at p50; process CPU ${us(renders.email.cpu)} µs per call`,
  },
);
log(SUITE, `render: text ${us(renders.text.median)} µs, e-mail ${us(renders.email.median)} µs (p50)`);

// (a) The far end: accepts anyone (SMTP_SECURITY=none, no login), keeps when each message arrived
// and how long each session lasted (connect to close), to tell the session from the consumer's work.
const arrivals: { to: string; at: number; raw: string }[] = [];
const opened = new Map<string, number>();
const sessionsMs: number[] = [];
const smtp = new SMTPServer({
  logger: false,
  disabledCommands: ["STARTTLS", "AUTH"],
  // A reverse lookup of 127.0.0.1 per connection is the server's cost, not the Worker's.
  disableReverseLookup: true,
  onConnect(session, callback) {
    opened.set(session.id, performance.now());
    callback();
  },
  onClose(session) {
    const at = opened.get(session.id);
    if (at !== undefined) sessionsMs.push(performance.now() - at);
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      for (const to of session.envelope.rcptTo) arrivals.push({ to: to.address, at: performance.now(), raw: Buffer.concat(chunks).toString("utf8") });
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
const smtpPort = (smtp.server.address() as AddressInfo).port;

const shop = account(1, "mail", { verification_method: 2, email_notification: false });
const sql = [
  shop.sql,
  resources(
    1,
    RESOURCES.map((id) => ({ id, capacity: 1000, hours: ["08:00", "18:00"] })),
  ),
  serviceWithProviders(1, 1, 60, RESOURCES),
].join("\n");

interface MessageJson {
  kind: string;
  status: string;
  recipient: string;
  error: string | null;
}

/**
 * Creates the bookings from `CLIENTS` clients and waits until every confirmation's row is settled
 * (and, over SMTP, every e-mail has arrived): the instants of the first create, the last create's
 * answer and the poll that saw every row settled.
 */
function deliverAll(label: string, vars: Record<string, string>, arrived: () => boolean) {
  return withBenchServer(
    `${SUITE}-${label}`,
    sql,
    async (server) => {
      const create = async (i: number) => {
        const res = await server.request("/api/v1/bookings", {
          method: "POST",
          key: shop.apiKey,
          body: {
            booking: {
              resource_id: RESOURCES[i % RESOURCES.length],
              service_id: 1,
              booked_from: "2030-01-07 10:00",
              booked_to: "2030-01-07 11:00",
              person_attributes: { name: `Visitor ${i}`, email: `visitor-${i}@example.com` },
            },
          },
        });
        if (res.status !== 200) throw new Error(`POST /bookings: ${res.status} ${res.text}`);
      };
      // The first create's request goes out before its message is queued: the span below can only be longer.
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < MESSAGES) await create(next++);
        }),
      );
      const created = performance.now();
      log(SUITE, `${label}: ${MESSAGES} bookings created in ${round((created - started) / 1000)} s; waiting for their messages`);

      const rows = async () => {
        const all: MessageJson[] = [];
        for (let page = 1; ; page++) {
          const res = await server.request(`/api/v1/messages?kind=confirmation&channel=email&page=${page}`, { key: shop.apiKey });
          if (res.status !== 200) throw new Error(`GET /messages: ${res.status} ${res.text}`);
          const list = (JSON.parse(res.text) as { message: MessageJson }[]).map((m) => m.message);
          all.push(...list);
          if (list.length < 50) return all;
        }
      };
      const deadline = Date.now() + 5 * 60_000;
      for (;;) {
        if (arrived()) {
          const settled = await rows();
          if (settled.length >= MESSAGES && settled.every((m) => m.status === "sent" || m.status === "failed")) {
            return { started, created, allSent: performance.now(), settled };
          }
        }
        if (Date.now() > deadline) throw new Error(`${label}: not every message settled within 5 minutes (${arrivals.length} e-mails arrived)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    { vars },
  );
}

const rate = (run: { started: number; allSent: number }) => round(MESSAGES / ((run.allSent - run.started) / 1000), 1);
const seconds = (ms: number) => round(ms / 1000);

// The floor of this figure: the same bookings with the sink, where the consumer claims and settles
// each row and nothing leaves, so what SMTP adds is the difference.
const sink = await deliverAll("sink", { MESSAGE_PROVIDER: "sink" }, () => true);
figures.push({
  name: `messages: confirmations settled by the queue consumer with the sink, nothing sent (${MESSAGES})`,
  unit: "s",
  calls: MESSAGES,
  median: seconds(sink.allSent - sink.started),
  rps: rate(sink),
  detail:
    `${rate(sink)} messages/s from the first create until every row reads sent; creates (${CLIENTS} clients) took ${seconds(sink.created - sink.started)} s, ` +
    `every row sent ${seconds(sink.allSent - sink.created)} s after the last create's answer (when the consumer keeps up, the creates set the pace)`,
});

const delivery = await deliverAll(
  "smtp",
  { MESSAGE_PROVIDER: "smtp", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtpPort), SMTP_SECURITY: "none", MAIL_FROM: "bookings@mail.localhost" },
  () => arrivals.length >= MESSAGES,
);
await new Promise<void>((resolve) => smtp.close(resolve));

const lastArrival = Math.max(...arrivals.map((a) => a.at));
const firstArrival = Math.min(...arrivals.map((a) => a.at));
const sessionP50 = [...sessionsMs].sort((a, b) => a - b)[Math.floor(sessionsMs.length / 2)];
figures.push({
  name: `messages: confirmation e-mails delivered through the queue consumer to a local SMTP server (${MESSAGES})`,
  unit: "s",
  calls: MESSAGES,
  median: seconds(delivery.allSent - delivery.started),
  rps: rate(delivery),
  detail:
    `${rate(delivery)} messages/s from the first create until every e-mail arrived and every row reads sent; ` +
    `creates (${CLIENTS} clients) took ${seconds(delivery.created - delivery.started)} s, e-mails arrived from ${seconds(firstArrival - delivery.started)} s to ${seconds(lastArrival - delivery.started)} s, ` +
    `${round((MESSAGES - 1) / ((lastArrival - firstArrival) / 1000), 1)} messages/s from the first arrival to the last, ` +
    `one SMTP session (connect to close) p50 ${round(sessionP50, 1)} ms of ${round((lastArrival - firstArrival) / (MESSAGES - 1), 1)} ms between arrivals`,
});

// Each confirmation arrived exactly once, with its HTML part and invitation, and its row reads sent.
const perRecipient = new Map<string, number>();
for (const a of arrivals) perRecipient.set(a.to, (perRecipient.get(a.to) ?? 0) + 1);
const expected = Array.from({ length: MESSAGES }, (_, i) => `visitor-${i}@example.com`);
const problems = [
  ...expected.filter((to) => perRecipient.get(to) !== 1).map((to) => `${to} arrived ${perRecipient.get(to) ?? 0} times`),
  ...arrivals.filter((a) => !/text\/html/.test(a.raw) || !/method=REQUEST/.test(a.raw)).map((a) => `${a.to} lacks its HTML part or invitation`),
  ...delivery.settled.filter((m) => m.status !== "sent").map((m) => `${m.recipient}: ${m.status} ${m.error ?? ""}`),
];
figures.push({
  name: "messages: every confirmation arrived once, with HTML and invitation, and reads sent",
  unit: "",
  calls: MESSAGES,
  check: problems.length === 0 ? "pass" : "FAIL",
  detail: problems.length === 0 ? `${arrivals.length} arrivals, ${delivery.settled.length} rows sent` : problems.slice(0, 5).join("; "),
});

process.stdout.write(JSON.stringify(figures));
