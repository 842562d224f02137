// Booking reads: one booking by id or external_id, pages of a listing, and the related rows
// of a page loaded with one query per kind (no N+1). Every query filters on account_id.
import { and, asc, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  bookings, events, people, resources, services, type Booking, type Event, type Person, type Resource, type Service,
} from "../../db/schema";
import { inIds } from "../../db/id-list";
import { jsonRow } from "../../db/json-row";
import { ACTIVE_STATES } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { pageOf, syncPageOf } from "../../db/page";
import type { SyncDirection } from "../../db/sync-order";
import type { PageRequest } from "../../http/pagination";
import { found } from "../../http/serialize";
import { bookedCountsQuery, toBookedMap } from "../events/queries";
import { PERSON_OUT_COLUMNS } from "../people/serializer";
import { LISTED_BOOKING_COLUMNS, type ListedBooking, type ListedRelated, type Related } from "./serializer";

export const bookingOfAccount = ({ account }: Deps, id: number) => and(eq(bookings.id, id), eq(bookings.account_id, account.id));

export function getBooking(deps: Deps, id: number): Promise<Booking> {
  return found(deps.db.query.bookings.findFirst({ where: bookingOfAccount(deps, id) }), "booking");
}

/** The most recent booking carrying the external id; external ids are the client's, not unique. */
export function getBookingByExternalId(deps: Deps, externalId: string): Promise<Booking> {
  return found(
    deps.db.query.bookings.findFirst({
      where: and(eq(bookings.account_id, deps.account.id), eq(bookings.external_id, externalId)),
      orderBy: [desc(bookings.id)],
    }),
    "booking",
  );
}

export { inEffectiveStates, isActiveSql } from "./active-sql";

export const ACTIVE = [...ACTIVE_STATES];

export type ListOrder = "booked_from" | "booked_from_desc";

const ORDERS: Record<ListOrder, SQL[]> = {
  booked_from: [asc(bookings.booked_from), asc(bookings.id)],
  booked_from_desc: [desc(bookings.booked_from), desc(bookings.id)],
};

/** A page's bookings and people carry only the columns the answer shows, one JSON text per row. */
const listedBookingRow = jsonRow(bookings, LISTED_BOOKING_COLUMNS);
const listedPersonRow = jsonRow(people, PERSON_OUT_COLUMNS);

/** The page's related rows read in the page's own batch (by subquery of its ids): one round trip. */
const relatedOfPage = (deps: Deps) => (pageIds: SQL) => {
  const which = and(eq(bookings.account_id, deps.account.id), inArray(bookings.id, pageIds))!;
  const { db, account } = deps;
  return [
    db.select({ row: listedPersonRow.field }).from(people)
      .where(and(eq(people.account_id, account.id), inArray(people.id, db.select({ id: bookings.person_id }).from(bookings).where(which)))),
    ...otherRelatedQueries(deps, which),
  ];
};

type PageRelatedRows = [{ row: string }[], ...OtherRelatedRows];
const pageRelatedFrom = ([p, ...others]: PageRelatedRows): ListedRelated =>
  ({ people: byId(p.map((r) => listedPersonRow.decode(r.row))), ...otherRelatedFrom(others) });

export async function pageOfBookings(
  deps: Deps,
  conditions: SQL[],
  order: ListOrder,
  request: PageRequest,
): Promise<{ rows: ListedBooking[]; total: number; related: ListedRelated }> {
  const where = and(eq(bookings.account_id, deps.account.id), ...conditions);
  const { rows, total, extra } = await pageOf(deps.db, bookings, where, ORDERS[order], request, relatedOfPage(deps), listedBookingRow);
  return { rows, total, related: pageRelatedFrom(extra as PageRelatedRows) };
}

export async function syncPageOfBookings(deps: Deps, conditions: SQL[], direction: SyncDirection, request: PageRequest) {
  const where = and(eq(bookings.account_id, deps.account.id), ...conditions);
  const { extra, ...page } = await syncPageOf(
    deps.db, bookings, { updatedAt: bookings.updated_at, id: bookings.id }, where, direction, request, relatedOfPage(deps), listedBookingRow,
  );
  return { ...page, related: pageRelatedFrom(extra as PageRelatedRows) };
}

const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v !== null))];
const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/**
 * Related rows already read for one booking object in this request (with it, in one batch), so
 * the answer and the effects that follow a write do not read them again.
 */
const relatedOfBooking = new WeakMap<Booking, Related>();

/** Resources, services, events and their seats held of the bookings `which` selects, by subquery. */
function otherRelatedQueries({ db, account, now }: Deps, which: SQL) {
  const column = (c: SQLiteColumn) => db.select({ id: c }).from(bookings).where(which);
  return [
    db.select().from(resources).where(and(eq(resources.account_id, account.id), inArray(resources.id, column(bookings.resource_id)))),
    db.select().from(services).where(and(eq(services.account_id, account.id), inArray(services.id, column(bookings.service_id)))),
    db.select().from(events).where(and(eq(events.account_id, account.id), inArray(events.id, column(bookings.event_id)))),
    bookedCountsQuery(db, account.id, column(bookings.event_id), now),
  ] as const;
}

/** The related-row statements of the bookings `which` selects, by subquery: batched with the bookings. */
function relatedQueries(deps: Deps, which: SQL) {
  const { db, account } = deps;
  const personIds = db.select({ id: bookings.person_id }).from(bookings).where(which);
  return [
    db.select().from(people).where(and(eq(people.account_id, account.id), inArray(people.id, personIds))),
    ...otherRelatedQueries(deps, which),
  ] as const;
}

type OtherRelatedRows = [Resource[], Service[], Event[], { event_id: number | null; booked: number | null }[]];
const otherRelatedFrom = ([r, s, e, booked]: OtherRelatedRows): Omit<Related, "people"> =>
  ({ resources: byId(r), services: byId(s), events: byId(e), booked: toBookedMap(booked) });

type RelatedRows = [Person[], ...OtherRelatedRows];
const relatedFrom = ([p, ...others]: RelatedRows): Related => ({ people: byId(p), ...otherRelatedFrom(others) });

/** The booking and its related rows in one round trip (GET one, the re-read after a create). */
export async function getBookingWithRelated(deps: Deps, id: number): Promise<Booking> {
  const { db } = deps;
  const [rows, ...related] = await db.batch([
    db.select().from(bookings).where(bookingOfAccount(deps, id)).limit(1),
    ...relatedQueries(deps, bookingOfAccount(deps, id)!),
  ]);
  const booking = await found(rows[0], "booking");
  relatedOfBooking.set(booking, relatedFrom(related as RelatedRows));
  return booking;
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
    db.select().from(people).where(and(eq(people.account_id, account.id), inIds(people.id, personIds))),
    db.select().from(resources).where(and(eq(resources.account_id, account.id), inIds(resources.id, resourceIds))),
    db.select().from(services).where(and(eq(services.account_id, account.id), inIds(services.id, serviceIds))),
    db.select().from(events).where(and(eq(events.account_id, account.id), inIds(events.id, eventIds))),
    bookedCountsQuery(db, account.id, eventIds, now),
  ]);
  return { people: byId(p), resources: byId(r), services: byId(s), events: byId(e), booked: toBookedMap(booked) };
}
