// How a subscription stands, from its columns: never fetched yet, fine, or failing since its last good fetch.
import type { CalendarSubscription } from "../../db/schema";

export type SubscriptionStatus = "pending" | "ok" | "failing";

export function subscriptionStatus(s: Pick<CalendarSubscription, "last_success_at" | "failures">): SubscriptionStatus {
  if (s.failures > 0) return "failing";
  return s.last_success_at === null ? "pending" : "ok";
}
