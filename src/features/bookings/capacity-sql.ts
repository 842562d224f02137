// The capacity check as SQL, so the write that takes capacity re-checks it in the same
// statement: the second line of defence behind the CapacityGuard Durable Object.
// "Holds capacity" is active-sql.ts's one definition, rendered to text here.
import type { SqlStatement } from "../../db/sql-statement";
import { resourceOccupants } from "../occupancy/occupants-sql";
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
 * at the start of an overlapping occupant. What occupies a resource (bookings over their occupied
 * span, live holds, busy times) is occupancy/occupants-sql.ts's one definition.
 */
function loadSql(scope: CapacityScope, window: CapacityWindow): SqlStatement {
  if (scope.kind === "event") return eventLoadSql(scope.id, window.now, window.excludeBookingId ?? 0, window.excludeHoldId ?? 0);
  const occupants = resourceOccupants({
    resourceId: scope.id,
    from: window.from,
    to: window.to,
    now: window.now,
    excludeBookingId: window.excludeBookingId,
    excludeHoldId: window.excludeHoldId,
  });
  return {
    sql: `(WITH overlapping AS (${occupants.sql}),
            peaks AS (
              SELECT ? AS at UNION SELECT occupied_from FROM overlapping WHERE occupied_from > ?)
            SELECT COALESCE(MAX((SELECT COALESCE(SUM(count), 0) FROM overlapping
                                  WHERE occupied_from <= peaks.at AND occupied_to > peaks.at)), 0)
            FROM peaks)`,
    params: [...occupants.params, window.from, window.from],
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
