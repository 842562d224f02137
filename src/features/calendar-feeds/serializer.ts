// A calendar feed as the private API shows it: the URL only in the answer that created it.
import type { CalendarFeed } from "../../db/schema";
import { formatInstant } from "../../domain/time";

export const toCalendarFeedJson = (feed: CalendarFeed, timeZone: string, url?: string) => ({
  id: feed.id,
  resource_id: feed.resource_id,
  created_at: formatInstant(feed.created_at, timeZone),
  ...(url ? { url } : {}),
});
