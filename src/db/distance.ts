// How far this isolate is from the database, as measured: what decides whether a write is worth a
// hop to a NearDatabase object (http/near-database.ts). Beside the database, a write's few D1 round
// trips cost less than the extra hop and the second pass through the app; far from it, each round
// trip costs what the one hop does, so the hop wins as soon as a write takes two.

/** A round trip at least this long means the database is in another region. */
export const FAR_ROUND_TRIP_MS = 10;
/**
 * The quickest round trip of this window is the distance: load lengthens some round trips for a
 * moment, never all of them for a minute, and a Worker does not move.
 */
const WINDOW_MS = 60_000;

/** The quickest round trip of the window that started at `start`, and of the window before it. */
let current = { start: -Infinity, quickest: Infinity };
let before = Infinity;

/** A round trip to the database (a D1 call, or the hop to an object beside it) that took `ms`, ended at `now`. */
export function noteRoundTrip(ms: number, now: number): void {
  if (now - current.start < WINDOW_MS) {
    current.quickest = Math.min(current.quickest, ms);
    return;
  }
  // Two windows, so the quickest never drops to nothing at a boundary.
  before = now - current.start < 2 * WINDOW_MS ? current.quickest : Infinity;
  current = { start: now, quickest: ms };
}

/** Far, or not measured lately (a hop to an object beside the database is never wrong, only dearer near it). */
export function databaseSeemsFar(now: number): boolean {
  const age = now - current.start;
  const quickest = Math.min(age < 2 * WINDOW_MS ? current.quickest : Infinity, age < WINDOW_MS ? before : Infinity);
  return !(quickest < FAR_ROUND_TRIP_MS);
}

/** Nothing measured, as on a fresh isolate (tests). */
export function forgetDistance(): void {
  current = { start: -Infinity, quickest: Infinity };
  before = Infinity;
}
