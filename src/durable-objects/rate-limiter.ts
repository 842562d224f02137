// One object per client IP holding that client's request budget in memory. Nothing is written
// to storage: losing the log on eviction only forgives a client, it never blocks one wrongly.
import { DurableObject } from "cloudflare:workers";
import { SlidingLog, type RateLimitDecision, type RateLimitPolicy } from "../domain/sliding-log";

export type { RateLimitDecision, RateLimitPolicy } from "../domain/sliding-log";

export class RateLimiter extends DurableObject {
  #budget = new SlidingLog();

  hit(policy: RateLimitPolicy): RateLimitDecision {
    return this.#budget.hit(policy, Date.now());
  }
}
