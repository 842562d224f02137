// The Worker's side of the NearDatabase objects (durable-objects/near-database.ts): a request whose
// account this isolate does not know is forwarded whole, and the account it ran on comes back in a
// header of the object's own, so the next request of that account starts here.
import type { Context } from "hono";
import { configOf } from "../config";
import { writesMayRun } from "../db/request-scope";
import type { Account } from "../db/schema";
import { DIRECTORY_SHARD } from "../db/shards";
import type { AppEnv } from "../env";
import { afterRequestOf } from "../features/account-writes";
import { remember, trustedAccount } from "./account-cache";

/** Between the object and the Worker only: always taken off before the answer leaves. */
const ACCOUNT_HEADER = "x-near-database-account";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Enough objects that a burst of first requests does not queue behind one; few enough to stay warm. */
const NEAR_DATABASE_OBJECTS = 16;

/** Whether this request should be answered beside the database rather than here. */
export const forwardsUnknownAccounts = (c: Context<AppEnv>): boolean =>
  c.var.forwardsUnknownAccounts === true && c.env.NEAR_DATABASE !== undefined;

/** Answers the request from a NearDatabase object, and learns the account it was answered on under `cacheKey`. */
export async function answerBesideDatabase(c: Context<AppEnv>, cacheKey: string): Promise<void> {
  // A write goes no further than the Worker's own writes would before the rate limiter's verdict.
  if (!READS.has(c.req.method)) await writesMayRun();
  const locationHint = configOf(c.env).CAPACITY_GUARD_LOCATIONS[DIRECTORY_SHARD];
  const name = `near:${Math.floor(Math.random() * NEAR_DATABASE_OBJECTS)}`;
  // The body goes whole (at most 1 MiB, bodyLimit): a stream would still be read after an early answer.
  const request = c.req.raw;
  const forwarded = new Request(request.url, { method: request.method, headers: request.headers, body: READS.has(request.method) ? null : await request.arrayBuffer() });
  const answer = await c.env.NEAR_DATABASE!.getByName(name, locationHint ? { locationHint } : undefined).fetch(forwarded);
  const response = new Response(answer.body, answer);
  const account = response.headers.get(ACCOUNT_HEADER);
  response.headers.delete(ACCOUNT_HEADER);
  if (account) {
    const known = JSON.parse(account) as Account;
    remember(cacheKey, known, c.var.now);
    // Answers this isolate cached for the account (its site's, say) learn of the write as if made here.
    afterRequestOf(c.req.method, known);
  }
  c.res = response;
}

/**
 * In the object: says which account the request ran on, for the Worker to remember; not when the
 * request changed it (its write evicted it from the cache here), since the Worker would then
 * remember the account as it was before.
 */
export function tellAccount(c: Context<AppEnv>, cacheKey: string, account: Account): void {
  if (c.var.besideDatabase && trustedAccount(cacheKey, c.var.now) === account) c.res.headers.set(ACCOUNT_HEADER, JSON.stringify(account));
}
