// Lookups shared by the resource and exception date services; every one filters on account_id.
import { and, between, eq } from "drizzle-orm";
import { resourceExceptionDates, resources, type OpeningHours, type Resource } from "../../db/schema";
import type { Deps } from "../../env";
import { found } from "../../http/serialize";

export const resourceOfAccount = ({ account }: Deps, id: number) =>
  and(eq(resources.id, id), eq(resources.account_id, account.id));

/** The account's resource, active or not; 404 otherwise (another tenant's id included). */
export function getResource(deps: Deps, id: number): Promise<Resource> {
  return found(deps.db.query.resources.findFirst({ where: resourceOfAccount(deps, id) }), "resource");
}

export const exceptionsOfResource = ({ account }: Deps, resourceId: number) =>
  and(eq(resourceExceptionDates.account_id, account.id), eq(resourceExceptionDates.resource_id, resourceId));

/** Exception hours by date for a range, in one query; a date mapped to null is closed. */
export async function exceptionHoursBetween(deps: Deps, resourceId: number, from: string, to: string): Promise<Map<string, OpeningHours>> {
  const rows = await deps.db
    .select({ date: resourceExceptionDates.exception_date, hours: resourceExceptionDates.opening_hours })
    .from(resourceExceptionDates)
    .where(and(exceptionsOfResource(deps, resourceId), between(resourceExceptionDates.exception_date, from, to)));
  return new Map(rows.map((row) => [row.date, row.hours ?? null]));
}
