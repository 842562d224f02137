// Categories: a tree of titles, each linked to a set of services. Deletion is a hard delete.
import { and, asc, eq, sql } from "drizzle-orm";
import { categories, type Service } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import { activeServicesOf, categoryRow, deleteLinks, existingServiceIds, insertLinks, linkRows, parentMap, withServiceIds } from "./queries";
import type { CategoryInput, CategoryUpdate } from "./schema";
import type { CategoryWithServices } from "./serializer";
import { parentProblem } from "./tree";

const uniqueSorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** Two queries in one round trip, however many categories there are. */
export async function listCategories({ db, account }: Deps): Promise<CategoryWithServices[]> {
  const [rows, links] = await db.batch([db.select().from(categories).where(eq(categories.account_id, account.id)).orderBy(asc(categories.id)), linkRows(db, account.id)]);
  return withServiceIds(rows, links);
}

export async function getCategory({ db, account }: Deps, id: number): Promise<CategoryWithServices> {
  const [rows, links] = await db.batch([categoryRow(db, account.id, id), linkRows(db, account.id, id)]);
  if (rows.length === 0) throw ApiError.notFound("category");
  return withServiceIds(rows, links)[0];
}

/** Checks parent_id and service_id_list against the account's rows; all problems in one 400. */
async function assertReferences({ db, account }: Deps, input: CategoryUpdate, selfId?: number): Promise<void> {
  const wantsParent = input.parent_id !== undefined && input.parent_id !== null;
  const serviceIds = input.service_id_list ?? [];
  const [parents, known] = await Promise.all([
    wantsParent ? parentMap(db, account.id) : null,
    serviceIds.length > 0 ? existingServiceIds(db, account.id, serviceIds) : null,
  ]);
  const errors = new ErrorCollector();
  const problem = parents && input.parent_id ? parentProblem(parents, input.parent_id, selfId) : null;
  if (problem) errors.add("parent_id", problem);
  const unknown = known ? uniqueSorted(serviceIds.filter((id) => !known.has(id))) : [];
  if (unknown.length > 0) errors.add("service_id_list", `has ids that do not exist: ${unknown.join(", ")}`);
  errors.throwIfAny();
}

export async function createCategory(deps: Deps, input: CategoryInput): Promise<CategoryWithServices> {
  await assertReferences(deps, input);
  const { db, account, now } = deps;
  const { service_id_list, ...attributes } = input;
  const serviceIds = uniqueSorted(service_id_list ?? []);
  const insert = db
    .insert(categories)
    .values({ ...attributes, account_id: account.id, created_at: now, updated_at: now })
    .returning();
  if (serviceIds.length === 0) return { category: (await insert)[0], serviceIds };
  // A batch is one transaction on D1's single writer, so the account's newest id is the row
  // just inserted: category and links are stored together or not at all.
  const newId = sql`(select max(id) from ${categories} where account_id = ${account.id})`;
  const [[category]] = await db.batch([insert, insertLinks(db, account.id, newId, serviceIds)]);
  return { category, serviceIds };
}

export async function updateCategory(deps: Deps, id: number, input: CategoryUpdate): Promise<CategoryWithServices> {
  await getCategory(deps, id);
  await assertReferences(deps, input, id);
  const { db, account, now } = deps;
  const { service_id_list, ...attributes } = input;
  const update = db
    .update(categories)
    .set({ ...attributes, updated_at: now })
    .where(and(eq(categories.id, id), eq(categories.account_id, account.id)));
  if (service_id_list === undefined) {
    await update;
  } else {
    const serviceIds = uniqueSorted(service_id_list);
    await (serviceIds.length === 0
      ? db.batch([update, deleteLinks(db, account.id, id)])
      : db.batch([update, deleteLinks(db, account.id, id), insertLinks(db, account.id, id, serviceIds)]));
  }
  return getCategory(deps, id);
}

/** Children move up to the removed category's parent, so the rest of the branch stays intact. */
export async function deleteCategory(deps: Deps, id: number): Promise<CategoryWithServices> {
  const removed = await getCategory(deps, id);
  const { db, account, now } = deps;
  const mine = eq(categories.account_id, account.id);
  await db.batch([
    db
      .update(categories)
      .set({ parent_id: removed.category.parent_id, updated_at: now })
      .where(and(mine, eq(categories.parent_id, id))),
    deleteLinks(db, account.id, id),
    db.delete(categories).where(and(mine, eq(categories.id, id))),
  ]);
  return removed;
}

export async function listCategoryServices({ db, account }: Deps, id: number): Promise<Service[]> {
  const [rows, linked] = await db.batch([categoryRow(db, account.id, id), activeServicesOf(db, account.id, id)]);
  if (rows.length === 0) throw ApiError.notFound("category");
  return linked.map((row) => row.service);
}
