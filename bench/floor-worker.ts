// Benchmark-only Worker entry: the production app (rate limiter included) plus the runtime's floor,
// a private API route that answers a JSON body of a requested size and does nothing else, and the
// data floor, which answers as many bytes from ONE D1 statement reading a cache miss's rows. Run
// only by the bench, on wrangler.toml with this entry (bench/wrangler-dev.ts), never deployed (bench/README.md).
import { Hono } from "hono";
import { buildApp } from "../src/app";
import { privateFeatures } from "../src/features";
import type { AppEnv, Env } from "../src/env";
import { handleScheduled } from "../src/cron";
import { handleQueue } from "../src/queues";
import { and, eq, gte, ne, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { bookings, calendarSubscriptions, events, people, providers, resourceExceptionDates, resources, services } from "../src/db/schema";
import { bindFixed, fixedStatement, type FixedStatement } from "../src/db/fixed-statement";
import { everyColumn, jsonRow } from "../src/db/json-row";
import { accountD1 } from "../src/db/shards";
import { occupantsSql } from "../src/features/occupancy/occupants-sql";
import { LISTED_BOOKING_COLUMNS } from "../src/features/bookings/serializer";
import { PERSON_OUT_COLUMNS } from "../src/features/people/serializer";
import { deps } from "../src/features/deps";
import { ApiError } from "../src/http/errors";
import { forgetIsolateCaches } from "./isolate-caches";
import { withRtt, withRttBesideDatabase } from "./rtt";
import { withSingleWriter } from "./single-writer";

/** The production guard, its database behind the simulated single writer when the shards suite asks, one short hop away with `--rtt`. */
export class CapacityGuard extends ProductionCapacityGuard {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withRttBesideDatabase(withSingleWriter(env)));
  }
}

/** The production object running this Worker's app, beside the database under `--rtt` as a deployment places it. */
export class NearDatabase extends ProductionNearDatabase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withRttBesideDatabase(withSingleWriter(env)));
  }

  protected override buildApp(options: Parameters<typeof buildApp>[0]) {
    return buildApp({ ...options, privateFeatures: benchFeatures });
  }
}
import { NearDatabase as ProductionNearDatabase } from "../src/near-database";

import { CapacityGuard as ProductionCapacityGuard } from "../src/durable-objects/capacity-guard";
export { RateLimiter } from "../src/durable-objects/rate-limiter";

const FRAME = '{"floor":""}';
const MAX_BYTES = 8 * 1024 * 1024;
// Built once per size, so a floor request spends nothing on making its body.
const paddings = new Map<number, string>();

const floor = new Hono<AppEnv>();
// Any method: a POST floor must answer as cheaply as a GET one and never reads its body.
floor.all("/floor", (c) => {
  const bytes = Math.min(MAX_BYTES, Math.max(FRAME.length, Number(c.req.query("bytes")) || FRAME.length));
  let padding = paddings.get(bytes);
  if (padding === undefined) {
    padding = "x".repeat(bytes - FRAME.length);
    paddings.set(bytes, padding);
  }
  return c.json({ floor: padding });
});

// The data floor (bench/README.md): what a cache miss's rows cost before any of the route's own
// work. ONE statement reads the rows the route's miss reads (the same tables and indexes, the
// same rows and columns) as one JSON text SQLite builds, and the Worker answers that text as the
// route's byte count: no decoding, engine, serialiser, version or lapse reads. The floor above
// reads nothing, so a miss set against it pays a D1 wait the floor never makes (for these rows
// 2–5 × the floor on loopback) before doing anything at all.
type SlotBound = "account" | "service" | "from" | "to" | "dateFrom" | "dateTo" | "now";
type PageBound = "account" | "start" | "limit";
const dialect = new SQLiteSyncDialect();
const rendered = <K extends string>(statement: SQL): FixedStatement<K> => fixedStatement<K>(() => ({ toSQL: () => dialect.sqlToQuery(statement) }));
const at = (name: SlotBound | PageBound) => sql.placeholder(name);
const HOURS = (["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const).map((day) => resources[`opening_hours_${day}`]);

/**
 * A slot miss's rows (features/slots/queries.ts): the service, its provider resources, their
 * exception dates in range and everything occupying them over the span, through the one
 * occupancy definition (the bookings_resource_occupied index), as `[service, resources,
 * exceptions, occupants]`.
 */
const SLOT_ROWS = rendered<SlotBound>(sql`WITH slot_resource_ids(id) AS (
    SELECT ${providers.resource_id} FROM ${providers}
    INNER JOIN ${resources} ON ${resources.id} = ${providers.resource_id} AND ${resources.account_id} = ${at("account")}
    WHERE ${providers.account_id} = ${at("account")} AND ${providers.service_id} = ${at("service")} AND ${providers.active} = 1 AND ${resources.active} = 1)
  SELECT '[' || COALESCE((SELECT json_array(${sql.join(
    [
      services.id,
      services.booking_type,
      services.interval,
      services.interval_rounding,
      services.max_slots,
      services.has_day_booking,
      services.day_booking_specify_time,
      services.same_day,
      services.buffer_before,
      services.buffer_after,
    ],
    sql`, `,
  )}) FROM ${services} WHERE ${services.id} = ${at("service")} AND ${services.account_id} = ${at("account")}), 'null')
    || ',' || (SELECT json_group_array(json_array(${sql.join([resources.id, resources.capacity, ...HOURS], sql`, `)}))
      FROM ${resources} WHERE ${resources.id} IN (SELECT id FROM slot_resource_ids))
    || ',' || (SELECT json_group_array(json_array(${resourceExceptionDates.resource_id}, ${resourceExceptionDates.exception_date}, ${resourceExceptionDates.opening_hours}))
      FROM ${resourceExceptionDates} WHERE ${resourceExceptionDates.account_id} = ${at("account")}
        AND ${resourceExceptionDates.resource_id} IN (SELECT id FROM slot_resource_ids)
        AND ${resourceExceptionDates.exception_date} BETWEEN ${at("dateFrom")} AND ${at("dateTo")})
    || ',' || (SELECT json_group_array(json_array(resource_id, occupied_from, occupied_to, count))
      FROM (${occupantsSql({ resources: sql`(SELECT id FROM slot_resource_ids)`, from: at("from"), to: at("to"), now: at("now") })}))
    || ']' AS data`);

/**
 * A booking page's rows on a miss (features/bookings/queries.ts): the total, the page by
 * (account_id, booked_from) with the listed columns, and the people, resources, services and
 * events it names, as `[total, page, people, resources, services, events]`. The conditions are
 * the bench's listing: every booking not deleted from `start` on, as `GET /bookings?start=` asks.
 */
const pageWhere = and(eq(bookings.account_id, at("account")), ne(bookings.state, "deleted"), gte(bookings.booked_from, at("start")));
const related = <T extends typeof people | typeof resources | typeof services | typeof events>(table: T, row: SQL, column: string) =>
  sql`(SELECT json_group_array(${row}) FROM ${table} WHERE ${table.account_id} = ${at("account")} AND ${table.id} IN (SELECT ${sql.raw(column)} FROM page))`;
const PAGE_ROWS = rendered<PageBound>(sql`WITH page AS (
    SELECT ${jsonRow(bookings, LISTED_BOOKING_COLUMNS).field} AS row, ${bookings.person_id} AS person_id, ${bookings.resource_id} AS resource_id,
      ${bookings.service_id} AS service_id, ${bookings.event_id} AS event_id
    FROM ${bookings} WHERE ${pageWhere} ORDER BY ${bookings.booked_from}, ${bookings.id} LIMIT ${at("limit")})
  SELECT '[' || (SELECT count(*) FROM ${bookings} WHERE ${pageWhere})
    || ',[' || COALESCE((SELECT group_concat(row, ',') FROM page), '') || ']'
    || ',' || ${related(people, jsonRow(people, PERSON_OUT_COLUMNS).field, "person_id")}
    || ',' || ${related(resources, jsonRow(resources, everyColumn(resources)).field, "resource_id")}
    || ',' || ${related(services, jsonRow(services, everyColumn(services)).field, "service_id")}
    || ',' || ${related(events, jsonRow(events, everyColumn(events)).field, "event_id")}
    || ']' AS data`);

const encoder = new TextEncoder();
/** The text as exactly `bytes` bytes: padded with spaces (still JSON) or cut short (then not JSON: nobody parses a floor). */
function sized(text: string, bytes: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(new ArrayBuffer(bytes)).fill(0x20);
  encoder.encodeInto(text, body);
  return body;
}

// GET /__bench/data-floor/slots?service=&from=&to=&date_from=&date_to=&bytes= (instants in epoch ms,
// dates as the route's range) and /data-floor/bookings?start=&limit=&bytes=. Without `bytes`, the
// text as SQLite built it, which the bench and the test parse to check the rows are the route's.
floor.get("/data-floor/:read", async (c) => {
  const number = (name: string) => {
    const value = Number(c.req.query(name));
    if (!Number.isFinite(value)) throw ApiError.invalid(name, "must be a number");
    return value;
  };
  const { account, now } = c.var;
  const d1 = accountD1({ env: c.env, account });
  const read = c.req.param("read");
  let statement: D1PreparedStatement;
  if (read === "slots") {
    statement = bindFixed(d1, SLOT_ROWS, {
      account: account.id,
      service: number("service"),
      from: number("from"),
      to: number("to"),
      dateFrom: c.req.query("date_from") ?? "",
      dateTo: c.req.query("date_to") ?? "",
      now,
    });
  } else if (read === "bookings") {
    statement = bindFixed(d1, PAGE_ROWS, { account: account.id, start: number("start"), limit: number("limit") });
  } else {
    throw ApiError.notFound("data floor");
  }
  const [[text]] = await statement.raw<[string]>();
  const bytes = c.req.query("bytes") === undefined ? 0 : Math.min(MAX_BYTES, Math.max(0, number("bytes")));
  return c.body(bytes ? sized(text, bytes) : text, 200, { "content-type": "application/json" });
});

// The bench's clock (POST /__bench/clock): the paid mix runs this Worker ahead past its payment
// windows instead of waiting them out. Every instant of the app, its guard's and the Stripe SDK's
// signature check come from Date.now, so all of them move together (the guard and the app share
// this isolate under wrangler dev).
const realNow = Date.now;
let aheadMs = 0;
Date.now = () => realNow() + aheadMs;
floor.post("/clock", async (c) => {
  const { ahead_ms: ahead } = await c.req.json<{ ahead_ms: unknown }>();
  if (!Number.isInteger(ahead) || (ahead as number) < 0) return c.json({ error: "ahead_ms takes a whole number, 0 or more" }, 400);
  aheadMs = ahead as number;
  return c.json({ now: Date.now() });
});
// The every-minute cron, run now on this Worker's clock (the bench server has no scheduler).
floor.post("/cron", async (c) => {
  await handleScheduled({ scheduledTime: Date.now(), cron: "* * * * *", noRetry() {} }, c.env);
  return c.json({ ran_at: Date.now() });
});

// One retention pass on one shard (features/personal-data/retention.ts), now, whatever the minute of
// the hour (the cron runs it in the first minute of each): the personal-data suite times each pass.
floor.post("/retention/:shard", async (c) => {
  const { applyRetention } = await import("../src/features/personal-data/retention");
  await applyRetention(c.env, Date.now(), c.req.param("shard"));
  return c.json({ ran_at: Date.now() });
});

// One calendar subscription's sync, run in this request as the fetch queue's consumer runs it
// (features/calendar-subscriptions/sync.ts): the bench times it from outside, where the clock
// runs during CPU work too, which inside workerd it does not.
floor.post("/calendar-sync/:id", async (c) => {
  const { syncSubscription } = await import("../src/features/calendar-subscriptions/sync");
  const subscription = await c.var.db.query.calendarSubscriptions.findFirst({
    where: and(eq(calendarSubscriptions.id, Number(c.req.param("id"))), eq(calendarSubscriptions.account_id, c.var.account.id)),
  });
  if (!subscription) return c.json({ error: "no such calendar subscription" }, 404);
  return c.json(await syncSubscription(deps(c), subscription));
});

// What a fresh isolate has not seen (bench/routes.ts, its cold samples): the accounts it cached,
// their slot and booking-list answers. The next request of any account pays for a first sight.
floor.post("/forget", (c) => {
  forgetIsolateCaches();
  return c.json({ forgotten: true });
});

const benchFeatures: [string, Hono<AppEnv>][] = [...privateFeatures, ["/__bench", floor]];
const app = buildApp({ privateFeatures: benchFeatures, forwardBesideDatabase: true });

export default {
  // `--rtt N` (bench/rtt.ts): the bindings wait N ms per call, as for a visitor far from D1.
  // BENCH_D1_WRITE_MS (bench/single-writer.ts): each shard takes one write at a time.
  fetch: (request, env, ctx) => app.fetch(request, withRtt(withSingleWriter(env)), ctx),
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
