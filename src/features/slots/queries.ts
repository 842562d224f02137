// The reads behind a slot answer in ONE D1 round trip whatever the range or service kind: the
// service, its provider resources, their exception dates and the bookings holding capacity,
// and (for attendance services) the events in range with their seats held, plus the versions
// the answer depends on (the calendar version and the booking-day versions of its resources and
// days: db/invalidation.ts) and the first lapse a cached answer needs (answer-cache.ts). Statements
// select only the columns the engine uses and run as raw D1 statements: the bookings of a 31-day
// range are thousands of rows, and Drizzle's row mapping was 41% of the request's CPU.
import { and, eq, exists, gt, gte, inArray, isNull, lt, lte, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { bookingHourVersions, bookings, calendarVersions, events, hoursFromColumn, providers, resourceExceptionDates, resources, services, type OpeningHours } from "../../db/schema";
import { EVERY_HOUR, HOUR_MS } from "../../db/invalidation";
import { bindFixed, fixedStatement, type FixedStatement } from "../../db/fixed-statement";
import type { SlotServiceSettings } from "../../domain/slots";
import type { Deps } from "../../env";
import { accountD1 } from "../../db/shards";
import { isActiveSql, lapsesLaterSql } from "../bookings/queries";
import { bookedCountsColumns, bookedCountsWhere } from "../events/queries";

/** The service columns the slot reads select: the engine's settings, and what picks the slot kind. */
interface SlotService extends SlotServiceSettings {
  id: number;
  booking_type: string;
}

type Hours = `opening_hours_${"mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun"}`;
type SlotResourceRow = { id: number; capacity: number } & { [K in Hours]: OpeningHours };

interface SlotReads {
  service: SlotService | null;
  resources: SlotResourceRow[];
  exceptions: { resource_id: number; exception_date: string; opening_hours: OpeningHours }[];
  /** Already in the engine's shape (`from`/`to` aliased in SQL), so no object per row is built here. */
  bookings: { resource_id: number; from: number; to: number; count: number }[];
  events: { id: number; resource_id: number; capacity: number; starts_at: number; ends_at: number }[];
  booked: Map<number, number>;
  /** The versions the rows depend on, in the same snapshot as the rows (a batch is one transaction). */
  version: string;
  /** When the first unverified booking in range stops holding capacity with no write (null: none does). */
  firstLapse: number | null;
}

const HOURS: Hours[] = ["opening_hours_mon", "opening_hours_tue", "opening_hours_wed", "opening_hours_thu", "opening_hours_fri", "opening_hours_sat", "opening_hours_sun"];

/** What a slot read's statements differ by: each shape's SQL text is rendered once per isolate. */
interface Shape {
  publicOnly: boolean;
  selected: boolean;
  /** Each read runs only when the versions moved on from a cached answer's. */
  unlessVersion: boolean;
}

type Bound = "account" | "service" | "selected" | "from" | "to" | "dateFrom" | "dateTo" | "now" | "hourFrom" | "hourTo" | "unless";
const p = (name: Bound) => sql.placeholder(name);

/**
 * The batch's statements for one shape, the versions first, as Drizzle renders them with
 * placeholders. Rendering the eight statements per request was 1.5-3 ms of CPU, as much as a
 * whole trivial request (docs/decisions/latency.md, "Misses that are cheap").
 */
function buildStatements({ publicOnly, selected, unlessVersion }: Shape): FixedStatement<Bound>[] {
  const qb = new QueryBuilder();
  const serviceConditions = [eq(services.id, p("service")), eq(services.account_id, p("account"))];
  if (publicOnly) serviceConditions.push(eq(services.active, true));
  const ofKind = (kind: "appointment" | "attendance"): SQL =>
    exists(qb.select({ one: sql`1` }).from(services).where(and(...serviceConditions, eq(services.booking_type, kind))));

  const providerConditions = [
    eq(providers.account_id, p("account")),
    eq(providers.service_id, p("service")),
    eq(providers.active, true),
    eq(resources.active, true),
  ];
  if (selected) providerConditions.push(inArray(resources.id, sql`(select value from json_each(${p("selected")}))`));
  const providerIds = qb
    .select({ id: providers.resource_id })
    .from(providers)
    .innerJoin(resources, and(eq(resources.id, providers.resource_id), eq(resources.account_id, p("account"))))
    .where(and(...providerConditions));

  const eventConditions = [
    eq(events.account_id, p("account")),
    eq(events.service_id, p("service")),
    eq(events.active, true),
    gte(events.starts_at, p("from")),
    lt(events.starts_at, p("to")),
    ofKind("attendance"),
  ];
  if (publicOnly) eventConditions.push(eq(events.published, true));

  const queries = [
    qb.select({
      id: services.id, booking_type: services.booking_type, interval: services.interval, interval_rounding: services.interval_rounding,
      max_slots: services.max_slots, has_day_booking: services.has_day_booking, day_booking_specify_time: services.day_booking_specify_time, same_day: services.same_day,
    }).from(services).where(and(...serviceConditions)),
    qb.select({ id: resources.id, capacity: resources.capacity, ...Object.fromEntries(HOURS.map((h) => [h, resources[h]])) })
      .from(providers)
      .innerJoin(resources, and(eq(resources.id, providers.resource_id), eq(resources.account_id, p("account"))))
      .where(and(...providerConditions, ofKind("appointment"))),
    qb.select({ resource_id: resourceExceptionDates.resource_id, exception_date: resourceExceptionDates.exception_date, opening_hours: resourceExceptionDates.opening_hours })
      .from(resourceExceptionDates)
      .where(and(
        eq(resourceExceptionDates.account_id, p("account")),
        inArray(resourceExceptionDates.resource_id, providerIds),
        gte(resourceExceptionDates.exception_date, p("dateFrom")),
        lte(resourceExceptionDates.exception_date, p("dateTo")),
        ofKind("appointment"),
      )),
    qb.select({ resource_id: bookings.resource_id, from: sql`${bookings.booked_from}`.as("from"), to: sql`${bookings.booked_to}`.as("to"), count: bookings.count })
      .from(bookings)
      .where(and(
        eq(bookings.account_id, p("account")),
        inArray(bookings.resource_id, providerIds),
        isNull(bookings.event_id), // event bookings count against the event, not the resource
        isActiveSql(p("now")),
        lt(bookings.booked_from, p("to")),
        gt(bookings.booked_to, p("from")),
        ofKind("appointment"),
      )),
    qb.select({ id: events.id, resource_id: events.resource_id, capacity: events.capacity, starts_at: events.starts_at, ends_at: events.ends_at })
      .from(events)
      .where(and(...eventConditions)),
    // Seats held as the events feature counts them, so slots and event availability agree.
    qb.select(bookedCountsColumns).from(bookings)
      .where(bookedCountsWhere(p("account"), qb.select({ id: events.id }).from(events).where(and(...eventConditions)), p("now")))
      .groupBy(bookings.event_id),
    // Over every booking of the account in range, of either service kind: an early lapse only
    // makes a cached answer expire sooner.
    qb.select({ lapse: sql`MIN(${bookings.expires_at})`.as("lapse") }).from(bookings).where(and(
      lapsesLaterSql(p("now")),
      eq(bookings.account_id, p("account")),
      lt(bookings.booked_from, p("to")),
      gt(bookings.booked_to, p("from")),
    )),
  ];
  // Versions only grow, so the sum over the range's hour rows (and the every-hour rows) moves
  // whenever one of them does. Two sums, not one with OR: each is a search of the (resource_id,
  // hour) key, where an OR made SQLite scan the whole table.
  const hourSum = (hours: SQL) => sql`(SELECT COALESCE(SUM(${bookingHourVersions.version}), 0) FROM ${bookingHourVersions}
    WHERE ${inArray(bookingHourVersions.resource_id, providerIds)} AND ${hours})`;
  const version = sql`SELECT COALESCE((SELECT ${calendarVersions.version} FROM ${calendarVersions} WHERE ${calendarVersions.account_id} = ${p("account")}), 0)
    || ':' || (${hourSum(sql`${bookingHourVersions.hour} BETWEEN ${p("hourFrom")} AND ${p("hourTo")}`)}
      + ${hourSum(sql`${bookingHourVersions.hour} = ${EVERY_HOUR}`)}) AS version`;
  const versionStatement = fixedStatement<Bound>(() => ({ toSQL: () => dialect.sqlToQuery(version) }));
  return [versionStatement, ...queries.map((q) => {
    const read = fixedStatement<Bound>(() => q);
    if (!unlessVersion) return read;
    // With a cached answer at hand, each read runs only when the versions moved on: on a hit the
    // batch reads the version rows and nothing else, so hit or miss is one round trip. The
    // one-row (or no-row) left side of a CROSS JOIN is the outer loop, so a hit never starts the
    // inner query (a constant WHERE term would still scan it).
    return {
      sql: `SELECT q.* FROM (SELECT 1 WHERE (${versionStatement.sql}) != ?) CROSS JOIN (${read.sql}) AS q`,
      params: [...versionStatement.params, { name: "unless" as const }, ...read.params],
    };
  })];
}

const dialect = new SQLiteSyncDialect();
const statementsByShape = new Map<string, FixedStatement<Bound>[]>();

function statementsOf(shape: Shape): FixedStatement<Bound>[] {
  const key = `${shape.publicOnly}|${shape.selected}|${shape.unlessVersion}`;
  let found = statementsByShape.get(key);
  if (!found) statementsByShape.set(key, (found = buildStatements(shape)));
  return found;
}

export async function slotReads(
  { env, account, now }: Deps,
  serviceId: number,
  instants: { from: number; to: number },
  dates: { from: string; to: string },
  options: { selected?: number[]; publicOnly: boolean; unlessVersion?: string },
): Promise<SlotReads | "unchanged"> {
  const shape = { publicOnly: options.publicOnly, selected: options.selected !== undefined, unlessVersion: options.unlessVersion !== undefined };
  const values: Record<Bound, string | number | null> = {
    account: account.id, service: serviceId, selected: options.selected ? JSON.stringify(options.selected) : null,
    from: instants.from, to: instants.to, dateFrom: dates.from, dateTo: dates.to, now,
    hourFrom: Math.floor(instants.from / HOUR_MS), hourTo: Math.floor((instants.to - 1) / HOUR_MS),
    unless: options.unlessVersion ?? null,
  };
  const d1 = accountD1({ env, account });
  const statements = statementsOf(shape).map((statement) => bindFixed(d1, statement, values));
  const results = await d1.batch(statements);
  const current = String((results[0].results?.[0] as { version?: string } | undefined)?.version ?? "");
  if (current === options.unlessVersion) return "unchanged";
  const rows = (i: number) => (results[i + 1].results ?? []) as Record<string, any>[];

  const [service] = rows(0);
  return {
    service: service
      ? {
        id: service.id, booking_type: service.booking_type, interval: service.interval, interval_rounding: service.interval_rounding,
        max_slots: service.max_slots, has_day_booking: service.has_day_booking === 1,
        day_booking_specify_time: service.day_booking_specify_time === 1, same_day: service.same_day === 1,
      }
      : null,
    resources: rows(1).map((r) => ({ id: r.id, capacity: r.capacity, ...Object.fromEntries(HOURS.map((h) => [h, hoursFromColumn(r[h])])) }) as SlotResourceRow),
    exceptions: rows(2).map((r) => ({ resource_id: r.resource_id, exception_date: r.exception_date, opening_hours: hoursFromColumn(r.opening_hours) })),
    bookings: rows(3) as SlotReads["bookings"],
    // Sorted here: the order of a subquery's rows is not kept through the join above.
    events: (rows(4) as SlotReads["events"]).sort((a, b) => a.starts_at - b.starts_at || a.id - b.id),
    // By position: the sum's column is named after its SQL text, not the select's key.
    booked: new Map(rows(5).map((r) => { const [eventId, held] = Object.values(r); return [Number(eventId), Number(held ?? 0)]; })),
    version: current,
    firstLapse: rows(6)[0]?.lapse == null ? null : Number(rows(6)[0].lapse),
  };
}
