// The request's scope (db/request-scope.ts): every answer says what it cost in the currencies
// that matter at the edge (sequential D1 round trips, rows D1 read, Durable Object calls, and
// the time waited on each and in all) in `Server-Timing`, and reads go through a D1 session so replicas can answer them
// (docs/decisions/latency.md): a client passes `x-d1-bookmark` back to read its own writes. A
// bookmark belongs to one database, so the header names its shard: `DB_SHARD_1:<bookmark>`; a
// bare bookmark (answered before shards existed) is DB's (docs/scaling.md).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { meteredEnv, newMeter, runInScope, scopeBookmark, sequentialWaits, type RequestMeter, type RequestScope } from "../db/request-scope";
import { DIRECTORY_SHARD, shardBindings } from "../db/shards";

export const BOOKMARK_HEADER = "x-d1-bookmark";
/** D1 bookmarks are hex groups joined by dashes; anything else is ignored rather than failing the read. */
const BOOKMARK = /^(?:(DB(?:_SHARD_[1-9][0-9]{0,3})?):)?([0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){0,8})$/i;

function bookmarkFrom(header: string | undefined): RequestScope["bookmark"] {
  const match = header ? BOOKMARK.exec(header.trim()) : null;
  return match ? { shard: match[1] ?? DIRECTORY_SHARD, bookmark: match[2] } : undefined;
}

const ms = (value: number) => Math.round(value * 10) / 10;

/**
 * Counts in `desc` (what tests and the bench read), waits in `dur` (what browser devtools draw):
 * the whole request inside the Worker, D1 and Durable Object calls summed. `cache` only on answers
 * that consulted an answer cache: how the fleet bench (bench/fleet.ts) counts hits.
 */
const serverTimingValue = (m: RequestMeter, totalMs: number, besideDatabase: string | undefined) => {
  const waits = sequentialWaits(m.spans);
  return (
    `total;dur=${ms(totalMs)}, d1;desc="${m.d1RoundTrips} round trips";dur=${ms(m.d1Ms)}, d1-rows;desc="${m.rowsRead} rows read", do;desc="${m.doHops} calls";dur=${ms(m.doMs)}` +
    `, waits;desc="${waits.total} in sequence: ${waits.d1} d1, ${waits.do} do"` +
    (m.cache ? `, cache;desc="${m.cache}"` : "") +
    // The NearDatabase object's, when it answered (http/near-database.ts): short hops, all inside
    // one of the Worker's own waits above.
    (besideDatabase ? `, ${besideDatabase}` : "")
  );
};

export const meterRequest = createMiddleware<AppEnv>(async (c, next) => {
  const startedAt = performance.now();
  // Each shard's session opens at the request's first statement there: the bookmark's shard
  // from the bookmark, others on a replica (reads) or the primary (writes).
  const scope: RequestScope = {
    meter: newMeter(),
    reads: c.req.method === "GET" || c.req.method === "HEAD",
    bookmark: bookmarkFrom(c.req.header(BOOKMARK_HEADER)),
    bindings: shardBindings(c.env),
    sessions: new Map(),
  };
  c.env = meteredEnv(c.env);
  await runInScope(scope, next);
  c.res.headers.set("Server-Timing", serverTimingValue(scope.meter, performance.now() - startedAt, c.var.besideDatabaseTiming));
  const after = scopeBookmark(scope);
  if (after) c.res.headers.set(BOOKMARK_HEADER, `${after.shard}:${after.bookmark}`);
});
