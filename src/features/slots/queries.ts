// The reads behind a slot answer in ONE D1 statement whatever the range or service kind: the
// service, its provider resources, their exception dates and the bookings holding capacity,
// and (for attendance services) the events in range with their seats held, plus the versions
// the answer depends on (the calendar version and the booking-hour versions of its resources and
// hours: db/invalidation.ts) and the first lapse a cached answer needs (answer-cache.ts). Reads
// select only the columns the engine uses, as JSON texts decoded here: the bookings of a 31-day
// range are thousands of rows, and Drizzle's row mapping was 41% of the request's CPU.
import { and, eq, gt, gte, inArray, lt, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import {
  bookingHourVersions,
  bookings,
  calendarVersions,
  events,
  hoursFromColumn,
  providers,
  resourceExceptionDates,
  resources,
  services,
  slotHolds,
  type OpeningHours,
} from "../../db/schema";
import { EVERY_HOUR, HOUR_MS } from "../../db/invalidation";
import { bindFixed, fixedStatement, type FixedStatement } from "../../db/fixed-statement";
import type { SlotServiceSettings } from "../../domain/slots";
import type { Deps } from "../../env";
import { accountD1 } from "../../db/shards";
import { lapsesLaterSql } from "../bookings/queries";
import { liveHoldSql } from "../bookings/active-sql";
import { occupantsSql } from "../occupancy/occupants-sql";
import { bookedCountsWhere } from "../events/queries";

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
  /** What occupies each resource (occupancy/occupants-sql.ts) in the engine's shape: `from`/`to` the occupied span, buffers included. */
  bookings: { resource_id: number; from: number; to: number; count: number }[];
  events: { id: number; resource_id: number; capacity: number; starts_at: number; ends_at: number }[];
  booked: Map<number, number>;
  /** The versions the rows depend on, in the same snapshot as the rows (a batch is one transaction). */
  version: string;
  /** When the first unverified booking in range stops holding capacity with no write (null: none does). */
  firstLapse: number | null;
}

const HOURS: Hours[] = [
  "opening_hours_mon",
  "opening_hours_tue",
  "opening_hours_wed",
  "opening_hours_thu",
  "opening_hours_fri",
  "opening_hours_sat",
  "opening_hours_sun",
];

/** What a slot read's statement differs by: each shape's SQL text is rendered once per isolate. */
interface Shape {
  publicOnly: boolean;
  selected: boolean;
}

type Bound = "account" | "service" | "selected" | "from" | "to" | "dateFrom" | "dateTo" | "now" | "hourFrom" | "hourTo" | "unless";
const p = (name: Bound) => sql.placeholder(name);

/** Every row of `rows` as one JSON array text: `[[…], […]]`, `[]` when none. */
const everyRow = (...columns: SQLWrapper[]) => sql`json_group_array(json_array(${sql.join(columns, sql`, `)}))`;

/**
 * The ONE statement of a slot read, as Drizzle renders it with placeholders: one row with the
 * versions and, unless they are still the cached answer's (`unless`), each read as one JSON
 * text. One statement rather than a batch of eight: each statement of a batch costs D1 its own
 * preparation, execution and result set, and a miss was mostly that (docs/decisions/latency.md,
 * "Misses that are cheap"); thousands of booking rows come back as one text, not one object each.
 */
function buildStatement({ publicOnly, selected }: Shape): FixedStatement<Bound> {
  const qb = new QueryBuilder();
  const serviceConditions = [eq(services.id, p("service")), eq(services.account_id, p("account"))];
  if (publicOnly) serviceConditions.push(eq(services.active, true));
  // Named once in a WITH clause: the service's kind and its provider resources are asked by most
  // reads below, and repeating their subqueries (with their parameters) neared D1's 100 per statement.
  const serviceKind = qb
    .select({ booking_type: services.booking_type, buffer_before: services.buffer_before, buffer_after: services.buffer_after })
    .from(services)
    .where(and(...serviceConditions));
  const ofKind = (kind: "appointment" | "attendance"): SQL => sql`EXISTS (SELECT 1 FROM slot_service WHERE booking_type = ${kind})`;

  const providerConditions = [eq(providers.account_id, p("account")), eq(providers.service_id, p("service")), eq(providers.active, true), eq(resources.active, true)];
  if (selected) providerConditions.push(inArray(resources.id, sql`(select value from json_each(${p("selected")}))`));
  const providerIdsQuery = qb
    .select({ id: providers.resource_id })
    .from(providers)
    .innerJoin(resources, and(eq(resources.id, providers.resource_id), eq(resources.account_id, p("account"))))
    .where(and(...providerConditions));
  const providerIds = sql`(SELECT id FROM slot_resource_ids)`;
  // A slot of a service with buffers needs its buffered span free (docs/decisions/buffers.md), so
  // the bookings read, and the hours whose versions the answer depends on, reach that far beyond the
  // range; bookings count over their occupied span. Without buffers these are the range itself.
  const buffer = (side: "buffer_before" | "buffer_after") => sql.raw(`COALESCE((SELECT ${side} FROM slot_service), 0)`);
  const heldFrom = sql`${p("from")} - ${buffer("buffer_before")} * 60000`;
  const heldTo = sql`${p("to")} + ${buffer("buffer_after")} * 60000`;

  const eventConditions = [
    eq(events.account_id, p("account")),
    eq(events.service_id, p("service")),
    eq(events.active, true),
    gte(events.starts_at, p("from")),
    lt(events.starts_at, p("to")),
    ofKind("attendance"),
  ];
  if (publicOnly) eventConditions.push(eq(events.published, true));

  const seatsHeld = qb
    .select({ event_id: bookings.event_id, held: sql`SUM(${bookings.count})`.as("held") })
    .from(bookings)
    .where(
      bookedCountsWhere(
        p("account"),
        qb
          .select({ id: events.id })
          .from(events)
          .where(and(...eventConditions)),
        p("now"),
      ),
    )
    .groupBy(bookings.event_id)
    .as("seats_held");

  const seatsOnHold = qb
    .select({ event_id: slotHolds.event_id, held: sql`SUM(${slotHolds.count})`.as("held") })
    .from(slotHolds)
    .where(
      and(
        eq(slotHolds.account_id, p("account")),
        inArray(
          slotHolds.event_id,
          qb
            .select({ id: events.id })
            .from(events)
            .where(and(...eventConditions)),
        ),
        liveHoldSql(p("now")),
      ),
    )
    .groupBy(slotHolds.event_id)
    .as("seats_on_hold");

  const reads: [string, unknown][] = [
    [
      "service",
      qb
        .select({
          row: sql`json_array(${sql.join(
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
          )})`,
        })
        .from(services)
        .where(and(...serviceConditions)),
    ],
    [
      "resources",
      qb
        .select({ rows: everyRow(resources.id, resources.capacity, ...HOURS.map((h) => resources[h])) })
        .from(resources)
        .where(and(inArray(resources.id, providerIds), ofKind("appointment"))),
    ],
    [
      "exceptions",
      qb
        .select({ rows: everyRow(resourceExceptionDates.resource_id, resourceExceptionDates.exception_date, resourceExceptionDates.opening_hours) })
        .from(resourceExceptionDates)
        .where(
          and(
            eq(resourceExceptionDates.account_id, p("account")),
            inArray(resourceExceptionDates.resource_id, providerIds),
            gte(resourceExceptionDates.exception_date, p("dateFrom")),
            lte(resourceExceptionDates.exception_date, p("dateTo")),
            ofKind("appointment"),
          ),
        ),
    ],
    // Everything that occupies the provider resources over the span (occupancy/occupants-sql.ts):
    // bookings over their occupied span, live holds, busy times. No account_id term: the resource
    // ids are the account's own (slot_resource_ids joins resources on account_id), and with it
    // SQLite (no statistics, as D1) read every booking of the account by (account_id, event_id)
    // instead of each resource's range by bookings_resource_occupied.
    [
      "occupants",
      sql`(SELECT ${everyRow(sql.raw("resource_id"), sql.raw("occupied_from"), sql.raw("occupied_to"), sql.raw("count"))}
      FROM (${occupantsSql({ resources: providerIds, from: heldFrom, to: heldTo, now: p("now") })}) WHERE ${ofKind("appointment")})`,
    ],
    [
      "events",
      qb
        .select({ rows: everyRow(events.id, events.resource_id, events.capacity, events.starts_at, events.ends_at) })
        .from(events)
        .where(and(...eventConditions)),
    ],
    // Seats held as the events feature counts them, so slots and event availability agree.
    ["booked", qb.select({ rows: everyRow(sql`${seatsHeld.event_id}`, sql`${seatsHeld.held}`) }).from(seatsHeld)],
    ["event_holds", qb.select({ rows: everyRow(sql`${seatsOnHold.event_id}`, sql`${seatsOnHold.held}`) }).from(seatsOnHold)],
    // A hold lapses by time, as an unverified booking does: the first of either ends a cached answer.
    [
      "hold_lapse",
      qb
        .select({ lapse: sql`MIN(${slotHolds.expires_at})` })
        .from(slotHolds)
        .where(and(eq(slotHolds.account_id, p("account")), liveHoldSql(p("now")), lt(slotHolds.occupied_from, heldTo), gt(slotHolds.occupied_to, heldFrom))),
    ],
    // Over every booking of the account in range, of either service kind: an early lapse only
    // makes a cached answer expire sooner.
    [
      "lapse",
      qb
        .select({ lapse: sql`MIN(${bookings.expires_at})` })
        .from(bookings)
        .where(and(lapsesLaterSql(p("now")), eq(bookings.account_id, p("account")), lt(bookings.occupied_from, heldTo), gt(bookings.occupied_to, heldFrom))),
    ],
  ];
  // Versions only grow, so the sum over the range's hour rows (and the every-hour rows) moves
  // whenever one of them does. Two sums, not one with OR: each is a search of the (resource_id,
  // hour) key, where an OR made SQLite scan the whole table.
  const hourSum = (hours: SQL) => sql`(SELECT COALESCE(SUM(${bookingHourVersions.version}), 0) FROM ${bookingHourVersions}
    WHERE ${inArray(bookingHourVersions.resource_id, providerIds)} AND ${hours})`;
  const version = sql`SELECT COALESCE((SELECT ${calendarVersions.version} FROM ${calendarVersions} WHERE ${calendarVersions.account_id} = ${p("account")}), 0)
    || ':' || (${hourSum(sql`${bookingHourVersions.hour} BETWEEN ${p("hourFrom")} - (${buffer("buffer_before")} + 59) / 60 AND ${p("hourTo")} + (${buffer("buffer_after")} + 59) / 60`)}
      + ${hourSum(sql`${bookingHourVersions.hour} = ${EVERY_HOUR}`)}) AS version`;
  // A CASE evaluates only the branch it takes, so while the versions are a cached answer's
  // (`unless`; NULL with none at hand) no read runs: hit or miss, one statement.
  const columns = reads.map(([name, read]) => sql`CASE WHEN versions.version = ${p("unless")} THEN NULL ELSE ${read} END AS ${sql.identifier(name)}`);
  const statement = sql`WITH slot_service AS ${serviceKind}, slot_resource_ids(id) AS ${providerIdsQuery}
    SELECT versions.version AS version, ${sql.join(columns, sql`, `)} FROM (${version}) AS versions`;
  return fixedStatement<Bound>(() => ({ toSQL: () => dialect.sqlToQuery(statement) }));
}

const dialect = new SQLiteSyncDialect();
const statementsByShape = new Map<string, FixedStatement<Bound>>();

function statementOf(shape: Shape): FixedStatement<Bound> {
  const key = `${shape.publicOnly}|${shape.selected}`;
  let found = statementsByShape.get(key);
  if (!found) statementsByShape.set(key, (found = buildStatement(shape)));
  return found;
}

/** The one row the statement answers: the versions, and each read as a JSON text (null when not run). */
interface ReadRow {
  version: string;
  service: string | null;
  resources: string | null;
  exceptions: string | null;
  occupants: string | null;
  events: string | null;
  booked: string | null;
  event_holds: string | null;
  lapse: number | null;
  hold_lapse: number | null;
}

const rowsOf = <T>(text: string | null): T[] => (text ? (JSON.parse(text) as T[]) : []);

/** Seats per event: booked, plus held by live holds. */
function seatsTaken(booked: [number, number | null][], held: [number, number | null][]): Map<number, number> {
  const seats = new Map(booked.map(([eventId, n]) => [eventId, Number(n ?? 0)]));
  for (const [eventId, n] of held) seats.set(eventId, (seats.get(eventId) ?? 0) + Number(n ?? 0));
  return seats;
}

const earliest = (...instants: (number | null | undefined)[]): number | null => {
  const known = instants.filter((t): t is number => t != null).map(Number);
  return known.length ? Math.min(...known) : null;
};

export async function slotReads(
  { env, account, now }: Deps,
  serviceId: number,
  instants: { from: number; to: number },
  dates: { from: string; to: string },
  options: { selected?: number[]; publicOnly: boolean; unlessVersion?: string },
): Promise<SlotReads | "unchanged"> {
  const values: Record<Bound, string | number | null> = {
    account: account.id,
    service: serviceId,
    selected: options.selected ? JSON.stringify(options.selected) : null,
    from: instants.from,
    to: instants.to,
    dateFrom: dates.from,
    dateTo: dates.to,
    now,
    hourFrom: Math.floor(instants.from / HOUR_MS),
    hourTo: Math.floor((instants.to - 1) / HOUR_MS),
    unless: options.unlessVersion ?? null,
  };
  const d1 = accountD1({ env, account });
  const row = await bindFixed(d1, statementOf({ publicOnly: options.publicOnly, selected: options.selected !== undefined }), values).first<ReadRow>();
  const current = String(row?.version ?? "");
  if (current === options.unlessVersion) return "unchanged";

  const service = row?.service ? (JSON.parse(row.service) as [number, string, number, number | null, number, number, number, number, number, number]) : null;
  type Hours7 = [OpeningHours, OpeningHours, OpeningHours, OpeningHours, OpeningHours, OpeningHours, OpeningHours];
  return {
    service: service
      ? {
          id: service[0],
          booking_type: service[1],
          interval: service[2],
          interval_rounding: service[3],
          max_slots: service[4],
          has_day_booking: service[5] === 1,
          day_booking_specify_time: service[6] === 1,
          same_day: service[7] === 1,
          buffer_before: service[8],
          buffer_after: service[9],
        }
      : null,
    resources: rowsOf<[number, number, ...Hours7]>(row?.resources ?? null)
      .map(([id, capacity, ...hours]) => ({ id, capacity, ...Object.fromEntries(HOURS.map((h, i) => [h, hoursFromColumn(hours[i])])) }) as SlotResourceRow)
      .sort((a, b) => a.id - b.id),
    exceptions: rowsOf<[number, string, OpeningHours]>(row?.exceptions ?? null).map(([resource_id, exception_date, hours]) => ({
      resource_id,
      exception_date,
      opening_hours: hoursFromColumn(hours),
    })),
    bookings: rowsOf<[number, number, number, number]>(row?.occupants ?? null).map(([resource_id, from, to, count]) => ({ resource_id, from, to, count })),
    // Sorted here: an aggregate keeps no order.
    events: rowsOf<[number, number, number, number, number]>(row?.events ?? null)
      .map(([id, resource_id, capacity, starts_at, ends_at]) => ({ id, resource_id, capacity, starts_at, ends_at }))
      .sort((a, b) => a.starts_at - b.starts_at || a.id - b.id),
    booked: seatsTaken(rowsOf<[number, number | null]>(row?.booked ?? null), rowsOf<[number, number | null]>(row?.event_holds ?? null)),
    version: current,
    firstLapse: earliest(row?.lapse, row?.hold_lapse),
  };
}
