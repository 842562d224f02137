// Exception dates: per-date hours that override a resource's weekday hours. Deletion is hard.
import { and, asc, between, count, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { resourceExceptionDates, type OpeningHours, type ResourceExceptionDate } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import type { ExceptionDateEntry } from "./exception-date-schema";
import { exceptionsOfResource, foundResource, getResource, resourceRow } from "./queries";
import { assertOrdered } from "./service";

// D1 binds at most 100 parameters per statement: an upserted row binds 6, a deleted date 1.
const UPSERT_ROWS_PER_STATEMENT = 16;
const DELETE_DATES_PER_STATEMENT = 90;

const t = resourceExceptionDates;

const oneDate = (deps: Deps, resourceId: number, date: string) => and(exceptionsOfResource(deps, resourceId), eq(t.exception_date, date));

const noException = (date: string) => new ApiError(404, { error: `No exception date exists for ${date}: the resource's weekday hours apply.` });

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** An upsert on the (resource_id, exception_date) unique index: created_at stays, hours and updated_at change. */
function upsert(deps: Deps, resourceId: number, rows: { exception_date: string; opening_hours: OpeningHours }[]) {
  return deps.db
    .insert(t)
    .values(rows.map((row) => ({ ...row, account_id: deps.account.id, resource_id: resourceId, created_at: deps.now, updated_at: deps.now })))
    .onConflictDoUpdate({
      target: [t.resource_id, t.exception_date],
      set: { opening_hours: sql`excluded.opening_hours`, updated_at: deps.now },
    });
}

export async function listExceptionDates(
  deps: Deps,
  resourceId: number,
  filter: { from?: string; to?: string },
  page: PageRequest,
): Promise<{ rows: ResourceExceptionDate[]; total: number }> {
  assertOrdered(filter.from, filter.to);
  const conditions: (SQL | undefined)[] = [exceptionsOfResource(deps, resourceId)];
  if (filter.from) conditions.push(gte(t.exception_date, filter.from));
  if (filter.to) conditions.push(lte(t.exception_date, filter.to));
  const where = and(...conditions);
  const [resource, [{ total }], rows] = await deps.db.batch([
    resourceRow(deps, resourceId),
    deps.db.select({ total: count() }).from(t).where(where),
    deps.db.select().from(t).where(where).orderBy(asc(t.exception_date)).limit(page.limit).offset(page.offset),
  ]);
  await foundResource(resource);
  return { rows, total };
}

export async function getExceptionDate(deps: Deps, resourceId: number, date: string): Promise<ResourceExceptionDate> {
  const [resource, [row]] = await deps.db.batch([
    resourceRow(deps, resourceId),
    deps.db
      .select()
      .from(t)
      .where(oneDate(deps, resourceId, date))
      .limit(1),
  ]);
  await foundResource(resource);
  if (!row) throw noException(date);
  return row;
}

export async function saveExceptionDate(deps: Deps, resourceId: number, date: string, openingHours: OpeningHours): Promise<ResourceExceptionDate> {
  await getResource(deps, resourceId);
  const [row] = await upsert(deps, resourceId, [{ exception_date: date, opening_hours: openingHours }]).returning();
  return row;
}

export async function deleteExceptionDate(deps: Deps, resourceId: number, date: string): Promise<ResourceExceptionDate> {
  await getResource(deps, resourceId);
  const [row] = await deps.db
    .delete(t)
    .where(oneDate(deps, resourceId, date))
    .returning();
  if (!row) throw noException(date);
  return row;
}

/**
 * Applies validated entries in one batch (D1 runs a batch as one transaction) and answers the
 * exception dates that now exist among the dates touched, in date order.
 */
export async function saveExceptionDates(deps: Deps, resourceId: number, entries: ExceptionDateEntry[]): Promise<ResourceExceptionDate[]> {
  await getResource(deps, resourceId);
  if (entries.length === 0) return [];
  const saves = entries.filter((e) => !e._destroy).map((e) => ({ exception_date: e.exception_date, opening_hours: e.opening_hours ?? null }));
  const destroys = entries.filter((e) => e._destroy).map((e) => e.exception_date);
  const touched = entries.map((e) => e.exception_date).sort();

  const writes: BatchItem<"sqlite">[] = [
    ...chunks(saves, UPSERT_ROWS_PER_STATEMENT).map((rows) => upsert(deps, resourceId, rows)),
    ...chunks(destroys, DELETE_DATES_PER_STATEMENT).map((dates) =>
      deps.db.delete(t).where(and(exceptionsOfResource(deps, resourceId), inArray(t.exception_date, dates))),
    ),
  ];
  const result = deps.db
    .select()
    .from(t)
    .where(and(exceptionsOfResource(deps, resourceId), between(t.exception_date, touched[0], touched[touched.length - 1])))
    .orderBy(asc(t.exception_date));
  // The read goes last in the batch, so it sees the writes.
  const statements: BatchItem<"sqlite">[] = [...writes, result];
  const answers = await deps.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const wanted = new Set(touched);
  return (answers[answers.length - 1] as ResourceExceptionDate[]).filter((row) => wanted.has(row.exception_date));
}
