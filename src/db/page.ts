// One page of rows and the total that match, in one D1 round trip: every paginated list uses it.
import { and, count, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import type { PageRequest } from "../http/pagination";
import { afterSyncCursor, formatSyncCursor, syncOrder, type SyncColumns, type SyncDirection } from "./sync-order";

export async function pageOf<T extends SQLiteTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  request: PageRequest,
): Promise<{ rows: T["$inferSelect"][]; total: number }> {
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(table as SQLiteTable).where(where),
    db.select().from(table as SQLiteTable).where(where).orderBy(...orderBy).limit(request.limit).offset(request.offset),
  ]);
  return { rows: rows as T["$inferSelect"][], total: totals[0]?.total ?? 0 };
}

/**
 * One page of a sync listing (db/sync-order.ts) in one round trip: rows after the request's cursor
 * (or at its offset without one), one row more than the page to know whether a next page exists.
 * The total counts the whole listing, cursor aside, so Total-Count means the same on every page.
 */
export async function syncPageOf<T extends SQLiteTable>(
  db: Db,
  table: T,
  columns: SyncColumns,
  where: SQL | undefined,
  direction: SyncDirection,
  request: PageRequest,
): Promise<{ rows: T["$inferSelect"][]; total: number; nextCursor: string | null }> {
  const rowsWhere = request.cursor ? and(where, afterSyncCursor(columns, request.cursor, direction)) : where;
  const [totals, probed] = await db.batch([
    db.select({ total: count() }).from(table as SQLiteTable).where(where),
    db.select().from(table as SQLiteTable).where(rowsWhere).orderBy(...syncOrder(columns, direction))
      .limit(request.limit + 1).offset(request.offset),
  ]);
  const rows = (probed as T["$inferSelect"][]).slice(0, request.limit);
  const last = rows.at(-1) as { updated_at: number; id: number } | undefined;
  const nextCursor = probed.length > request.limit && last ? formatSyncCursor(last) : null;
  return { rows, total: totals[0]?.total ?? 0, nextCursor };
}
