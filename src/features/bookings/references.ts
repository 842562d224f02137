// The rows a booking input names (service, resource, event) as the account holds them, with
// 400s on the attribute that names a missing or unusable one; input, not path, so never 404.
// An update reads the booking it changes in the same batch (`updateReferences`): its 404.
import { and, eq, inArray, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import { bookings, events, resources, services, type Booking, type Event, type Resource, type Service } from "../../db/schema";
import type { Deps } from "../../env";
import { providerResourcesQuery } from "../providers/queries";
import type { ErrorCollector } from "../../http/errors";
import { addDays, dateInZone, parseDateTimeInput } from "../../domain/time";
import { availabilityVersionStatement, versionOf } from "../../db/availability-version";
import { bindFixed, fixedStatement } from "../../db/fixed-statement";
import { everyColumn, jsonRow } from "../../db/json-row";
import { nextStatementOnPrimary } from "../../db/request-scope";
import { accountD1 } from "../../db/shards";

/**
 * The account's availability version read in the same batch as a create's references, when that
 * batch reads the primary's current state (refusal-memo.ts may then answer a known-full slot);
 * undefined when it may come from a replica.
 */
export type CurrentVersion = number | undefined;

/**
 * Reads other parts of the create add to this batch (the person's, person-link.ts; the opening
 * hours' exceptions, public-rules.ts), bound on the batch's handle; answered one result list per group.
 */
export type MoreReads = (d1: D1Database) => D1PreparedStatement[];

/** `fixed`, then each group's statements, in one batch; the groups' results split back out. */
async function batchWith(d1: D1Database, fixed: D1PreparedStatement[], groups: MoreReads[]) {
  const bound = groups.map((group) => group(d1));
  const results = await d1.batch([...fixed, ...bound.flat()]);
  let at = fixed.length;
  return { results, more: bound.map((group) => results.slice(at, (at += group.length))) };
}

export async function serviceOf({ db, account }: Deps, id: number): Promise<Service | undefined> {
  return db.query.services.findFirst({ where: and(eq(services.id, id), eq(services.account_id, account.id)) });
}

export async function resourceOf({ db, account }: Deps, id: number): Promise<Resource | undefined> {
  return db.query.resources.findFirst({ where: and(eq(resources.id, id), eq(resources.account_id, account.id)) });
}

// A create's reads, rendered once per isolate and bound per request (db/fixed-statement.ts).
const qb = new QueryBuilder();
const accountId = sql.placeholder("accountId");
const id = sql.placeholder("id");
// Each row as one JSON text (db/json-row.ts): D1's client builds one property per row instead of one per column.
const eventRow = jsonRow(events, everyColumn(events));
const resourceRow = jsonRow(resources, everyColumn(resources));
const serviceRow = jsonRow(services, everyColumn(services));
const ofEvent = and(eq(events.id, id), eq(events.account_id, accountId));
const eventById = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: eventRow.field.as("row") })
    .from(events)
    .where(ofEvent),
);
const eventResource = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: resourceRow.field.as("row") })
    .from(resources)
    .where(and(eq(resources.account_id, accountId), inArray(resources.id, qb.select({ id: events.resource_id }).from(events).where(ofEvent)))),
);
const eventService = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: serviceRow.field.as("row") })
    .from(services)
    .where(and(eq(services.account_id, accountId), inArray(services.id, qb.select({ id: events.service_id }).from(events).where(ofEvent)))),
);
const serviceById = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: serviceRow.field.as("row") })
    .from(services)
    .where(and(eq(services.id, id), eq(services.account_id, accountId))),
);
const resourceById = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: resourceRow.field.as("row") })
    .from(resources)
    .where(and(eq(resources.id, id), eq(resources.account_id, accountId))),
);
const serviceProviders = fixedStatement<"accountId" | "id">(() => providerResourcesQuery(qb, accountId, id, resourceRow.field.as("row")));

/** The rows' decoded objects, as Drizzle's select of every column gives them. */
const decoded =
  <R>(row: { decode(text: string): R }) =>
  (rows: Record<string, unknown>[] | undefined): R[] =>
    (rows ?? []).map((r) => row.decode(r.row as string));
const eventRows = decoded(eventRow);
const resourceRows = decoded(resourceRow);
const serviceRows = decoded(serviceRow);

type RowsOf = (i: number) => Record<string, unknown>[] | undefined;
const rowsAt =
  (results: D1Result[]): RowsOf =>
  (i) =>
    results[i]?.results as Record<string, unknown>[] | undefined;

/** An event with its resource and service, and the availability version, in one round trip (by subquery on the event). */
export async function eventWithReferences(
  { env, account }: Deps,
  eventId: number,
  more: MoreReads[] = [],
): Promise<{ event?: Event; resource?: Resource; service?: Service; version: CurrentVersion; more: D1Result[][] }> {
  const d1 = accountD1({ env, account });
  const ids = { accountId: account.id, id: eventId };
  // Before any statement is prepared: preparing one opens the request's session on the shard.
  const onPrimary = nextStatementOnPrimary(account.shard);
  const { results, more: moreResults } = await batchWith(
    d1,
    [bindFixed(d1, eventById, ids), bindFixed(d1, eventResource, ids), bindFixed(d1, eventService, ids), bindFixed(d1, availabilityVersionStatement, ids)],
    more,
  );
  const rows = rowsAt(results);
  return {
    event: eventRows(rows(0))[0],
    resource: resourceRows(rows(1))[0],
    service: serviceRows(rows(2))[0],
    version: onPrimary ? versionOf(rows(3) as { version: number }[]) : undefined,
    more: moreResults,
  };
}

/**
 * The service, the resource and the service's provider resources a create names, and the
 * availability version, in one round trip (they do not depend on each other), with `more`.
 * Providers only when `withProviders`.
 */
export async function bookingReferences(
  { env, account }: Deps,
  ids: { serviceId?: number; resourceId?: number; withProviders: boolean },
  more: MoreReads[] = [],
): Promise<{ service?: Service; resource?: Resource; providers: Resource[]; version: CurrentVersion; more: D1Result[][] }> {
  const d1 = accountD1({ env, account });
  // Before any statement is prepared: preparing one opens the request's session on the shard.
  const onPrimary = nextStatementOnPrimary(account.shard);
  const statements: D1PreparedStatement[] = [];
  const add = (statement: D1PreparedStatement) => statements.push(statement) - 1;
  const serviceAt = ids.serviceId ? add(bindFixed(d1, serviceById, { accountId: account.id, id: ids.serviceId })) : -1;
  const resourceAt = ids.resourceId ? add(bindFixed(d1, resourceById, { accountId: account.id, id: ids.resourceId })) : -1;
  const providersAt = ids.serviceId && ids.withProviders ? add(bindFixed(d1, serviceProviders, { accountId: account.id, id: ids.serviceId })) : -1;
  const versionAt = add(bindFixed(d1, availabilityVersionStatement, { accountId: account.id }));
  const { results, more: moreResults } = await batchWith(d1, statements, more);
  const rows = rowsAt(results);
  return {
    service: serviceAt < 0 ? undefined : serviceRows(rows(serviceAt))[0],
    resource: resourceAt < 0 ? undefined : resourceRows(rows(resourceAt))[0],
    providers: providersAt < 0 ? [] : resourceRows(rows(providersAt)),
    version: onPrimary ? versionOf(rows(versionAt) as { version: number }[]) : undefined,
    more: moreResults,
  };
}

// An update's reads: the booking, and every row its change could need, found through the booking
// by subquery, so they cost no round trip after it.
const bookingRow = jsonRow(bookings, everyColumn(bookings));
const ofBooking = and(eq(bookings.id, id), eq(bookings.account_id, accountId));
const bookingById = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: bookingRow.field.as("row") })
    .from(bookings)
    .where(ofBooking),
);
const bookingColumn = (column: typeof bookings.resource_id | typeof bookings.service_id | typeof bookings.event_id) =>
  qb.select({ id: column }).from(bookings).where(ofBooking);
/** The resource the input names (null: none) and the booking's own; likewise for the service. */
const updateResources = fixedStatement<"accountId" | "id" | "named">(() =>
  qb
    .select({ row: resourceRow.field.as("row") })
    .from(resources)
    .where(and(eq(resources.account_id, accountId), sql`${resources.id} IN (${sql.placeholder("named")}, ${bookingColumn(bookings.resource_id)})`)),
);
const updateServices = fixedStatement<"accountId" | "id" | "named">(() =>
  qb
    .select({ row: serviceRow.field.as("row") })
    .from(services)
    .where(and(eq(services.account_id, accountId), sql`${services.id} IN (${sql.placeholder("named")}, ${bookingColumn(bookings.service_id)})`)),
);
const updateEvent = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: eventRow.field.as("row") })
    .from(events)
    .where(and(eq(events.account_id, accountId), inArray(events.id, bookingColumn(bookings.event_id)))),
);
const bookingRows = decoded(bookingRow);
const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

export interface UpdateReferences {
  /** Undefined when the account has no such booking. */
  booking?: Booking;
  /** The resource the input names and the booking's own, by id. */
  resources: Map<number, Resource>;
  /** The service the input names and the booking's own, by id. */
  services: Map<number, Service>;
  /** The booking's event, for an event booking. */
  event?: Event;
  more: D1Result[][];
}

/**
 * The booking an update changes, the resource and service it names (when it names one) and the
 * booking's own resource, service and event, with `more` (the person's reads), in one round trip.
 */
export async function updateReferences(
  { env, account }: Deps,
  bookingId: number,
  named: { resourceId: number | null; serviceId: number | null },
  more: MoreReads[] = [],
): Promise<UpdateReferences> {
  const d1 = accountD1({ env, account });
  const ids = { accountId: account.id, id: bookingId };
  const { results, more: moreResults } = await batchWith(
    d1,
    [
      bindFixed(d1, bookingById, ids),
      bindFixed(d1, updateResources, { ...ids, named: named.resourceId }),
      bindFixed(d1, updateServices, { ...ids, named: named.serviceId }),
      bindFixed(d1, updateEvent, ids),
    ],
    more,
  );
  const rows = rowsAt(results);
  return {
    booking: bookingRows(rows(0))[0],
    resources: byId(resourceRows(rows(1))),
    services: byId(serviceRows(rows(2))),
    event: eventRows(rows(3))[0],
    more: moreResults,
  };
}

/** A datetime attribute read in the account zone; undefined when absent, null when cleared. */
export function instantOf(deps: Deps, errors: ErrorCollector, attribute: string, text: string | null | undefined): number | null | undefined {
  if (text === undefined || text === null) return text;
  const value = parseDateTimeInput(text, deps.account.time_zone);
  if (value === null) errors.add(attribute, "is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601");
  return value;
}

/** 12:00 account time the day before the booking starts (docs/decisions/messages.md, add_reminder_sms). */
export function reminderBefore(deps: Deps, bookedFrom: number): number {
  const tz = deps.account.time_zone;
  return parseDateTimeInput(`${addDays(dateInZone(bookedFrom, tz), -1)} 12:00`, tz)!;
}

// A visitor's move (move.ts): the booking, its service and that service's providers found through
// it by subquery, and the event it moves to, so the move's reads are one round trip.
const bookingServiceProviders = fixedStatement<"accountId" | "id">(() =>
  providerResourcesQuery(qb, accountId, sql`(${bookingColumn(bookings.service_id)})`, resourceRow.field.as("row")),
);

export interface MoveReferences {
  booking?: Booking;
  service?: Service;
  /** The booking's service's active providers, in the order a create tries them. */
  providers: Resource[];
  /** The event named, with its resource, when the move names one. */
  event?: Event;
  eventResource?: Resource;
  more: D1Result[][];
}

export async function moveReferences({ env, account }: Deps, bookingId: number, eventId: number | null, more: MoreReads[] = []): Promise<MoveReferences> {
  const d1 = accountD1({ env, account });
  const ids = { accountId: account.id, id: bookingId };
  const eventIds = { accountId: account.id, id: eventId ?? 0 };
  const { results, more: moreResults } = await batchWith(
    d1,
    [
      bindFixed(d1, bookingById, ids),
      bindFixed(d1, updateServices, { ...ids, named: null }),
      bindFixed(d1, bookingServiceProviders, ids),
      ...(eventId === null ? [] : [bindFixed(d1, eventById, eventIds), bindFixed(d1, eventResource, eventIds)]),
    ],
    more,
  );
  const rows = rowsAt(results);
  return {
    booking: bookingRows(rows(0))[0],
    service: serviceRows(rows(1))[0],
    providers: resourceRows(rows(2)),
    event: eventId === null ? undefined : eventRows(rows(3))[0],
    eventResource: eventId === null ? undefined : resourceRows(rows(4))[0],
    more: moreResults,
  };
}
