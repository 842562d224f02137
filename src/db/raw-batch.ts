// Raw SQL statements (Drizzle's `sql` templates) sent as one D1 batch, each answering its rows:
// Drizzle batches only its own query builders, and the personal data statements are built from
// the registry's SQL text (db/personal-data.ts).
import { getTableColumns, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";

const dialect = new SQLiteSyncDialect();

/** Runs `statements` in one batch (one transaction) on the database behind `db`, answering each one's rows. */
export async function rawBatch<Row = Record<string, unknown>>(db: Db, statements: SQL[]): Promise<Row[][]> {
  if (statements.length === 0) return [];
  // The handle's own client: the request's D1 session (db/request-scope.ts), so bookmarks hold.
  const d1 = (db as unknown as { $client: D1Database }).$client;
  const prepared = statements.map((statement) => {
    const { sql, params } = dialect.sqlToQuery(statement);
    return d1.prepare(sql).bind(...params);
  });
  const results = await d1.batch<Row>(prepared);
  return results.map((r: D1Result<Row>) => r.results ?? []);
}

/** A raw row of `table` as Drizzle answers it: flags as booleans, JSON columns parsed. */
export function fromDriverRow(table: SQLiteTable, raw: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row;
}
