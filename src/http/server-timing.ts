// The request's scope (db/request-scope.ts): every answer says what it cost in the currencies
// that matter at the edge (sequential D1 round trips, rows D1 read, Durable Object calls) in
// `Server-Timing`, and reads go through a D1 session so replicas can answer them
// (docs/decisions/latency.md): a client passes `x-d1-bookmark` back to read its own writes.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { meteredEnv, newMeter, runInScope, scopeBookmark, type RequestMeter, type RequestScope } from "../db/request-scope";

export const BOOKMARK_HEADER = "x-d1-bookmark";
/** D1 bookmarks are hex groups joined by dashes; anything else is ignored rather than failing the read. */
const BOOKMARK = /^[0-9a-f]{1,64}(-[0-9a-f]{1,64}){0,8}$/i;

const serverTimingValue = (m: RequestMeter) =>
  `d1;desc="${m.d1RoundTrips} round trips", d1-rows;desc="${m.rowsRead} rows read", do;desc="${m.doHops} calls"`;

export const meterRequest = createMiddleware<AppEnv>(async (c, next) => {
  const given = c.req.header(BOOKMARK_HEADER)?.trim();
  const bookmark = given && BOOKMARK.test(given) ? given : undefined;
  const reads = c.req.method === "GET" || c.req.method === "HEAD";
  // Reads may go to the nearest replica; a write's session starts on the primary.
  const scope: RequestScope = {
    meter: newMeter(),
    d1: c.env.DB.withSession(bookmark ?? (reads ? "first-unconstrained" : "first-primary")),
    binding: c.env.DB,
  };
  c.env = meteredEnv(c.env);
  await runInScope(scope, next);
  c.res.headers.set("Server-Timing", serverTimingValue(scope.meter));
  const after = scopeBookmark(scope);
  if (after) c.res.headers.set(BOOKMARK_HEADER, after);
});
