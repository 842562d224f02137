// POST /calendar_feeds body: the scope of the feed to create or rotate (no resource: the whole account).
import * as z from "zod";
import { idParam } from "../../http/fields";

export const createCalendarFeedBody = z.object({
  calendar_feed: z.strictObject({ resource_id: idParam.nullable().optional() }).default({}),
});

/** `<token>.ics`: the token is URL-safe base64 with its prefix, so anything else is an unknown feed. */
export const FEED_FILE = /^(cal_[A-Za-z0-9_-]{43})\.ics$/;

/** GET /calendar/bookings/<id>.ics: the signature its messages' link carries (links.ts). */
export const bookingFileQuery = z.object({ signature: z.string().max(100) });
