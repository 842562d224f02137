// Raw SQL statements as D1 binds them: the shape the CapacityGuard runs, and how a column value is
// bound. Drizzle conditions that raw statements reuse are rendered once (db/fixed-statement.ts).

type SqlValue = string | number | null;

export interface SqlStatement {
  sql: string;
  params: SqlValue[];
}

/** A column value as D1 binds it: flags as 0/1, JSON columns as text. */
function toSqlValue(value: unknown): SqlValue {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return value as SqlValue;
}

/** The columns a write sets, bound as D1 binds them; undefined means "leave the column alone". */
export function toSqlRow(values: object): Record<string, SqlValue> {
  const row: Record<string, SqlValue> = {};
  for (const [column, value] of Object.entries(values)) {
    if (value !== undefined) row[column] = toSqlValue(value);
  }
  return row;
}
