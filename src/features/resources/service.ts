// Resources: what gets booked, with weekday opening hours. Deletion is soft (active=false).
import { and, asc, eq } from "drizzle-orm";
import { resources, type OpeningHours, type Resource } from "../../db/schema";
import { hoursOn, weeklyHoursOf } from "../../domain/opening-hours";
import { addDays, daysBetween, todayIn } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { getResource, resourceOfAccount, resourceWithExceptionHours } from "./queries";
import type { ResourceInput, ResourceUpdate } from "./schema";

/** The longest opening-hours range one request may ask for: a leap year of dates. */
const MAX_RANGE_DAYS = 366;

export function listResources({ db, account }: Deps): Promise<Resource[]> {
  return db
    .select()
    .from(resources)
    .where(and(eq(resources.account_id, account.id), eq(resources.active, true)))
    .orderBy(asc(resources.id));
}

export async function createResource({ db, account, now }: Deps, input: ResourceInput): Promise<Resource> {
  const [row] = await db
    .insert(resources)
    .values({ ...input, account_id: account.id, created_at: now, updated_at: now })
    .returning();
  return row;
}

export async function updateResource(deps: Deps, id: number, input: ResourceUpdate): Promise<Resource> {
  await getResource(deps, id);
  const [row] = await deps.db
    .update(resources)
    .set({ ...input, updated_at: deps.now })
    .where(resourceOfAccount(deps, id))
    .returning();
  return row;
}

export async function deleteResource(deps: Deps, id: number): Promise<Resource> {
  await getResource(deps, id);
  const [row] = await deps.db.update(resources).set({ active: false, updated_at: deps.now }).where(resourceOfAccount(deps, id)).returning();
  return row;
}

/** 400 on `to` when a range runs backwards. */
export function assertOrdered(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && to < from) throw ApiError.invalid("to", "must be on or after from");
}

/**
 * A from..to range of dates (both inclusive). Both default to today in the account zone;
 * `to` alone defaults to `from`, so `?from=D` asks for that one day.
 */
function openingHoursRange(deps: Deps, range: { from?: string; to?: string }): { from: string; to: string } {
  const from = range.from ?? todayIn(deps.now, deps.account.time_zone);
  const to = range.to ?? from;
  assertOrdered(from, to);
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) throw ApiError.invalid("to", `must be at most ${MAX_RANGE_DAYS} days after from, counting both`);
  return { from, to };
}

/** The hours the resource keeps on each date of the range: exception date first, then weekday. */
export async function openingHoursBetween(deps: Deps, id: number, range: { from?: string; to?: string }): Promise<{ date: string; opening_hours: OpeningHours }[]> {
  const { from, to } = openingHoursRange(deps, range);
  const { resource, exceptions } = await resourceWithExceptionHours(deps, id, from, to);
  const weekly = weeklyHoursOf(resource);
  const days: { date: string; opening_hours: OpeningHours }[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    days.push({ date, opening_hours: hoursOn(date, weekly, exceptions.has(date) ? exceptions.get(date) : undefined) });
  }
  return days;
}
export { getResource } from "./queries";
