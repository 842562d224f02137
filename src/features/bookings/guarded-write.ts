// Booking writes as raw statements, and the ones that take capacity run through the CapacityGuard
// of their scope with the capacity check inside the statement itself (capacity-sql.ts).
import type { Booking } from "../../db/schema";
import { followBookmark } from "../../db/request-scope";
import { accountD1 } from "../../db/shards";
import type { Deps } from "../../env";
import { toSqlRow, type SqlStatement } from "../../db/sql-statement";
import { fitsCondition, type CapacityScope, type CapacityWindow } from "./capacity-sql";
import { refusalReads, rememberFull, type MemoSlot } from "./refusal-memo";

export type BookingColumns = Partial<Omit<Booking, "id">>;

interface Guard {
  scope: CapacityScope;
  window: CapacityWindow;
}

/** `INSERT … SELECT … WHERE <fits> RETURNING id`: inserts nothing when the booking does not fit. */
export function insertBookingStatement(values: BookingColumns, guard?: Guard): SqlStatement {
  const row = toSqlRow(values);
  const columns = Object.keys(row);
  const fits = guard ? fitsCondition(guard.scope, guard.window) : null;
  return {
    sql: `INSERT INTO bookings (${columns.join(", ")}) SELECT ${columns.map(() => "?").join(", ")}${fits ? ` WHERE ${fits.sql}` : ""} RETURNING id`,
    params: [...Object.values(row), ...(fits?.params ?? [])],
  };
}

/**
 * Compare-and-swap update: changes the booking only while it is still in `expectedState`, and,
 * with a guard, only while the new time/resource/count fits.
 */
export function updateBookingStatement(
  target: { id: number; accountId: number; expectedState: string },
  values: BookingColumns,
  guard?: Guard,
): SqlStatement {
  const row = toSqlRow(values);
  const fits = guard ? fitsCondition(guard.scope, { ...guard.window, excludeBookingId: target.id }) : null;
  return {
    sql: `UPDATE bookings SET ${Object.keys(row).map((c) => `${c} = ?`).join(", ")}
          WHERE id = ? AND account_id = ? AND state = ?${fits ? ` AND ${fits.sql}` : ""} RETURNING id`,
    params: [...Object.values(row), target.id, target.accountId, target.expectedState, ...(fits?.params ?? [])],
  };
}

/** Runs the statement; through the scope's guard when there is one. Returns the booking id, or null. */
export async function runWrite(deps: Pick<Deps, "env" | "account" | "capacityGuard">, statement: SqlStatement, scope?: CapacityScope): Promise<number | null> {
  if (scope) {
    const result = await deps.capacityGuard.apply(scope, { statements: [statement] });
    followBookmark(result.shard, result.bookmark);
    return result.applied ? Number(result.rows[0][0]?.id) : null;
  }
  const row = await accountD1(deps).prepare(statement.sql).bind(...statement.params).first<{ id: number }>();
  return row?.id ?? null;
}

/**
 * A create's guarded insert through its scope's guard, with the reads a refusal is remembered by
 * (refusal-memo.ts) in the same batch. Returns the booking id, or null when it did not fit.
 */
export async function runGuardedInsert(deps: Pick<Deps, "capacityGuard">, statement: SqlStatement, slot: MemoSlot): Promise<number | null> {
  const result = await deps.capacityGuard.apply(slot.scope, { statements: [statement, ...refusalReads(slot)], atomic: true });
  followBookmark(result.shard, result.bookmark);
  if (result.applied) return Number(result.rows[0][0]?.id);
  rememberFull(slot, result.rows.slice(1));
  return null;
}
