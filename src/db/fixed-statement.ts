// Statements of hot paths whose SQL text is built once per isolate (Drizzle's builder, with
// placeholders for the per-request values) and only bound per request: building a create's four
// reference statements with Drizzle on every request was 0.4 ms of a refused create's CPU
// (docs/decisions/latency.md, "Refusals from memory"). Built when first bound, not at start-up:
// rendering them all at module load cost a fresh isolate several ms (same file, "Start-up").
import { is, Param, Placeholder } from "drizzle-orm";
import type { JsonRow } from "./json-row";

type SqlValue = string | number | null;

export interface FixedStatement<K extends string> {
  readonly sql: string;
  /** Per parameter: the placeholder's name, or the constant Drizzle rendered (already a driver value). */
  readonly params: ({ name: K } | { value: SqlValue })[];
}

type Rendered<K extends string> = { sql: string; params: FixedStatement<K>["params"] };

/** A Drizzle query's text and parameters, rendered once, on first use; `K` names its placeholders. */
export function fixedStatement<K extends string>(build: () => { toSQL(): { sql: string; params: unknown[] } }): FixedStatement<K> {
  let rendered: Rendered<K> | undefined;
  const render = (): Rendered<K> => {
    if (rendered) return rendered;
    const { sql, params } = build().toSQL();
    rendered = {
      sql,
      params: params.map((p) => {
        if (is(p, Placeholder)) return { name: p.name as K };
        if (is(p, Param) && is(p.value, Placeholder)) return { name: p.value.name as K };
        return { value: p as SqlValue };
      }),
    };
    return rendered;
  };
  return {
    get sql() {
      return render().sql;
    },
    get params() {
      return render().params;
    },
  };
}

/** Its parameters with this request's values, in order. */
export const paramsOf = <K extends string>(statement: FixedStatement<K>, values: Record<K, SqlValue>): SqlValue[] =>
  statement.params.map((p) => ("name" in p ? values[p.name] : p.value));

/** The statement bound with this request's values, on the request's D1 handle. */
export function bindFixed<K extends string>(d1: D1Database, statement: FixedStatement<K>, values: Record<K, SqlValue>): D1PreparedStatement {
  return d1.prepare(statement.sql).bind(...paramsOf(statement, values));
}

/** The rows of a statement that selects one `json_array` text per row (db/json-row.ts) as its only column, decoded. */
export async function readJsonRows<K extends string, R>(d1: D1Database, statement: FixedStatement<K>, row: JsonRow<R>, values: Record<K, SqlValue>): Promise<R[]> {
  const rows = await bindFixed(d1, statement, values).raw<[string]>();
  return rows.map(([text]) => row.decode(text));
}
