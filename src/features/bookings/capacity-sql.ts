// The capacity check as SQL, so the write that takes capacity re-checks it in the same
// statement: the second line of defence behind the CapacityGuard Durable Object.
// "Holds capacity" is active-sql.ts's one definition, rendered to text here.
import type { SqlStatement } from "../../db/sql-statement";
import { holdsCapacity, liveHold } from "./active-sql";


export interface CapacityScope {
  /** Appointment capacity is per resource and instant; event capacity is per event. */
  kind: "resource" | "event";
  id: number;
  capacity: number;
}

export interface CapacityWindow {
  /**
   * What the booking occupies: for a resource its times widened by its buffers (occupiedSpan in
   * buffers.ts), for an event the event's times. Never the customer's times alone.
   */
  from: number;
  to: number;
  count: number;
  now: number;
  /** The booking being moved or re-activated: its own count must not block it. */
  excludeBookingId?: number;
  /** The hold a create converts: its seats pass to the booking, so they must not block it (holds.md). */
  excludeHoldId?: number;
}

/**
 * The count an event's bookings and live holds take now. Exported for the events feature, whose capacity
 * changes must be checked against exactly what event bookings are checked against.
 */
export function eventLoadSql(eventId: number, now: number, excludeBookingId = 0, excludeHoldId = 0): SqlStatement {
  const holds = holdsCapacity(now);
  const live = liveHold(now);
  return {
    sql: `((SELECT COALESCE(SUM(count), 0) FROM bookings WHERE event_id = ? AND id != ? AND ${holds.sql})
          + (SELECT COALESCE(SUM(count), 0) FROM slot_holds WHERE event_id = ? AND id != ? AND ${live.sql}))`,
    params: [eventId, excludeBookingId, ...holds.params, eventId, excludeHoldId, ...live.params],
  };
}

/**
 * The load the new booking adds to: for events the sum of the event's bookings; for resources
 * the peak of concurrent counts over the window (not the plain sum of overlaps, which would
 * refuse bookings that fit when capacity > 1): the load can only peak at the window's start or
 * at the start of an overlapping booking. Bookings count over their occupied span, buffers included,
 * and live slot holds count as bookings do (docs/decisions/holds.md).
 */
function loadSql(scope: CapacityScope, window: CapacityWindow): SqlStatement {
  const exclude = window.excludeBookingId ?? 0;
  const excludeHold = window.excludeHoldId ?? 0;
  if (scope.kind === "event") return eventLoadSql(scope.id, window.now, exclude, excludeHold);
  const holds = holdsCapacity(window.now);
  const live = liveHold(window.now);
  return {
    sql: `(WITH overlapping AS (
              SELECT occupied_from, occupied_to, count FROM bookings
              WHERE resource_id = ? AND event_id IS NULL AND id != ? AND ${holds.sql}
                AND occupied_from < ? AND occupied_to > ?
              UNION ALL
              SELECT occupied_from, occupied_to, count FROM slot_holds
              WHERE resource_id = ? AND event_id IS NULL AND id != ? AND ${live.sql}
                AND occupied_from < ? AND occupied_to > ?),
            peaks AS (
              SELECT ? AS at UNION SELECT occupied_from FROM overlapping WHERE occupied_from > ?)
            SELECT COALESCE(MAX((SELECT COALESCE(SUM(count), 0) FROM overlapping
                                  WHERE occupied_from <= peaks.at AND occupied_to > peaks.at)), 0)
            FROM peaks)`,
    params: [
      scope.id, exclude, ...holds.params, window.to, window.from,
      scope.id, excludeHold, ...live.params, window.to, window.from,
      window.from, window.from,
    ],
  };
}

/**
 * SQL that is true when `window.count` more fits into the scope. An event's capacity is read
 * from its row, not from the caller's earlier read: an event update serialised just before this
 * write (same guard) may have lowered it, moved the event or deleted it, and a booking must then
 * not go in with the stale capacity or times (NULL compares false).
 */
export function fitsCondition(scope: CapacityScope, window: CapacityWindow): SqlStatement {
  const load = loadSql(scope, window);
  if (scope.kind === "event") {
    return {
      sql: `${load.sql} + ? <= (SELECT capacity FROM events WHERE id = ? AND active = 1 AND starts_at = ? AND ends_at = ?)`,
      params: [...load.params, window.count, scope.id, window.from, window.to],
    };
  }
  return { sql: `${load.sql} + ? <= ?`, params: [...load.params, window.count, scope.capacity] };
}

/** Current load of the scope over the window (for messages and tests). */
export function peakLoadQuery(scope: CapacityScope, window: CapacityWindow): SqlStatement {
  const load = loadSql(scope, window);
  return { sql: `SELECT ${load.sql} AS peak`, params: load.params };
}
