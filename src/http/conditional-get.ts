// Conditional GETs for widgets: an `ETag` on read answers and `If-None-Match` → 304, so a widget
// that polls services and slots re-downloads only what changed (hono/etag hashes the body).
import { etag, RETAINED_304_HEADERS } from "hono/etag";

/** A 304 keeps what a widget still needs: its request id, CORS and (set later) the rate-limit headers. */
export const conditionalGet = etag({
  retainedHeaders: [...RETAINED_304_HEADERS, "x-request-id", "access-control-allow-origin", "access-control-expose-headers", "server-timing"],
});
