// Id lists bound as ONE JSON parameter: D1 allows at most 100 bound parameters per query,
// and id filters or link lists may be longer than that.
import { inArray, sql, type Column, type SQL } from "drizzle-orm";

/** `(select value from json_each(?))`: the ids as a subquery with a single parameter. */
export const jsonIds = (ids: readonly number[]): SQL => sql`(select value from json_each(${JSON.stringify(ids)}))`;

/** `column IN (...)` for any number of ids. */
export const inIds = (column: Column, ids: readonly number[]): SQL => inArray(column, jsonIds(ids));
