// The tables that hold an account's data on its shard: every table with `account_id` except the
// directory's own (api_keys), derived from schema.ts so a new table is moved without a list to update.
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

const DIRECTORY_TABLES = new Set(["accounts", "api_keys"]);
/**
 * Kept by triggers on the shard (drizzle/0006, 0009, 0012): importing the rows bumps the destination's own
 * row, and a moved account is a new account object, which no cached slot answer matches; cached
 * booking lists are keyed by shard. Never copied or deleted, so a shard's version of an account
 * only grows, also when the account comes back to it.
 */
const DERIVED_TABLES = new Set(["availability_versions", "listing_versions", "calendar_versions", "booking_hour_versions"]);

export interface DataTable {
  name: string;
  columns: string[];
  /** `id INTEGER PRIMARY KEY AUTOINCREMENT`: its ids come from the shard's sqlite_sequence. */
  autoIncrement: boolean;
  /** Tables whose triggers keep updated_at in commit order (drizzle/0002): imported oldest first. */
  orderBy: string;
}

const tables: SQLiteTable[] = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));

const isAutoIncrement = (table: SQLiteTable) => Boolean((getTableColumns(table) as Record<string, { autoIncrement?: boolean }>).id?.autoIncrement);

const described: DataTable[] = tables.map((table) => {
  const columns = getTableColumns(table);
  // Generated columns (bookings' occupied span) follow from the others and cannot be written.
  const names = Object.values(columns)
    .filter((c) => c.generated === undefined)
    .map((c) => c.name);
  return {
    name: getTableName(table),
    columns: names,
    autoIncrement: isAutoIncrement(table),
    orderBy: names.includes("updated_at") ? "updated_at, rowid" : "rowid",
  };
});

export const dataTables: DataTable[] = described.filter((t) => t.columns.includes("account_id") && !DIRECTORY_TABLES.has(t.name) && !DERIVED_TABLES.has(t.name));

/** The directory's tables (accounts, api_keys), as an account's export carries them. */
export const directoryTables: DataTable[] = described.filter((t) => DIRECTORY_TABLES.has(t.name));
