// Reads and link writes of categories; every statement filters on the account.
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { categories, categoryServices, services, type Category } from "../../db/schema";
import { inIds, jsonIds } from "../../db/id-list";
import type { Db } from "../../env";
import type { CategoryWithServices } from "./serializer";

export const categoryRow = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(categories)
    .where(and(eq(categories.id, id), eq(categories.account_id, accountId)))
    .limit(1);

export const linkRows = (db: Db, accountId: number, categoryId?: number) =>
  db
    .select({ category_id: categoryServices.category_id, service_id: categoryServices.service_id })
    .from(categoryServices)
    .where(and(eq(categoryServices.account_id, accountId), categoryId === undefined ? undefined : eq(categoryServices.category_id, categoryId)))
    .orderBy(asc(categoryServices.category_id), asc(categoryServices.service_id));

/** Categories with their service ids; links arrive sorted, so each list comes out sorted. */
export function withServiceIds(rows: Category[], links: { category_id: number; service_id: number }[]): CategoryWithServices[] {
  const byCategory = new Map<number, number[]>(rows.map((row) => [row.id, []]));
  for (const link of links) byCategory.get(link.category_id)?.push(link.service_id);
  return rows.map((category) => ({ category, serviceIds: byCategory.get(category.id) ?? [] }));
}

/** id → parent_id of every category of the account: enough to check a new parent in memory. */
export async function parentMap(db: Db, accountId: number): Promise<Map<number, number | null>> {
  const rows = await db.select({ id: categories.id, parent_id: categories.parent_id }).from(categories).where(eq(categories.account_id, accountId));
  return new Map(rows.map((row) => [row.id, row.parent_id]));
}

export async function existingServiceIds(db: Db, accountId: number, ids: number[]): Promise<Set<number>> {
  const rows = await db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.account_id, accountId), inIds(services.id, ids)));
  return new Set(rows.map((row) => row.id));
}

/**
 * One INSERT … SELECT whatever the list's length; `categoryId` may be a subquery. A builder,
 * not `db.run`, because Drizzle's D1 batch cannot bind the parameters of raw statements.
 */
export const insertLinks = (db: Db, accountId: number, categoryId: number | SQL, serviceIds: number[]) =>
  db.insert(categoryServices).select(sql`select ${accountId}, ${categoryId}, value from ${jsonIds(serviceIds)}`);

export const deleteLinks = (db: Db, accountId: number, categoryId: number) =>
  db.delete(categoryServices).where(and(eq(categoryServices.account_id, accountId), eq(categoryServices.category_id, categoryId)));

export const activeServicesOf = (db: Db, accountId: number, categoryId: number) =>
  db
    .select({ service: services })
    .from(services)
    .innerJoin(categoryServices, eq(categoryServices.service_id, services.id))
    .where(and(eq(categoryServices.category_id, categoryId), eq(categoryServices.account_id, accountId), eq(services.account_id, accountId), eq(services.active, true)))
    .orderBy(asc(services.id));
