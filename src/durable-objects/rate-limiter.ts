// One object per request budget (a client address, or an API key) holding that budget in memory.
// Nothing is written to storage: losing the log on eviction only forgives a client, it never
// blocks one wrongly.
import { DurableObject } from "cloudflare:workers";
import { SlidingLog, type RateLimitHit, type RateLimitPolicy } from "../domain/sliding-log";
import type { RateLimiterObject } from "../env";

export type { RateLimitDecision, RateLimitHit, RateLimitPolicy } from "../domain/sliding-log";

export class RateLimiter extends DurableObject implements RateLimiterObject {
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
