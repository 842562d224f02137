// One object per request budget (a client address, or an API key) holding that budget in memory.
// Nothing is written to storage: losing the log on eviction only forgives a client, it never
// blocks one wrongly.
import { DurableObject } from "cloudflare:workers";
import { SlidingLog, type RateLimitDecision, type RateLimitPolicy } from "../domain/sliding-log";

export type { RateLimitDecision, RateLimitPolicy } from "../domain/sliding-log";

/** A decision and, when it counted the request, the time it was counted at: what `refund` takes back. */
export interface RateLimitHit extends RateLimitDecision {
  countedAt?: number;
}

export class RateLimiter extends DurableObject {
  #budget = new SlidingLog();

  hit(policy: RateLimitPolicy): RateLimitHit {
    const now = Date.now();
    const decision = this.#budget.hit(policy, now);
    return decision.allowed ? { ...decision, countedAt: now } : decision;
  }

  /** Un-counts a request this budget allowed but another refused (docs/decisions/rate-limit.md). */
  refund(countedAt: number): void {
    this.#budget.refund(countedAt);
  }
}
