// How much of one resource's capacity active bookings hold over time, as a step function on epoch ms.

interface Held {
  from: number;
  to: number;
  count: number;
}

/**
 * Breakpoints ascending with the count held from each until the next; nothing is held before the first
 * or after the last. Bookings are half-open [from, to), so one ending where another starts never overlaps it.
 * Queries keep a cursor because callers ask in (mostly) ascending time order.
 */
export class Occupancy {
  private readonly times: Float64Array;
  private readonly levels: Float64Array;
  private cursor = -1;

  constructor(bookings: readonly Held[]) {
    const held = bookings.filter(({ from, to, count }) => to > from && count > 0);
    // Typed-array sorts are native numeric sorts; a comparator sort here was most of a call's time.
    const starts = new Float64Array(held.length);
    const ends = new Float64Array(held.length);
    for (let i = 0; i < held.length; i++) {
      starts[i] = held[i].from;
      ends[i] = held[i].to;
    }
    starts.sort();
    ends.sort();
    const counted = held.some((b) => b.count !== 1);
    const startCounts = counted ? countsInOrder(held, "from") : null;
    const endCounts = counted ? countsInOrder(held, "to") : null;
    const times = new Float64Array(starts.length + ends.length);
    const levels = new Float64Array(times.length);
    let n = 0;
    let level = 0;
    for (let s = 0, e = 0; s < starts.length || e < ends.length; ) {
      const takeEnd = s === starts.length || ends[e] <= starts[s];
      const at = takeEnd ? ends[e] : starts[s];
      if (takeEnd) level -= endCounts ? endCounts[e] : 1;
      else level += startCounts ? startCounts[s] : 1;
      if (takeEnd) e++;
      else s++;
      // Equal instants collapse into one breakpoint, so a booking ending where another starts never overlaps it.
      if (n > 0 && times[n - 1] === at) levels[n - 1] = level;
      else {
        times[n] = at;
        levels[n++] = level;
      }
    }
    this.times = times.subarray(0, n);
    this.levels = levels.subarray(0, n);
  }

  /** Index of the last breakpoint at or before `at`, or -1. */
  private seek(at: number): number {
    const { times } = this;
    let k = this.cursor;
    while (k + 1 < times.length && times[k + 1] <= at) k++;
    while (k >= 0 && times[k] > at) k--;
    this.cursor = k;
    return k;
  }

  /** The highest count held at any instant of [from, to): concurrent bookings, not their sum. */
  peak(from: number, to: number): number {
    const { times, levels } = this;
    let k = this.seek(from);
    let peak = k >= 0 ? levels[k] : 0;
    for (k++; k < times.length && times[k] < to; k++) if (levels[k] > peak) peak = levels[k];
    return peak;
  }

  /**
   * When the last stretch holding at least `limit` that touches [from, to) ends, i.e. the first instant
   * after which the span could be free again. Call only when peak(from, to) >= limit >= 1.
   */
  freedAfter(from: number, to: number, limit: number): number {
    const { times, levels } = this;
    let k = this.seek(from);
    let lastFull = k >= 0 && levels[k] >= limit ? k : -1;
    for (k++; k < times.length && times[k] < to; k++) if (levels[k] >= limit) lastFull = k;
    if (lastFull < 0) return from;
    let end = lastFull + 1;
    while (end < times.length && levels[end] >= limit) end++;
    // The last breakpoint always drops to 0 < limit, so `end` names a real instant.
    return times[end] ?? to;
  }
}

/** Counts of the bookings in the order their `key` instants sort. */
function countsInOrder(held: readonly Held[], key: "from" | "to"): number[] {
  return held
    .map((_, i) => i)
    .sort((a, b) => held[a][key] - held[b][key])
    .map((i) => held[i].count);
}
