// The rows a booking input names (service, resource, event) as the account holds them, with
// 400s on the attribute that names a missing or unusable one; input, not path, so never 404.
import { and, eq, inArray, sql } from "drizzle-orm";
import { events, resources, services, type Event, type Resource, type Service } from "../../db/schema";
import type { Deps } from "../../env";
import { providerResourcesQuery } from "../providers/queries";
import type { ErrorCollector } from "../../http/errors";
import { addDays, dateInZone, parseDateTimeInput } from "../../domain/time";
import { availabilityVersionQuery, versionOf } from "../../db/availability-version";
import { nextStatementOnPrimary } from "../../db/request-scope";

/**
 * The account's availability version read in the same batch as a create's references, when that
 * batch reads the primary's current state (refusal-memo.ts may then answer a known-full slot);
 * undefined when it may come from a replica.
 */
export type CurrentVersion = number | undefined;

export async function serviceOf({ db, account }: Deps, id: number): Promise<Service | undefined> {
  return db.query.services.findFirst({ where: and(eq(services.id, id), eq(services.account_id, account.id)) });
}

export async function resourceOf({ db, account }: Deps, id: number): Promise<Resource | undefined> {
  return db.query.resources.findFirst({ where: and(eq(resources.id, id), eq(resources.account_id, account.id)) });
}

export async function eventOf({ db, account }: Deps, id: number): Promise<Event | undefined> {
  return db.query.events.findFirst({ where: and(eq(events.id, id), eq(events.account_id, account.id)) });
}

/** An event with its resource and service, and the availability version, in one round trip (by subquery on the event). */
export async function eventWithReferences(
  { db, account }: Deps,
  id: number,
): Promise<{ event?: Event; resource?: Resource; service?: Service; version: CurrentVersion }> {
  const ofEvent = and(eq(events.id, id), eq(events.account_id, account.id));
  const onPrimary = nextStatementOnPrimary(account.shard);
  const [event, resource, service, version] = await db.batch([
    db.select().from(events).where(ofEvent),
    db.select().from(resources).where(and(eq(resources.account_id, account.id), inArray(resources.id, db.select({ id: events.resource_id }).from(events).where(ofEvent)))),
    db.select().from(services).where(and(eq(services.account_id, account.id), inArray(services.id, db.select({ id: events.service_id }).from(events).where(ofEvent)))),
    availabilityVersionQuery(db, account.id),
  ]);
  return { event: event[0], resource: resource[0], service: service[0], version: onPrimary ? versionOf(version) : undefined };
}

/**
 * The service, the resource and the service's provider resources a create names, and the
 * availability version, in one round trip (they do not depend on each other). Providers only
 * when `withProviders`.
 */
export async function bookingReferences(
  deps: Deps,
  ids: { serviceId?: number; resourceId?: number; withProviders: boolean },
): Promise<{ service?: Service; resource?: Resource; providers: Resource[]; version: CurrentVersion }> {
  const { db, account } = deps;
  const none = db.select({ id: services.id }).from(services).where(sql`0`);
  const onPrimary = nextStatementOnPrimary(account.shard);
  const [service, resource, provided, version] = await db.batch([
    ids.serviceId ? db.select().from(services).where(and(eq(services.id, ids.serviceId), eq(services.account_id, account.id))) : none,
    ids.resourceId ? db.select().from(resources).where(and(eq(resources.id, ids.resourceId), eq(resources.account_id, account.id))) : none,
    ids.serviceId && ids.withProviders ? providerResourcesQuery(deps, ids.serviceId) : none,
    availabilityVersionQuery(db, account.id),
  ]);
  return {
    service: ids.serviceId ? (service[0] as Service | undefined) : undefined,
    resource: ids.resourceId ? (resource[0] as Resource | undefined) : undefined,
    providers: ids.serviceId && ids.withProviders ? (provided as { resource: Resource }[]).map((r) => r.resource) : [],
    version: onPrimary ? versionOf(version) : undefined,
  };
}

/** A datetime attribute read in the account zone; undefined when absent, null when cleared. */
export function instantOf(deps: Deps, errors: ErrorCollector, attribute: string, text: string | null | undefined): number | null | undefined {
  if (text === undefined || text === null) return text;
  const value = parseDateTimeInput(text, deps.account.time_zone);
  if (value === null) errors.add(attribute, "is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601");
  return value;
}

/** 12:00 account time the day before the booking starts (NOTES: Bookings, add_reminder_sms). */
export function reminderBefore(deps: Deps, bookedFrom: number): number {
  const tz = deps.account.time_zone;
  return parseDateTimeInput(`${addDays(dateInZone(bookedFrom, tz), -1)} 12:00`, tz)!;
}
