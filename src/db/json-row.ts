// Rows of many columns read as ONE text per row, `json_array(col, …)` built by SQLite: for a page
// of 750 bookings, workerd's D1 client building an object per row and column and Drizzle mapping
// each value again was 40% of the request's CPU (docs/decisions/latency.md, "Booking pages");
// JSON.parse of one text per row is native. Each value comes back as Drizzle would map it.
import { Column, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

export interface JsonRow<R> {
  /** The select field: one JSON array text per row, the columns in order. */
  field: SQL<string>;
  decode(text: string): R;
}

/** Every key of the table's rows, in the order Drizzle's select of the whole table gives them. */
export const everyColumn = <T extends SQLiteTable>(table: T) => Object.keys(getTableColumns(table)) as (keyof T["$inferSelect"] & string)[];

/** Only the `keys` of the table's rows, through one `json_array` per row. */
export function jsonRow<T extends SQLiteTable, K extends keyof T["$inferSelect"] & string>(table: T, keys: readonly K[]): JsonRow<Pick<T["$inferSelect"], K>> {
  const all = getTableColumns(table) as Record<string, SQLiteColumn>;
  const columns = keys.map((key) => all[key]);
  // Booleans and JSON texts need Drizzle's mapping; plain integers and texts are as SQLite gives them.
  const decoders = columns.map((c) => (c.mapFromDriverValue === Column.prototype.mapFromDriverValue ? null : (value: unknown) => c.mapFromDriverValue(value)));
  return {
    field: sql<string>`json_array(${sql.join(columns, sql`, `)})`,
    decode(text) {
      const values = JSON.parse(text) as unknown[];
      const row: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = values[i];
        const decode = decoders[i];
        row[keys[i]] = value === null || !decode ? value : decode(value);
      }
      return row as Pick<T["$inferSelect"], K>;
    },
  };
}
