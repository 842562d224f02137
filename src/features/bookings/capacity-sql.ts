// The capacity check as SQL, so the write that takes capacity re-checks it in the same
// statement: the second line of defence behind the CapacityGuard Durable Object.
// "Active" here is exactly the spec's: an active state, and not an unverified booking whose
// `expires_at` has passed (that one reads as inactive at once, before any sweep persists it).

export interface CapacityScope {
  /** Appointment capacity is per resource and instant; event capacity is per event. */
  kind: "resource" | "event";
  id: number;
  capacity: number;
}

export interface CapacityWindow {
  from: number;
  to: number;
  count: number;
  now: number;
  /** The booking being moved or re-activated: its own count must not block it. */
  excludeBookingId?: number;
}

export interface SqlStatement {
  sql: string;
  params: (string | number | null)[];
}

const HOLDS_CAPACITY = `active = 1 AND NOT (state = 'awaiting_verification' AND expires_at IS NOT NULL AND expires_at <= ?)`;

/**
 * SQL that is true when `window.count` more fits into the scope. For resources this is the
 * peak of concurrent counts over the window (not the plain sum of overlaps, which would refuse
 * bookings that fit when capacity > 1): the load can only peak at the window's start or at the
 * start of an overlapping booking.
 */
export function fitsCondition(scope: CapacityScope, window: CapacityWindow): SqlStatement {
  const exclude = window.excludeBookingId ?? 0;
  if (scope.kind === "event") {
    return {
      sql: `(SELECT COALESCE(SUM(count), 0) FROM bookings
              WHERE event_id = ? AND id != ? AND ${HOLDS_CAPACITY}) + ? <= ?`,
      params: [scope.id, exclude, window.now, window.count, scope.capacity],
    };
  }
  return {
    sql: `(WITH overlapping AS (
              SELECT booked_from, booked_to, count FROM bookings
              WHERE resource_id = ? AND event_id IS NULL AND id != ? AND ${HOLDS_CAPACITY}
                AND booked_from < ? AND booked_to > ?),
            peaks AS (
              SELECT ? AS at UNION SELECT booked_from FROM overlapping WHERE booked_from > ?)
            SELECT COALESCE(MAX((SELECT COALESCE(SUM(count), 0) FROM overlapping
                                  WHERE booked_from <= peaks.at AND booked_to > peaks.at)), 0)
            FROM peaks) + ? <= ?`,
    params: [scope.id, exclude, window.now, window.to, window.from, window.from, window.from, window.count, scope.capacity],
  };
}

/** Current peak load of the scope over the window (for messages and tests). */
export function peakLoadQuery(scope: CapacityScope, window: CapacityWindow): SqlStatement {
  const fits = fitsCondition({ ...scope, capacity: 0 }, { ...window, count: 0 });
  // `<peak> + 0 <= 0` → strip the comparison to read the peak itself.
  return { sql: `SELECT ${fits.sql.replace(/\+ \? <= \?$/, "")} AS peak`, params: fits.params.slice(0, -2) };
}
