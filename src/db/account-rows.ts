// An account's rows as raw values, table by table: read in pages, written in D1-sized batches and
// deleted in bounded rounds. Shared by the moves between shards, the export and import of an
// account, and the deletion of an account that left (docs/decisions/personal-data.md).
import type { DataTable } from "./data-tables";
import { dataTables } from "./data-tables";

export type Row = Record<string, unknown>;

/** D1 binds at most 100 parameters per statement. */
const MAX_PARAMS = 100;
/** Statements per D1 batch during an import: each batch is atomic, the import as a whole is not. */
const STATEMENTS_PER_BATCH = 50;

/** Where a page of a table ends: the order's values of its last row. */
export interface PageCursor {
  updatedAt?: number;
  rowid: number;
}

const ordersByUpdatedAt = (table: DataTable) => table.orderBy.startsWith("updated_at");

/**
 * One page of the account's rows of a table, in the order an import must write them (oldest
 * `updated_at` first, so the commit-order triggers of drizzle/0002 leave every timestamp as it
 * was), after `cursor`. Keyset paging: a page costs the same wherever it is in the table.
 */
export async function pageOfRows(
  d1: D1Database,
  table: DataTable,
  accountId: number,
  cursor: PageCursor | null,
  limit: number,
): Promise<{ rows: Row[]; next: PageCursor | null }> {
  const byUpdatedAt = ordersByUpdatedAt(table);
  const after = cursor === null ? "" : byUpdatedAt ? "AND (updated_at, rowid) > (?, ?)" : "AND rowid > ?";
  const params = cursor === null ? [] : byUpdatedAt ? [cursor.updatedAt ?? 0, cursor.rowid] : [cursor.rowid];
  const { results } = await d1
    .prepare(`SELECT rowid AS row_position, ${table.columns.join(", ")} FROM ${table.name} WHERE account_id = ? ${after} ORDER BY ${table.orderBy} LIMIT ?`)
    .bind(accountId, ...params, limit)
    .all<Row>();
  const rows = results.map(({ row_position: _position, ...row }) => row);
  const last = results.at(-1);
  const next = results.length < limit || !last ? null : { rowid: Number(last.row_position), ...(byUpdatedAt ? { updatedAt: Number(last.updated_at) } : {}) };
  return { rows, next };
}

/** Multi-row inserts of `rows` (all with the same columns), each within D1's parameter limit. */
export function insertStatements(d1: D1Database, table: string, rows: Row[]): D1PreparedStatement[] {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const statements = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const values = chunk.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ");
    statements.push(d1.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values}`).bind(...chunk.flatMap((row) => columns.map((c) => row[c] ?? null))));
  }
  return statements;
}

export async function runInBatches(d1: D1Database, statements: D1PreparedStatement[]): Promise<void> {
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) await d1.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
}

/** Every row of the account on this database at once: for copies small enough to have been read whole. */
export const deleteAccountRows = (d1: D1Database, accountId: number) =>
  d1.batch(dataTables.map((t) => d1.prepare(`DELETE FROM ${t.name} WHERE account_id = ?`).bind(accountId)));

/**
 * Deletes the account's rows in rounds: each round is one D1 batch of one statement per table,
 * each removing at most `rowsPerStatement` rows, so no statement holds the shard's writer long.
 * Stops after `rounds` rounds, or as soon as a round left every table short of a full page: D1
 * counts rows its triggers touch too (the version bumps of drizzle/0006), so `changes` is at least
 * the rows deleted, and a table short of a page has no row of the account left.
 */
export async function deleteAccountRowsBounded(
  d1: D1Database,
  accountId: number,
  { rowsPerStatement, rounds }: { rowsPerStatement: number; rounds: number },
): Promise<{ changes: number; done: boolean }> {
  let changes = 0;
  for (let round = 0; round < rounds; round++) {
    const results = await d1.batch(
      dataTables.map((t) =>
        d1.prepare(`DELETE FROM ${t.name} WHERE rowid IN (SELECT rowid FROM ${t.name} WHERE account_id = ? LIMIT ?)`).bind(accountId, rowsPerStatement),
      ),
    );
    changes += results.reduce((n, r) => n + r.meta.changes, 0);
    if (results.every((r) => r.meta.changes < rowsPerStatement)) return { changes, done: true };
  }
  return { changes, done: false };
}
