// Lookups shared by the resource and exception date services; every one filters on account_id.
import { and, between, eq } from "drizzle-orm";
import { resourceExceptionDates, resources, type OpeningHours, type Resource } from "../../db/schema";
import type { Deps } from "../../env";
import { found } from "../../http/serialize";

export const resourceOfAccount = ({ account }: Deps, id: number) => and(eq(resources.id, id), eq(resources.account_id, account.id));

/** The account's resource, active or not; 404 otherwise (another tenant's id included). */
export function getResource(deps: Deps, id: number): Promise<Resource> {
  return found(deps.db.query.resources.findFirst({ where: resourceOfAccount(deps, id) }), "resource");
}

/** The resource's row as a select for a batch with the reads beneath it, and its 404 from that batch's rows. */
export const resourceRow = (deps: Deps, id: number) => deps.db.select().from(resources).where(resourceOfAccount(deps, id)).limit(1);
export const foundResource = ([row]: Resource[]): Promise<Resource> => found(row, "resource");

export const exceptionsOfResource = ({ account }: Deps, resourceId: number) =>
  and(eq(resourceExceptionDates.account_id, account.id), eq(resourceExceptionDates.resource_id, resourceId));

/** The resource with its exception hours by date for a range, in one batch; a date mapped to null is closed. */
export async function resourceWithExceptionHours(deps: Deps, resourceId: number, from: string, to: string) {
  const [resource, rows] = await deps.db.batch([
    resourceRow(deps, resourceId),
    deps.db
      .select({ date: resourceExceptionDates.exception_date, hours: resourceExceptionDates.opening_hours })
      .from(resourceExceptionDates)
      .where(and(exceptionsOfResource(deps, resourceId), between(resourceExceptionDates.exception_date, from, to))),
  ]);
  return { resource: await foundResource(resource), exceptions: new Map<string, OpeningHours>(rows.map((row) => [row.date, row.hours ?? null])) };
}
