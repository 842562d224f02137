// Event reads: one event, a page of the list, and the booked counts behind `availability`
// for a whole page in one grouped query (no N+1). Every query filters on account_id.
import { and, asc, desc, eq, inArray, sum, type Placeholder, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { bookings, events, type Event } from "../../db/schema";
import { inIds } from "../../db/id-list";
import { pageOf, syncPageOf } from "../../db/page";
import type { Db, Deps } from "../../env";
import type { PageRequest } from "../../http/pagination";
import { found } from "../../http/serialize";
import { isActiveSql } from "../bookings/active-sql";

const eventOfAccount = ({ account }: Deps, id: number) => and(eq(events.id, id), eq(events.account_id, account.id));

export function getEvent(deps: Deps, id: number): Promise<Event> {
  return found(deps.db.query.events.findFirst({ where: eventOfAccount(deps, id) }), "event");
}

/**
 * The bookings that hold an event's seats: active is what the capacity check counts, so an
 * expired unverified booking is not. The slot reads (features/slots/queries.ts) count with the
 * same condition. `eventIds` may be a subquery.
 */
export const bookedCountsWhere = (accountId: number | Placeholder, eventIds: readonly number[] | SQLWrapper, now: number | Placeholder) =>
  and(
    eq(bookings.account_id, accountId),
    Array.isArray(eventIds) ? inIds(bookings.event_id, eventIds) : inArray(bookings.event_id, eventIds as SQLWrapper),
    isActiveSql(now),
  );

type BookedRows = { event_id: number | null; booked: number | null }[];

/** `[event_id, booked]` for the events, as a query a caller may put into its own batch. */
export const bookedCountsQuery = (db: Db, accountId: number, eventIds: readonly number[] | SQLWrapper, now: number) =>
  db
    .select({ event_id: bookings.event_id, booked: sum(bookings.count).mapWith(Number) })
    .from(bookings)
    .where(bookedCountsWhere(accountId, eventIds, now))
    .groupBy(bookings.event_id);

export const toBookedMap = (rows: BookedRows) => new Map(rows.map((r) => [r.event_id!, r.booked ?? 0]));

export async function bookedCounts({ db, account, now }: Deps, eventIds: readonly number[]): Promise<Map<number, number>> {
  if (eventIds.length === 0) return new Map();
  return toBookedMap(await bookedCountsQuery(db, account.id, eventIds, now));
}

type EventOrder = "starts_at" | "starts_at_desc";

const ORDERS: Record<EventOrder, SQL[]> = {
  starts_at: [asc(events.starts_at), asc(events.id)],
  starts_at_desc: [desc(events.starts_at), desc(events.id)],
};

/**
 * A page of events with the seats each holds, in one batch (one wait at distance). `also` are
 * statements for the same batch, such as whether the page's parent exists; `extra` answers them.
 */
export async function pageOfEvents(
  { db, account, now }: Deps,
  conditions: SQL[],
  order: EventOrder,
  request: PageRequest,
  also: BatchItem<"sqlite">[] = [],
): Promise<{ rows: Event[]; total: number; booked: Map<number, number>; extra: unknown[] }> {
  const where = and(eq(events.account_id, account.id), ...conditions);
  const page = await pageOf(db, events, where, ORDERS[order], request, (pageIds) => [bookedCountsQuery(db, account.id, pageIds, now), ...also]);
  const [counts, ...extra] = page.extra;
  return { rows: page.rows, total: page.total, booked: toBookedMap(counts as BookedRows), extra };
}

/** A since listing's page by (updated_at, id), oldest change first (docs/decisions/sync.md), with its seats as `pageOfEvents`. */
export async function syncPageOfEvents({ db, account, now }: Deps, conditions: SQL[], request: PageRequest) {
  const where = and(eq(events.account_id, account.id), ...conditions);
  const { extra, ...page } = await syncPageOf(db, events, { updatedAt: events.updated_at, id: events.id }, where, "asc", request, (pageIds) => [
    bookedCountsQuery(db, account.id, pageIds, now),
  ]);
  return { ...page, booked: toBookedMap(extra[0] as BookedRows) };
}
