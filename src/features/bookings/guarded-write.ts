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

/**
 * The person a create or an update inserts in the same transaction as its booking's write: the
 * largest id of the people table once that insert ran (ids only grow: AUTOINCREMENT, and a
 * transaction runs alone).
 */
const INSERTED_PERSON = "(SELECT MAX(id) FROM people)";

/**
 * `INSERT … SELECT … WHERE <fits> RETURNING id`: inserts nothing when the booking does not fit.
 * With `personInserted`, its person is the one inserted just before it in the same batch
 * (`insertPersonStatement`), whatever `values.person_id` says.
 */
export function insertBookingStatement(values: BookingColumns, guard?: Guard, opts: { personInserted?: boolean } = {}): SqlStatement {
  const row = toSqlRow(opts.personInserted ? { ...values, person_id: undefined } : values);
  const columns = Object.keys(row);
  const fits = guard ? fitsCondition(guard.scope, guard.window) : null;
  const names = opts.personInserted ? [...columns, "person_id"] : columns;
  const slots = [...columns.map(() => "?"), ...(opts.personInserted ? [INSERTED_PERSON] : [])];
  return {
    sql: `INSERT INTO bookings (${names.join(", ")}) SELECT ${slots.join(", ")}${fits ? ` WHERE ${fits.sql}` : ""} RETURNING id`,
    params: [...Object.values(row), ...(fits?.params ?? [])],
  };
}

/**
 * A new person inserted only when `condition` holds: the condition of the booking's write that
 * follows it in the batch, over the same rows (a person changes no booking or event), so both go
 * in or neither does and a refused write leaves no person behind.
 */
function insertPersonStatement(values: Record<string, unknown>, condition: SqlStatement | null): SqlStatement {
  const row = toSqlRow(values);
  const columns = Object.keys(row);
  return {
    sql: `INSERT INTO people (${columns.join(", ")}) SELECT ${columns.map(() => "?").join(", ")}${condition ? ` WHERE ${condition.sql}` : ""} RETURNING id`,
    params: [...Object.values(row), ...(condition?.params ?? [])],
  };
}

interface UpdateTarget {
  id: number;
  accountId: number;
  expectedState: string;
}

/**
 * Compare-and-swap update: changes the booking only while it is still in `expectedState`, and,
 * with a guard, only while the new time/resource/count fits. With `personInserted`, its person is
 * the one inserted just before it in the same batch, whatever `values.person_id` says.
 */
function updateBookingStatement(target: UpdateTarget, values: BookingColumns, guard?: Guard, opts: { personInserted?: boolean } = {}): SqlStatement {
  const row = toSqlRow(opts.personInserted ? { ...values, person_id: undefined } : values);
  const fits = guard ? fitsCondition(guard.scope, { ...guard.window, excludeBookingId: target.id }) : null;
  const sets = [...Object.keys(row).map((c) => `${c} = ?`), ...(opts.personInserted ? [`person_id = ${INSERTED_PERSON}`] : [])];
  return {
    sql: `UPDATE bookings SET ${sets.join(", ")}
          WHERE id = ? AND account_id = ? AND state = ?${fits ? ` AND ${fits.sql}` : ""} RETURNING id`,
    params: [...Object.values(row), target.id, target.accountId, target.expectedState, ...(fits?.params ?? [])],
  };
}

/**
 * True exactly when `updateBookingStatement(target, …, guard)` would change the booking, for a
 * statement before it in the same batch (an update's new person).
 */
function updateAppliesCondition(target: UpdateTarget, guard?: Guard): SqlStatement {
  const fits = guard ? fitsCondition(guard.scope, { ...guard.window, excludeBookingId: target.id }) : null;
  return {
    sql: `EXISTS (SELECT 1 FROM bookings WHERE id = ? AND account_id = ? AND state = ?)${fits ? ` AND ${fits.sql}` : ""}`,
    params: [target.id, target.accountId, target.expectedState, ...(fits?.params ?? [])],
  };
}

/**
 * Ends a converted hold (docs/decisions/holds.md). Right after the booking's insert: `changes()` is
 * that insert's row count (a trigger's writes do not count), so a refused booking leaves the hold
 * live, and the booking is the largest id (ids only grow, and a transaction runs alone).
 */
function convertHoldStatement(hold: { id: number; now: number }): SqlStatement {
  return {
    sql: `UPDATE slot_holds SET ended_at = ?, ended_by = 'converted', booking_id = (SELECT MAX(id) FROM bookings)
          WHERE id = ? AND ended_at IS NULL AND changes() = 1`,
    params: [hold.now, hold.id],
  };
}

type SqlRow = Record<string, string | number | null>;

/** What a create writes in one transaction: its booking, and the new person it links to when there is one. */
export interface CreateWrite {
  booking: BookingColumns;
  /** A new person's columns: inserted just before the booking, only when the booking goes in. */
  person?: Record<string, unknown>;
  /** The slot the booking takes: its capacity check and the reads a refusal is remembered by. None: capacity ignored. */
  slot?: MemoSlot;
  /** Reads run after the insert in the same transaction (the booking with its related rows): their rows are answered. */
  reads?: SqlStatement[];
  /** The live hold the booking takes the seats of: ended in the same transaction, only when the booking went in. */
  convertsHold?: { id: number; now: number };
  /** A statement run right after the booking's insert that must carry `changes() = 1` (a matched person's fill). */
  after?: SqlStatement;
}

export interface CreateResult {
  id: number;
  /** The new person's id, when one was inserted. */
  personId?: number;
  /** The rows of `reads`, in order. */
  reads: SqlRow[][];
}

/**
 * A create's writes in one D1 batch (one transaction): through its scope's guard with the refusal
 * reads (refusal-memo.ts), or straight to D1 when capacity is ignored. Null when it did not fit,
 * and then nothing was written.
 */
export async function runCreate(deps: Pick<Deps, "env" | "account" | "capacityGuard">, write: CreateWrite): Promise<CreateResult | null> {
  const { slot } = write;
  const statements: SqlStatement[] = [];
  const personAt = write.person ? statements.push(insertPersonStatement(write.person, slot ? fitsCondition(slot.scope, slot.window) : null)) - 1 : -1;
  const bookingAt = statements.push(insertBookingStatement(write.booking, slot, { personInserted: personAt >= 0 })) - 1;
  if (write.after) statements.push(write.after);
  if (write.convertsHold) statements.push(convertHoldStatement(write.convertsHold));
  const memoAt = statements.length;
  if (slot) statements.push(...refusalReads(slot));
  const readsAt = statements.length;
  statements.push(...(write.reads ?? []));
  let rows: SqlRow[][];
  if (slot) {
    const result = await deps.capacityGuard.apply(slot.scope, { statements, atomic: true, appliedBy: bookingAt });
    followBookmark(result.shard, result.bookmark);
    if (!result.applied) {
      rememberFull(slot, result.rows.slice(memoAt, readsAt));
      return null;
    }
    rows = result.rows;
  } else {
    // Without a condition the insert always goes in (or the batch fails as a whole).
    const d1 = accountD1(deps);
    const results = await d1.batch(statements.map((s) => d1.prepare(s.sql).bind(...s.params)));
    rows = results.map((r) => (r.results ?? []) as SqlRow[]);
  }
  const id = Number(rows[bookingAt][0]?.id);
  const personId = personAt >= 0 ? Number(rows[personAt][0]?.id) : undefined;
  return { id, personId, reads: rows.slice(readsAt) };
}

/** What an update writes in one transaction: the booking's change, and the person it links to when new or filled. */
export interface UpdateWrite {
  target: UpdateTarget;
  booking: BookingColumns;
  /** The capacity the change takes, checked in the statement and run by its scope's guard; none: no new capacity. */
  guard?: Guard;
  /** A new person's columns: inserted just before the booking's change, only when the change applies. */
  person?: Record<string, unknown>;
  /** A statement run right after the booking's change that must carry `changes() = 1` (a matched person's fill). */
  after?: SqlStatement;
  /** Reads run last in the same transaction whether or not the change applied (the booking with its related rows). */
  reads: SqlStatement[];
}

export interface UpdateResult {
  applied: boolean;
  /** The rows of `reads`, in order: the booking as it is after the batch, changed or not. */
  reads: SqlRow[][];
}

/**
 * An update's writes and its read-back in one D1 batch (one transaction): through the guard of
 * the capacity it takes, or straight to D1 when it takes none. Not applied when the booking left
 * its state or the change does not fit; then nothing was written, and `reads` say why.
 */
export async function runUpdate(deps: Pick<Deps, "env" | "account" | "capacityGuard">, write: UpdateWrite): Promise<UpdateResult> {
  const { target, guard } = write;
  const statements: SqlStatement[] = [];
  if (write.person) statements.push(insertPersonStatement(write.person, updateAppliesCondition(target, guard)));
  const bookingAt = statements.push(updateBookingStatement(target, write.booking, guard, { personInserted: Boolean(write.person) })) - 1;
  if (write.after) statements.push(write.after);
  const readsAt = statements.length;
  statements.push(...write.reads);
  if (guard) {
    const result = await deps.capacityGuard.apply(guard.scope, { statements, atomic: true, appliedBy: bookingAt });
    followBookmark(result.shard, result.bookmark);
    return { applied: result.applied, reads: result.rows.slice(readsAt) };
  }
  const d1 = accountD1(deps);
  const results = await d1.batch(statements.map((s) => d1.prepare(s.sql).bind(...s.params)));
  return { applied: (results[bookingAt].results ?? []).length > 0, reads: results.slice(readsAt).map((r) => (r.results ?? []) as SqlRow[]) };
}
