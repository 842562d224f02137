// The Worker's side of the NearDatabase objects (src/near-database.ts). Two kinds of
// request are forwarded whole: one whose account this isolate does not know (it would wait for the
// directory, then for the route's reads), and, where the database is far from here, every write (it
// would wait for its reads, then for its write, and some for more: the waitlist's offers, a
// payment's steps). Reads of a known account stay here, beside the isolate's caches. The account
// the object ran on comes back in a header of its own, so the next request of that account starts here.
import type { Context } from "hono";
import { configOf } from "../config";
import { writesMayRun } from "../db/request-scope";
import type { Account } from "../db/schema";
import { DIRECTORY_SHARD } from "../db/shards";
import type { AppEnv } from "../env";
import { databaseSeemsFar, noteRoundTrip } from "../db/distance";
import { cachedAccount, evictAccount, knowsAccount, remember, trustedAccount } from "./account-cache";
import { readsOnly } from "./reads-only";

/** Between the object and the Worker only: always taken off before the answer leaves. */
const ACCOUNT_HEADER = "x-near-database-account";
/** What the object says in ACCOUNT_HEADER when the request changed the account (or its keys). */
const ACCOUNT_CHANGED = "changed";

/** Enough objects that a burst of writes does not queue behind one; few enough to stay warm. */
const NEAR_DATABASE_OBJECTS = 16;

/**
 * The object's own `Server-Timing` entries (its D1 round trips, rows, calls and waits: all short
 * hops) under names of their own, for the Worker's header (http/server-timing.ts): what the route
 * cost where it ran, beside what the request cost the Worker.
 */
const besideDatabaseEntries = (timing: string | null): string | undefined =>
  timing
    ? timing
        .split(/,\s*(?=[\w-]+(?:;|$))/)
        .map((entry) => `beside-database-${entry.trim()}`)
        .join(", ")
    : undefined;

const forwarding = (c: Context<AppEnv>): boolean => c.var.forwardsBesideDatabase === true && c.env.NEAR_DATABASE !== undefined;

/** Whether a known account's writes go beside the database (the setting, or what this isolate measured). */
function writesGoBesideDatabase(c: Context<AppEnv>): boolean {
  const setting = configOf(c.env).WRITES_BESIDE_DATABASE;
  return setting === "always" || (setting === "auto" && databaseSeemsFar(c.var.now));
}

/** The object's own time on the request, from its `Server-Timing` (`total;dur=`). */
const objectTotalMs = (timing: string | null) => Number(/(?:^|,\s*)total;dur=([\d.]+)/.exec(timing ?? "")?.[1] ?? 0);

/**
 * Answers the request from a NearDatabase object when it should be (see the top of this file), and
 * says whether it did; the account it ran on is learnt under `cacheKey`.
 */
export async function answeredBesideDatabase(c: Context<AppEnv>, cacheKey: string): Promise<boolean> {
  if (!forwarding(c)) return false;
  const known = knowsAccount(cacheKey, c.var.now);
  if (known && !writesGoBesideDatabase(c)) return false;
  const reads = await readsOnly(c);
  if (known && reads) return false;
  const before = cachedAccount(cacheKey);
  const told = await forward(c, reads);
  if (told === ACCOUNT_CHANGED) {
    // The write changed the account: the next request here reads it again.
    if (before) {
      evictAccount(before.id);
      c.var.afterRequestOf?.(c.req.method, before);
    }
  } else if (told) {
    const account = JSON.parse(decodeURIComponent(told)) as Account;
    remember(cacheKey, account, c.var.now);
    // Answers this isolate cached for the account (its site's, say) learn of the write as if made here.
    c.var.afterRequestOf?.(c.req.method, account);
  }
  return true;
}

/** Answers payment events (signed, not keyed, so no account here) beside the database: they write. */
export async function answerEventBesideDatabase(c: Context<AppEnv>): Promise<boolean> {
  if (!forwarding(c) || c.req.method !== "POST" || !writesGoBesideDatabase(c)) return false;
  await forward(c, false);
  return true;
}

/** Sets the object's answer as the request's, and returns what it said of the account. */
async function forward(c: Context<AppEnv>, reads: boolean): Promise<string | null> {
  // A write goes no further than the Worker's own writes would before the rate limiter's verdict.
  if (!reads) await writesMayRun();
  const locationHint = configOf(c.env).CAPACITY_GUARD_LOCATIONS[DIRECTORY_SHARD];
  const name = `near:${Math.floor(Math.random() * NEAR_DATABASE_OBJECTS)}`;
  const request = c.req.raw;
  const headers = new Headers(request.headers);
  // One id for the request in the Worker's log line and the object's.
  headers.set("x-request-id", c.var.requestId);
  // The body goes whole (at most 1 MiB, bodyLimit), read through Hono's cache (http/reads-only.ts
  // may have read it): a stream would still be read after an early answer.
  const body = request.method === "GET" || request.method === "HEAD" ? null : await c.req.arrayBuffer();
  const sentAt = performance.now();
  const answer = await c.env
    .NEAR_DATABASE!.getByName(name, locationHint ? { locationHint } : undefined)
    .fetch(new Request(request.url, { method: request.method, headers, body }));
  // The hop without the object's own time: a round trip to where the database is.
  noteRoundTrip(performance.now() - sentAt - objectTotalMs(answer.headers.get("Server-Timing")), Date.now());
  const response = new Response(answer.body, answer);
  const told = response.headers.get(ACCOUNT_HEADER);
  response.headers.delete(ACCOUNT_HEADER);
  c.set("besideDatabaseTiming", besideDatabaseEntries(response.headers.get("Server-Timing")));
  c.res = response;
  return told;
}

/**
 * In the object: says which account the request ran on, for the Worker to remember; or that the
 * request changed it (its write evicted it from the cache here), since the Worker would otherwise
 * go on with the account as it was before.
 */
export function tellAccount(c: Context<AppEnv>, cacheKey: string, account: Account): void {
  if (!c.var.besideDatabase) return;
  const unchanged = trustedAccount(cacheKey, c.var.now) === account;
  // A header value is bytes: a name like "Frisør" goes percent-encoded, as HTTP allows only ASCII.
  c.res.headers.set(ACCOUNT_HEADER, unchanged ? encodeURIComponent(JSON.stringify(account)) : ACCOUNT_CHANGED);
}
