// The rows a booking input names (service, resource, event) as the account holds them, with
// 400s on the attribute that names a missing or unusable one; input, not path, so never 404.
import { and, eq } from "drizzle-orm";
import { events, resources, services, type Event, type Resource, type Service } from "../../db/schema";
import type { Deps } from "../../env";
import type { ErrorCollector } from "../../http/errors";
import { addDays, dateInZone, parseDateTimeInput } from "../../domain/time";

export async function serviceOf({ db, account }: Deps, id: number): Promise<Service | undefined> {
  return db.query.services.findFirst({ where: and(eq(services.id, id), eq(services.account_id, account.id)) });
}

export async function resourceOf({ db, account }: Deps, id: number): Promise<Resource | undefined> {
  return db.query.resources.findFirst({ where: and(eq(resources.id, id), eq(resources.account_id, account.id)) });
}

export async function eventOf({ db, account }: Deps, id: number): Promise<Event | undefined> {
  return db.query.events.findFirst({ where: and(eq(events.id, id), eq(events.account_id, account.id)) });
}

export { providerResources } from "../providers/queries";

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
