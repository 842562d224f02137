// What occupies a resource at an instant (issue 32, docs/decisions/calendar-subscriptions.md): the
// ONE definition every capacity reader of a resource renders. The guarded write's fits condition
// (bookings/capacity-sql.ts), the refusal memo's lapse read (bookings/refusal-memo.ts) and the slot
// statement whose rows the engine counts (slots/queries.ts) all select from it; the version
// triggers follow the same tables (db/invalidation.ts, HOUR_BUMPING). A new contributor is one
// more branch of the UNION below and one more table there.
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { fixedStatement, paramsOf, type FixedStatement } from "../../db/fixed-statement";
import type { SqlStatement } from "../../db/sql-statement";
import { busyTimes, bookings, slotHolds } from "../../db/schema";
import { isActiveSql, lapsesLaterSql, liveHoldSql } from "../bookings/active-sql";

/**
 * The seats a busy time takes: all of any resource's (more than any capacity, and the engine and
 * the fits condition both read "at least capacity" as full). A calendar kept elsewhere says the
 * person or room is busy, not that one seat of it is.
 */
const BUSY_SEATS = 1_000_000_000;

/** A value of the statement: bound as a parameter, a placeholder of a statement rendered once, or an expression. */
type Value = number | Placeholder | SQL;

export interface OccupantsOf {
  /** The resources, as a parenthesised list or subquery: `resource_id IN <resources>`. */
  resources: SQL;
  /** The span asked about, half-open: a row occupies it when occupied_from < to AND occupied_to > from. */
  from: Value;
  to: Value;
  now: number | Placeholder;
  /** A booking being moved or re-activated, whose own seats must not block it. */
  excludeBookingId?: number | Placeholder;
  /** The hold a create converts: its seats pass to the booking. */
  excludeHoldId?: number | Placeholder;
}

/**
 * Rows `(resource_id, occupied_from, occupied_to, count, lapses_at)` of everything occupying the
 * resources over the span: active bookings of the resource (not of an event) over their occupied
 * span, buffers included; live slot holds; busy times of its calendar subscriptions. `lapses_at`
 * is when the row stops occupying with no write (an unverified or unpaid booking, a hold), else null.
 */
export function occupantsSql(of: OccupantsOf): SQL {
  const notBooking = of.excludeBookingId !== undefined ? sql` AND ${bookings.id} != ${of.excludeBookingId}` : sql``;
  const notHold = of.excludeHoldId !== undefined ? sql` AND ${slotHolds.id} != ${of.excludeHoldId}` : sql``;
  return sql`SELECT ${bookings.resource_id} AS resource_id, ${bookings.occupied_from} AS occupied_from, ${bookings.occupied_to} AS occupied_to,
      ${bookings.count} AS count, CASE WHEN ${lapsesLaterSql(of.now)} THEN ${bookings.expires_at} END AS lapses_at
    FROM ${bookings}
    WHERE ${bookings.resource_id} IN ${of.resources} AND ${bookings.event_id} IS NULL AND ${isActiveSql(of.now)}
      AND ${bookings.occupied_from} < ${of.to} AND ${bookings.occupied_to} > ${of.from}${notBooking}
    UNION ALL
    SELECT ${slotHolds.resource_id}, ${slotHolds.occupied_from}, ${slotHolds.occupied_to}, ${slotHolds.count}, ${slotHolds.expires_at}
    FROM ${slotHolds}
    WHERE ${slotHolds.resource_id} IN ${of.resources} AND ${slotHolds.event_id} IS NULL AND ${liveHoldSql(of.now)}
      AND ${slotHolds.occupied_from} < ${of.to} AND ${slotHolds.occupied_to} > ${of.from}${notHold}
    UNION ALL
    SELECT ${busyTimes.resource_id}, ${busyTimes.occupied_from}, ${busyTimes.occupied_to}, ${sql.raw(String(BUSY_SEATS))}, NULL
    FROM ${busyTimes}
    WHERE ${busyTimes.resource_id} IN ${of.resources} AND ${busyTimes.occupied_from} < ${of.to} AND ${busyTimes.occupied_to} > ${of.from}`;
}

type Bound = "resource" | "from" | "to" | "now" | "excludeBooking" | "excludeHold";
const p = (name: Bound) => sql.placeholder(name);
const dialect = new SQLiteSyncDialect();
/** One text per shape (with or without each exclusion), rendered once per isolate: the guard's writes and refusals bind it (db/fixed-statement.ts). */
const byShape = new Map<string, FixedStatement<Bound>>();

export interface ResourceWindow {
  resourceId: number;
  from: number;
  to: number;
  now: number;
  excludeBookingId?: number;
  excludeHoldId?: number;
}

/** What occupies one resource over a window, as raw text and parameters for the guard's statements. */
export function resourceOccupants(w: ResourceWindow): SqlStatement {
  const excludesBooking = w.excludeBookingId !== undefined;
  const excludesHold = w.excludeHoldId !== undefined;
  const key = `${excludesBooking}|${excludesHold}`;
  let fixed = byShape.get(key);
  if (!fixed) {
    const rows = occupantsSql({
      resources: sql`(${p("resource")})`,
      from: p("from"),
      to: p("to"),
      now: p("now"),
      excludeBookingId: excludesBooking ? p("excludeBooking") : undefined,
      excludeHoldId: excludesHold ? p("excludeHold") : undefined,
    });
    fixed = fixedStatement<Bound>(() => ({ toSQL: () => dialect.sqlToQuery(rows) }));
    byShape.set(key, fixed);
  }
  return {
    sql: fixed.sql,
    params: paramsOf(fixed, {
      resource: w.resourceId,
      from: w.from,
      to: w.to,
      now: w.now,
      excludeBooking: w.excludeBookingId ?? null,
      excludeHold: w.excludeHoldId ?? null,
    }),
  };
}
