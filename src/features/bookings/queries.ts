// Booking reads: one booking by id or external_id, pages of a listing, and the related rows
// of a page loaded with one query per kind (no N+1). Every query filters on account_id.
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { QueryBuilder, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { bookings, events, listingVersions, people, resources, services, type Booking, type Event, type Person, type Resource, type Service } from "../../db/schema";
import { inIds } from "../../db/id-list";
import { everyColumn, jsonRow } from "../../db/json-row";
import { fixedStatement, paramsOf, type FixedStatement } from "../../db/fixed-statement";
import type { SqlStatement } from "../../db/sql-statement";
import { ACTIVE_STATES } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { pageOf, syncPageOf } from "../../db/page";
import type { SyncDirection } from "../../db/sync-order";
import type { PageRequest } from "../../http/pagination";
import { found } from "../../http/serialize";
import { accountD1 } from "../../db/shards";
import { isActiveSql, lapsesLaterSql } from "./active-sql";
import { bookedCountsQuery, toBookedMap } from "../events/queries";
import { PERSON_OUT_COLUMNS } from "../people/serializer";
import { LISTED_BOOKING_COLUMNS, type ListedBooking, type ListedRelated, type Related } from "./serializer";

export const bookingOfAccount = ({ account }: Deps, id: number) => and(eq(bookings.id, id), eq(bookings.account_id, account.id));

export function getBooking(deps: Deps, id: number): Promise<Booking> {
  return found(deps.db.query.bookings.findFirst({ where: bookingOfAccount(deps, id) }), "booking");
}

export { inEffectiveStates, isActiveSql, lapsesLaterSql } from "./active-sql";

export const ACTIVE = [...ACTIVE_STATES];

export type ListOrder = "booked_from" | "booked_from_desc";

const ORDERS: Record<ListOrder, SQL[]> = {
  booked_from: [asc(bookings.booked_from), asc(bookings.id)],
  booked_from_desc: [desc(bookings.booked_from), desc(bookings.id)],
};

/** A page's bookings and people carry only the columns the answer shows, one JSON text per row. */
const listedBookingRow = jsonRow(bookings, LISTED_BOOKING_COLUMNS);
const listedPersonRow = jsonRow(people, PERSON_OUT_COLUMNS);
const resourceRow = jsonRow(resources, everyColumn(resources));
const serviceRow = jsonRow(services, everyColumn(services));
const eventRow = jsonRow(events, everyColumn(events));

// biome-ignore lint/suspicious/noConstEnum: file-local, so isolated modules inline it
const enum RelatedKind {
  Person,
  Resource,
  Service,
  Event,
  Booked,
}

/**
 * Every row the page's bookings refer to, in ONE statement of the page's batch: the page's
 * references are read once (a CTE used more than once is materialised) instead of once per kind,
 * which was a walk of the page's 750 index entries per statement.
 */
const relatedOfPage =
  ({ db, account, now }: Deps) =>
  (pageIds: SQL) => [
    // A select from the compound as a subquery: Drizzle's batch cannot run `db.all(sql)` with parameters.
    db.select({ kind: sql<RelatedKind>`kind`, row: sql<string>`row` }).from(sql`(
    WITH page AS (SELECT ${bookings.person_id}, ${bookings.resource_id}, ${bookings.service_id}, ${bookings.event_id}
                  FROM ${bookings} WHERE ${bookings.account_id} = ${account.id} AND ${bookings.id} IN ${pageIds})
    SELECT ${RelatedKind.Person} AS kind, ${listedPersonRow.field} AS row FROM ${people}
      WHERE ${people.account_id} = ${account.id} AND ${people.id} IN (SELECT person_id FROM page)
    UNION ALL SELECT ${RelatedKind.Resource}, ${resourceRow.field} FROM ${resources}
      WHERE ${resources.account_id} = ${account.id} AND ${resources.id} IN (SELECT resource_id FROM page)
    UNION ALL SELECT ${RelatedKind.Service}, ${serviceRow.field} FROM ${services}
      WHERE ${services.account_id} = ${account.id} AND ${services.id} IN (SELECT service_id FROM page)
    UNION ALL SELECT ${RelatedKind.Event}, ${eventRow.field} FROM ${events}
      WHERE ${events.account_id} = ${account.id} AND ${events.id} IN (SELECT event_id FROM page)
    UNION ALL SELECT ${RelatedKind.Booked}, json_array(${bookings.event_id}, SUM(${bookings.count})) FROM ${bookings}
      WHERE ${bookings.account_id} = ${account.id} AND ${bookings.event_id} IN (SELECT event_id FROM page) AND ${isActiveSql(now)}
      GROUP BY ${bookings.event_id}) AS related`),
  ];

function pageRelatedFrom([rows]: [{ kind: RelatedKind; row: string }[]]): ListedRelated {
  const related: ListedRelated = { people: new Map(), resources: new Map(), services: new Map(), events: new Map(), booked: new Map() };
  const add = <T extends { id: number }>(map: Map<number, T>, value: T) => map.set(value.id, value);
  for (const { kind, row } of rows) {
    switch (kind) {
      case RelatedKind.Person:
        add(related.people, listedPersonRow.decode(row));
        break;
      case RelatedKind.Resource:
        add(related.resources, resourceRow.decode(row));
        break;
      case RelatedKind.Service:
        add(related.services, serviceRow.decode(row));
        break;
      case RelatedKind.Event:
        add(related.events, eventRow.decode(row));
        break;
      case RelatedKind.Booked: {
        const [eventId, held] = JSON.parse(row) as [number, number | null];
        related.booked.set(eventId, held ?? 0);
      }
    }
  }
  return related;
}

/** What a cached list answer must know about the listing besides its rows (list-answer.ts). */
export interface ListChecks {
  /** Whether the owner of the listing (a person, an event, a collection) is the account's: the listing is a 404 when not. */
  owner?: SQL;
  /** The listing keeps `booked_to > now` (upcoming without `from`): rows leave it as time passes. */
  endsWithTime: boolean;
}

/** Read in the page's batch (one transaction), so it describes exactly the rows read with it. */
export interface ListFreshness {
  /** The account's listing version (drizzle/0009), 0 before its first write. */
  version: number;
  /** The first instant the same query could answer otherwise with no write: a lapse, or a row leaving. */
  validUntil: number;
  ownerFound: boolean;
}

export const ownerExists = ({ account }: Deps, owner: { kind: "person" | "event"; id: number }): SQL => {
  const table = owner.kind === "person" ? people : events;
  return sql`EXISTS (SELECT 1 FROM ${table} WHERE ${table.id} = ${owner.id} AND ${table.account_id} = ${account.id})`;
};

/**
 * One row of scalars: the version, the first lapse of the account's unverified bookings (it
 * changes states, `active`, filters and events' seats held at once), the first end among the
 * listing's rows when time takes rows out of it, and the owner's existence.
 */
const freshnessOf = (deps: Deps, where: SQL | undefined, checks: ListChecks) => {
  const { db, account, now } = deps;
  // Aliased: D1 answers rows as objects, keyed by column name, and Drizzle reads them back by
  // position, so an unaliased `1` (an integer-like key comes first in an object) would move.
  return db
    .select({
      version: sql<number | null>`(SELECT ${listingVersions.version} FROM ${listingVersions} WHERE ${listingVersions.account_id} = ${account.id})`.as("version"),
      lapse: sql<number | null>`(SELECT MIN(${bookings.expires_at}) FROM ${bookings} WHERE ${bookings.account_id} = ${account.id} AND ${lapsesLaterSql(now)})`.as(
        "lapse",
      ),
      end: (checks.endsWithTime ? sql<number | null>`(SELECT MIN(${bookings.booked_to}) FROM ${bookings} WHERE ${where})` : sql<null>`NULL`).as("end_at"),
      owner: (checks.owner ? sql<number>`${checks.owner}` : sql<number>`1`).as("owner_found"),
    })
    .from(sql`(SELECT 1)`);
};

type FreshnessRow = { version: number | null; lapse: number | null; end: number | null; owner: number };

function freshnessFrom([row]: FreshnessRow[]): ListFreshness {
  const bounds = [row.lapse, row.end].filter((t): t is number => t !== null).map(Number);
  return { version: Number(row.version ?? 0), validUntil: Math.min(Infinity, ...bounds), ownerFound: Number(row.owner) === 1 };
}

/** The related rows and the freshness row, alongside the page in its one batch. */
const alongsidePage = (deps: Deps, where: SQL | undefined, checks: ListChecks) => (pageIds: SQL) => [...relatedOfPage(deps)(pageIds), freshnessOf(deps, where, checks)];

function extrasFrom(extra: unknown[]) {
  const [related, freshness] = extra as [{ kind: RelatedKind; row: string }[], FreshnessRow[]];
  return { related: pageRelatedFrom([related]), freshness: freshnessFrom(freshness) };
}

export async function pageOfBookings(
  deps: Deps,
  conditions: SQL[],
  order: ListOrder,
  request: PageRequest,
  checks: ListChecks = { endsWithTime: false },
): Promise<{ rows: ListedBooking[]; total: number; related: ListedRelated; freshness: ListFreshness }> {
  const where = and(eq(bookings.account_id, deps.account.id), ...conditions);
  const { rows, total, extra } = await pageOf(deps.db, bookings, where, ORDERS[order], request, alongsidePage(deps, where, checks), listedBookingRow);
  return { rows, total, ...extrasFrom(extra) };
}

export async function syncPageOfBookings(deps: Deps, conditions: SQL[], direction: SyncDirection, request: PageRequest, checks: ListChecks) {
  const where = and(eq(bookings.account_id, deps.account.id), ...conditions);
  const { extra, ...page } = await syncPageOf(
    deps.db,
    bookings,
    { updatedAt: bookings.updated_at, id: bookings.id },
    where,
    direction,
    request,
    alongsidePage(deps, where, checks),
    listedBookingRow,
  );
  return { ...page, ...extrasFrom(extra) };
}

/** The listing version alone: all a cached list answer costs (list-answer.ts). Through the request's session. */
export async function listingVersion({ env, account }: Deps): Promise<number> {
  const version = await accountD1({ env, account }).prepare("SELECT version FROM listing_versions WHERE account_id = ?").bind(account.id).first<number>("version");
  return Number(version ?? 0);
}

const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v !== null))];
const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/**
 * Related rows already read for one booking object in this request (with it, in one batch), so
 * the answer and the effects that follow a write do not read them again.
 */
const relatedOfBooking = new WeakMap<Booking, Related>();

/** The related-row statements of the bookings `which` selects, by subquery: batched with the bookings. */
function relatedQueries({ db, account, now }: Deps, which: SQL) {
  const column = (c: SQLiteColumn) => db.select({ id: c }).from(bookings).where(which);
  return [
    db
      .select()
      .from(people)
      .where(and(eq(people.account_id, account.id), inArray(people.id, column(bookings.person_id)))),
    db
      .select()
      .from(resources)
      .where(and(eq(resources.account_id, account.id), inArray(resources.id, column(bookings.resource_id)))),
    db
      .select()
      .from(services)
      .where(and(eq(services.account_id, account.id), inArray(services.id, column(bookings.service_id)))),
    db
      .select()
      .from(events)
      .where(and(eq(events.account_id, account.id), inArray(events.id, column(bookings.event_id)))),
    bookedCountsQuery(db, account.id, column(bookings.event_id), now),
  ] as const;
}

type RelatedRows = [Person[], Resource[], Service[], Event[], { event_id: number | null; booked: number | null }[]];
const relatedFrom = ([p, r, s, e, booked]: RelatedRows): Related => ({
  people: byId(p),
  resources: byId(r),
  services: byId(s),
  events: byId(e),
  booked: toBookedMap(booked),
});

/**
 * The booking and its related rows in one round trip (GET one, the re-read after a create);
 * `before` is a write that goes first in the same batch (a create's person fill).
 */
export function getBookingWithRelated(deps: Deps, id: number, before?: BatchItem<"sqlite"> | BatchItem<"sqlite">[]): Promise<Booking> {
  return bookingWithRelated(deps, bookingOfAccount(deps, id)!, before);
}

/**
 * The most recent booking carrying the external id (external ids are the client's, not unique),
 * with its related rows in the same batch.
 */
export function getBookingByExternalId(deps: Deps, externalId: string): Promise<Booking> {
  const latest = deps.db
    .select({ id: sql`MAX(${bookings.id})` })
    .from(bookings)
    .where(and(eq(bookings.account_id, deps.account.id), eq(bookings.external_id, externalId)));
  return bookingWithRelated(deps, and(eq(bookings.account_id, deps.account.id), eq(bookings.id, latest))!);
}

async function bookingWithRelated(deps: Deps, which: SQL, before?: BatchItem<"sqlite"> | BatchItem<"sqlite">[]): Promise<Booking> {
  const { db } = deps;
  const read = [db.select().from(bookings).where(which).limit(1), ...relatedQueries(deps, which)] as const;
  const writes = before === undefined ? [] : Array.isArray(before) ? before : [before];
  const [rows, ...related] =
    writes.length > 0 ? (await db.batch([...writes, ...read] as unknown as Parameters<typeof db.batch>[0])).slice(writes.length) : await db.batch(read);
  const booking = await found(rows[0], "booking");
  relatedOfBooking.set(booking, relatedFrom(related as RelatedRows));
  return booking;
}

/**
 * A booking and its related rows, as `relatedQueries` reads them, as raw statements for a write's
 * own batch: the booking a create inserted earlier in it (one transaction, so the largest id of
 * the bookings table: ids only grow; guarded-write.ts, `runCreate`), or the booking an update
 * names (`runUpdate`). Each row is one JSON text (db/json-row.ts), so it comes back as Drizzle's
 * select of every column gives it. Rendered once per isolate and per kind (db/fixed-statement.ts).
 */
const readBackBookingRow = jsonRow(bookings, everyColumn(bookings));
const readBackPersonRow = jsonRow(people, everyColumn(people));
const readBackResourceRow = jsonRow(resources, everyColumn(resources));
const readBackServiceRow = jsonRow(services, everyColumn(services));
const readBackEventRow = jsonRow(events, everyColumn(events));
const readBackQb = new QueryBuilder();
const readBackAccount = sql.placeholder("accountId");
const readBackNow = sql.placeholder("now") as unknown as number;

function readsOfBooking<K extends string>(bookingId: () => SQL): FixedStatement<K | "accountId" | "now">[] {
  const which = () => and(eq(bookings.account_id, readBackAccount), eq(bookings.id, bookingId()));
  const column = (c: SQLiteColumn) => readBackQb.select({ id: c }).from(bookings).where(which());
  return [
    fixedStatement(() =>
      readBackQb
        .select({ row: readBackBookingRow.field.as("row") })
        .from(bookings)
        .where(which())
        .limit(1),
    ),
    fixedStatement(() =>
      readBackQb
        .select({ row: readBackPersonRow.field.as("row") })
        .from(people)
        .where(and(eq(people.account_id, readBackAccount), inArray(people.id, column(bookings.person_id)))),
    ),
    fixedStatement(() =>
      readBackQb
        .select({ row: readBackResourceRow.field.as("row") })
        .from(resources)
        .where(and(eq(resources.account_id, readBackAccount), inArray(resources.id, column(bookings.resource_id)))),
    ),
    fixedStatement(() =>
      readBackQb
        .select({ row: readBackServiceRow.field.as("row") })
        .from(services)
        .where(and(eq(services.account_id, readBackAccount), inArray(services.id, column(bookings.service_id)))),
    ),
    fixedStatement(() =>
      readBackQb
        .select({ row: readBackEventRow.field.as("row") })
        .from(events)
        .where(and(eq(events.account_id, readBackAccount), inArray(events.id, column(bookings.event_id)))),
    ),
    fixedStatement(() =>
      readBackQb
        .select({ event_id: bookings.event_id, booked: sql<number>`SUM(${bookings.count})`.as("booked") })
        .from(bookings)
        .where(and(eq(bookings.account_id, readBackAccount), inArray(bookings.event_id, column(bookings.event_id)), isActiveSql(readBackNow)))
        .groupBy(bookings.event_id),
    ),
  ];
}

const INSERTED_READS = readsOfBooking<never>(() => sql`(SELECT MAX(id) FROM bookings)`);
const BY_ID_READS = readsOfBooking<"id">(() => sql`${sql.placeholder("id")}`);

/** The reads of `bookingFromReads` for the booking a create's batch inserted, bound for this request. */
export const insertedBookingReads = ({ account, now }: Deps): SqlStatement[] =>
  INSERTED_READS.map((statement) => ({ sql: statement.sql, params: paramsOf(statement, { accountId: account.id, now }) }));

/** The reads of `bookingFromReads` for booking `id`, bound for this request: after an update in its batch. */
export const bookingReads = ({ account, now }: Deps, id: number): SqlStatement[] =>
  BY_ID_READS.map((statement) => ({ sql: statement.sql, params: paramsOf(statement, { accountId: account.id, now, id }) }));

type JsonRows = Record<string, unknown>[] | undefined;
const decodeAll = <R>(row: { decode(text: string): R }, rows: JsonRows): R[] => (rows ?? []).map((r) => row.decode(r.row as string));

/**
 * The booking and its related rows from the rows of `insertedBookingReads` or `bookingReads`,
 * remembered like `getBookingWithRelated`'s; null unless they describe booking `id` (then the
 * caller reads it again).
 */
export function bookingFromReads(id: number, [booking, p, r, s, e, booked]: JsonRows[]): Booking | null {
  const [row] = decodeAll(readBackBookingRow, booking);
  if (!row || row.id !== id) return null;
  const counts = (booked ?? []).map((b) => ({ event_id: b.event_id as number | null, booked: b.booked === null ? null : Number(b.booked) }));
  relatedOfBooking.set(
    row,
    relatedFrom([decodeAll(readBackPersonRow, p), decodeAll(readBackResourceRow, r), decodeAll(readBackServiceRow, s), decodeAll(readBackEventRow, e), counts]),
  );
  return row;
}

/**
 * A write returning the booking (`UPDATE … RETURNING`), then the related rows as they are after
 * it, in one batch (one transaction, statements in order). Null when the write changed nothing.
 */
export async function writeWithRelated(deps: Deps, id: number, write: BatchItem<"sqlite">): Promise<Booking | null> {
  const [rows, ...related] = await deps.db.batch([write, ...relatedQueries(deps, bookingOfAccount(deps, id)!)]);
  const booking = (rows as Booking[])[0];
  if (!booking) return null;
  relatedOfBooking.set(booking, relatedFrom(related as RelatedRows));
  return booking;
}

/** People, resources, services and events (with their booked seats) of the bookings: one batch. */
export async function loadRelated(deps: Deps, rows: Booking[]): Promise<Related> {
  const known = rows.length === 1 ? relatedOfBooking.get(rows[0]) : undefined;
  if (known) return known;
  const { db, account, now } = deps;
  const personIds = ids(rows.map((b) => b.person_id));
  const resourceIds = ids(rows.map((b) => b.resource_id));
  const serviceIds = ids(rows.map((b) => b.service_id));
  const eventIds = ids(rows.map((b) => b.event_id));
  const [p, r, s, e, booked] = await db.batch([
    db
      .select()
      .from(people)
      .where(and(eq(people.account_id, account.id), inIds(people.id, personIds))),
    db
      .select()
      .from(resources)
      .where(and(eq(resources.account_id, account.id), inIds(resources.id, resourceIds))),
    db
      .select()
      .from(services)
      .where(and(eq(services.account_id, account.id), inIds(services.id, serviceIds))),
    db
      .select()
      .from(events)
      .where(and(eq(events.account_id, account.id), inIds(events.id, eventIds))),
    bookedCountsQuery(db, account.id, eventIds, now),
  ]);
  return { people: byId(p), resources: byId(r), services: byId(s), events: byId(e), booked: toBookedMap(booked) };
}
