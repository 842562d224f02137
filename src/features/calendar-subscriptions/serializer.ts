// A calendar subscription as the private API shows it: its address in full only in the create's answer.
import type { CalendarSubscription } from "../../db/schema";
import { formatInstant, formatNullableInstant as at } from "../../domain/time";
import { subscriptionStatus } from "./status";

export const toCalendarSubscriptionJson = (s: CalendarSubscription, timeZone: string, url?: string) => ({
  id: s.id,
  resource_id: s.resource_id,
  name: s.name,
  url_hint: s.url_hint,
  ...(url ? { url } : {}),
  status: subscriptionStatus(s),
  events_read: s.events_read,
  busy_count: s.busy_count,
  last_fetched_at: at(s.last_fetched_at, timeZone),
  last_success_at: at(s.last_success_at, timeZone),
  last_error: s.last_error,
  last_error_at: at(s.last_error_at, timeZone),
  failures: s.failures,
  next_fetch_at: at(s.next_fetch_at, timeZone),
  created_at: formatInstant(s.created_at, timeZone),
  updated_at: formatInstant(s.updated_at, timeZone),
});
