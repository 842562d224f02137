// How much of one resource's capacity active bookings hold over time, as a step function on epoch ms.

export interface Held {
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
  private readonly times: number[] = [];
  private readonly levels: number[] = [];
  private cursor = -1;

  constructor(bookings: readonly Held[]) {
    const edges: number[] = [];
    const deltas: number[] = [];
    for (const { from, to, count } of bookings) {
      if (!(to > from) || !(count > 0)) continue;
      edges.push(from, to);
      deltas.push(count, -count);
    }
    const order = Array.from(edges.keys()).sort((a, b) => edges[a] - edges[b]);
    let level = 0;
    for (const i of order) {
      level += deltas[i];
      const last = this.times.length - 1;
      if (last >= 0 && this.times[last] === edges[i]) this.levels[last] = level;
      else {
        this.times.push(edges[i]);
        this.levels.push(level);
      }
    }
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
