// One page of rows and the total that match, in one D1 round trip: every paginated list uses it.
import { count, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import type { PageRequest } from "../http/pagination";

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
