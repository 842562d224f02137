// Booking reads: one booking by id or external_id, pages of a listing, and the related rows
// of a page loaded with one query per kind (no N+1). Every query filters on account_id.
import { and, asc, desc, eq, type SQL } from "drizzle-orm";
import { bookings, events, people, resources, services, type Booking } from "../../db/schema";
import { inIds } from "../../db/id-list";
import { ACTIVE_STATES } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { pageOf, syncPageOf } from "../../db/page";
import type { SyncDirection } from "../../db/sync-order";
import type { PageRequest } from "../../http/pagination";
import { found } from "../../http/serialize";
import { bookedCountsQuery, toBookedMap } from "../events/queries";
import type { Related } from "./serializer";

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

export async function pageOfBookings(
  { db, account }: Deps,
  conditions: SQL[],
  order: ListOrder,
  request: PageRequest,
): Promise<{ rows: Booking[]; total: number }> {
  const where = and(eq(bookings.account_id, account.id), ...conditions);
  return pageOf(db, bookings, where, ORDERS[order], request);
}

export function syncPageOfBookings({ db, account }: Deps, conditions: SQL[], direction: SyncDirection, request: PageRequest) {
  const where = and(eq(bookings.account_id, account.id), ...conditions);
  return syncPageOf(db, bookings, { updatedAt: bookings.updated_at, id: bookings.id }, where, direction, request);
}

const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v !== null))];
const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/** People, resources, services and events (with their booked seats) of the bookings: one batch. */
export async function loadRelated({ db, account, now }: Deps, rows: Booking[]): Promise<Related> {
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
