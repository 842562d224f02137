// One calendar subscription's sync through a real `wrangler dev` (issue 32): the 2,000-event feed
// (calendar-feed.ts) served by this process over HTTP with an ETag, synced by the Worker as its
// fetch queue's consumer syncs it (the floor entry's /__bench/calendar-sync), timed from here: the
// first sync (every busy time written), an unchanged one (304), a change of one event, and the
// same text again without validators (read and parsed in full, nothing written).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { round, type Figure } from "./load";
import { calendarFeed } from "./calendar-feed";
import { account, resources, serviceWithProviders } from "./seed-sql";
import { log } from "./suite";
import { withBenchServer } from "./wrangler-dev";

const ACCOUNT_ID = 1;
const RESOURCE_ID = 1;
const ROUNDS = 5;

// From tomorrow, so a shop without a booking horizon (a year of busy times) reads every event.
const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
const texts = { a: calendarFeed({ from: tomorrow }).text, b: calendarFeed({ from: tomorrow, moved: true }).text };
let served: { text: string; etag: string | null } = { text: texts.a, etag: '"a"' };
const host = createServer((req, res) => {
  if (served.etag && req.headers["if-none-match"] === served.etag) {
    res.writeHead(304, { etag: served.etag });
    res.end();
    return;
  }
  res.writeHead(200, { "content-type": "text/calendar; charset=utf-8", ...(served.etag ? { etag: served.etag } : {}) });
  res.end(served.text);
});
await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
const feedUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/busy.ics`;

const shop = account(ACCOUNT_ID, "calendars");
const sql = [shop.sql, resources(ACCOUNT_ID, [{ id: RESOURCE_ID, capacity: 1, hours: null }]), serviceWithProviders(ACCOUNT_ID, 1, 30, [RESOURCE_ID])].join("\n");

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

// Local development's address rule, so the Worker may fetch this process on loopback.
const figures = await withBenchServer(
  "calendars",
  sql,
  async (server) => {
    const created = await server.request("/api/v1/calendar_subscriptions", {
      method: "POST",
      key: shop.apiKey,
      body: { calendar_subscription: { resource_id: RESOURCE_ID, url: feedUrl } },
    });
    if (created.status !== 200) throw new Error(`POST /calendar_subscriptions: ${created.status} ${created.text}`);
    const id = JSON.parse(created.text).calendar_subscription.id as number;
    const sync = async () => {
      const started = performance.now();
      const res = await server.request(`/api/v1/__bench/calendar-sync/${id}`, { method: "POST", key: shop.apiKey });
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`sync: ${res.status} ${res.text}`);
      return { ms, result: JSON.parse(res.text) as { kind: string; added?: number; removed?: number; error?: string } };
    };
    // The create queued a first fetch too: its writes land before the measured ones.
    await new Promise((r) => setTimeout(r, 6_000));
    const rows = async () => server.request(`/api/v1/calendar_subscriptions/${id}`, { key: shop.apiKey }).then((r) => JSON.parse(r.text).calendar_subscription);
    const out: Figure[] = [];
    const measure = async (label: string, before: () => Promise<void> | void, expect: string) => {
      const times: number[] = [];
      let last = "";
      for (let i = 0; i < ROUNDS; i++) {
        await before();
        const { ms, result } = await sync();
        if (result.kind !== expect) throw new Error(`${label}: ${JSON.stringify(result)}`);
        last = result.kind === "synced" ? `${result.added} added, ${result.removed} removed` : result.kind;
        times.push(ms);
      }
      log("calendars", `${label}: ${round(median(times))} ms`);
      out.push({
        name: `calendars: sync of a 2,000-event feed, ${label}`,
        unit: "ms",
        calls: ROUNDS,
        median: round(median(times)),
        p95: round(Math.max(...times)),
        detail: last,
      });
    };
    // A first sync each round: an untimed sync of a calendar without events empties the stored rows first.
    const empty = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//empty//EN\r\nEND:VCALENDAR";
    await measure(
      "first (every busy time written)",
      async () => {
        served = { text: empty, etag: null };
        await sync();
        served = { text: texts.a, etag: '"a"' };
      },
      "synced",
    );
    await measure(
      "unchanged (304 Not Modified)",
      () => {
        served = { text: texts.a, etag: '"a"' };
      },
      "unchanged",
    );
    let moved = false;
    await measure(
      "one event moved",
      () => {
        moved = !moved;
        served = moved ? { text: texts.b, etag: '"b"' } : { text: texts.a, etag: '"a"' };
      },
      "synced",
    );
    await measure(
      "the same text without validators (read and parsed, nothing written)",
      () => {
        served = { text: served.text, etag: null };
      },
      "synced",
    );
    const status = await rows();
    out.push({
      name: "calendars: the subscription after the runs",
      unit: "",
      calls: 1,
      detail: `${status.status}, ${status.events_read} events read, ${status.busy_count} busy intervals stored`,
    });
    return out;
  },
  { vars: { ENVIRONMENT: "development" } },
);

host.close();
process.stdout.write(JSON.stringify(figures));
