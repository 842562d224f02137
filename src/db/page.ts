// One page of rows and the total that match, in one D1 round trip: every paginated list uses it.
import { and, count, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import type { JsonRow } from "./json-row";
import { afterSyncCursor, formatSyncCursor, syncOrder, type SyncColumns, type SyncCursor, type SyncDirection } from "./sync-order";

/** Which page a list answers (http/pagination.ts reads it from the query and writes its headers). */
export interface PageRequest {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
  /** Sync listings only: the page starts after this row, whatever the page number says. */
  cursor?: SyncCursor;
}

/**
 * Statements that read what the page's rows refer to, given a subquery of the page's ids: run in
 * the same batch, so a list with its related rows is still one round trip.
 */
type Alongside = (pageIds: SQL) => BatchItem<"sqlite">[];

const idsOf = (db: Db, table: SQLiteTable, where: SQL | undefined, orderBy: SQL[], limit: number, offset: number): SQL =>
  sql`(${db
    .select({ id: (table as unknown as { id: SQLiteColumn }).id })
    .from(table)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset)})`;

/**
 * The total of `where`, up to `limit` rows of `rowsWhere` in `orderBy`, and the statements
 * alongside: one batch. With `row`, rows are read as one JSON text each (db/json-row.ts).
 */
async function batchPage<T extends SQLiteTable, R = T["$inferSelect"]>(
  db: Db,
  table: T,
  where: SQL | undefined,
  rows: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number },
  alongside?: Alongside,
  row?: JsonRow<R>,
): Promise<{ rows: R[]; total: number; extra: unknown[] }> {
  const extras = alongside?.(idsOf(db, table, rows.where, rows.orderBy, rows.limit, rows.offset)) ?? [];
  const selected = row ? db.select({ row: row.field }).from(table as SQLiteTable) : db.select().from(table as SQLiteTable);
  const [totals, found, ...extra] = await db.batch([
    db
      .select({ total: count() })
      .from(table as SQLiteTable)
      .where(where),
    selected
      .where(rows.where)
      .orderBy(...rows.orderBy)
      .limit(rows.limit)
      .offset(rows.offset),
    ...extras,
  ]);
  const decoded = row ? (found as { row: string }[]).map((r) => row.decode(r.row)) : (found as R[]);
  return { rows: decoded, total: (totals as { total: number }[])[0]?.total ?? 0, extra };
}

export function pageOf<T extends SQLiteTable, R = T["$inferSelect"]>(
  db: Db,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  request: PageRequest,
  alongside?: Alongside,
  row?: JsonRow<R>,
): Promise<{ rows: R[]; total: number; extra: unknown[] }> {
  return batchPage(db, table, where, { where, orderBy, limit: request.limit, offset: request.offset }, alongside, row);
}

/**
 * One page of a sync listing (db/sync-order.ts) in one round trip: rows after the request's cursor
 * (or at its offset without one), one row more than the page to know whether a next page exists.
 * The total counts the whole listing, cursor aside, so Total-Count means the same on every page.
 */
export async function syncPageOf<T extends SQLiteTable, R = T["$inferSelect"]>(
  db: Db,
  table: T,
  columns: SyncColumns,
  where: SQL | undefined,
  direction: SyncDirection,
  request: PageRequest,
  alongside?: Alongside,
  row?: JsonRow<R>,
): Promise<{ rows: R[]; total: number; nextCursor: string | null; extra: unknown[] }> {
  const rowsWhere = request.cursor ? and(where, afterSyncCursor(columns, request.cursor, direction)) : where;
  const probed = await batchPage(
    db,
    table,
    where,
    { where: rowsWhere, orderBy: syncOrder(columns, direction), limit: request.limit + 1, offset: request.offset },
    alongside,
    row,
  );
  const rows = probed.rows.slice(0, request.limit);
  const last = rows.at(-1) as { updated_at: number; id: number } | undefined;
  const nextCursor = probed.rows.length > request.limit && last ? formatSyncCursor(last) : null;
  return { rows, total: probed.total, nextCursor, extra: probed.extra };
}
