// A request budget as a sliding log: never more than `limit` requests in any `windowMs`.
// Pure: the clock is an argument, so the window's behaviour is tested to the millisecond.

export interface RateLimitPolicy {
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the window after this one. */
  remaining: number;
  /** Whole seconds until the oldest counted request leaves the window and frees one request. */
  resetSeconds: number;
}

/** A decision and, when it counted the request, the time it was counted at: what `refund` takes back. */
export interface RateLimitHit extends RateLimitDecision {
  countedAt?: number;
}

/**
 * Sliding log rather than a fixed window: a fixed window lets a client send twice the budget
 * across a window boundary, the log never allows more than `limit` in any `windowMs`. Memory is
 * one number per counted request, bounded by `limit`.
 */
export class SlidingLog {
  #log: number[] = [];
  #head = 0;

  hit({ limit, windowMs }: RateLimitPolicy, now: number): RateLimitDecision {
    this.#forgetBefore(now - windowMs);
    const counted = this.#log.length - this.#head;
    // Refused requests are not counted, so a client that waits for Retry-After gets in then.
    const allowed = counted < limit;
    if (allowed) this.#log.push(now);
    const oldest = this.#log[this.#head] ?? now;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - counted - (allowed ? 1 : 0)),
      resetSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
    };
  }

  /**
   * Takes back one request counted at `countedAt` (what `hit` was given as `now` when it allowed
   * it), as if it had never been counted. One that has already left the window is gone anyway.
   */
  refund(countedAt: number): void {
    for (let i = this.#log.length - 1; i >= this.#head; i -= 1) {
      if (this.#log[i] === countedAt) {
        this.#log.splice(i, 1);
        return;
      }
    }
  }

  #forgetBefore(cutoff: number): void {
    while (this.#head < this.#log.length && this.#log[this.#head] <= cutoff) this.#head += 1;
    // Compacting only once the dead prefix dominates keeps each hit amortised O(1).
    if (this.#head > 64 && this.#head * 2 > this.#log.length) {
      this.#log = this.#log.slice(this.#head);
      this.#head = 0;
    }
  }
}
