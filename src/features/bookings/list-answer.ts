// A booking list's finished answer (body text and what the page headers need): from the isolate's
// cache when the account's listing version is still the one it was computed at, else read and
// written afresh and kept (list-cache.ts; docs/decisions/latency.md, "Booking-list answers").
import { nationalIdKeys } from "../../config";
import type { Deps } from "../../env";
import { noteCache } from "../../db/request-scope";
import { wrapList } from "../../http/envelope";
import type { PageRequest } from "../../http/pagination";
import { listBookings, type Listing, type Owner } from "./list";
import { cachedList, forgetList, keepList, knownStale, noteVersion, writeSequence, type CachedList } from "./list-cache";
import { listingVersion } from "./queries";
import type { ListQuery } from "./schema";
import { toBookingJson } from "./serializer";

/**
 * Everything the answer depends on besides the version and the clock: the account, its shard (a
 * version belongs to one database) and zone (every instant is written in it), the listing and its
 * owner, and the validated query (so parameter order or spelling does not split entries). The
 * page request is in the query (`page`, `cursor`).
 */
const keyOf = ({ account }: Deps, listing: Listing, owner: Owner, query: ListQuery) =>
  JSON.stringify([account.id, account.shard, account.time_zone, listing, owner.kind, owner.kind === "account" ? 0 : owner.id, query]);

const utf8 = new TextEncoder();

export async function listAnswer(deps: Deps, listing: Listing, query: ListQuery, request: PageRequest, owner: Owner = { kind: "account" }): Promise<CachedList> {
  const { account } = deps;
  const key = keyOf(deps, listing, owner, query);
  const cached = cachedList(key, deps.now);
  if (cached && !knownStale(account, cached)) {
    // Read every time, in the request's D1 session: a sync client must never get an answer older
    // than the data (issue 14), and a bookmark still gives read-your-writes.
    const version = await listingVersion(deps);
    noteVersion(account, version);
    if (version === cached.version) {
      noteCache("hit");
      return cached;
    }
  }
  noteCache("miss");
  if (cached) forgetList(key);
  const readFrom = writeSequence();
  const { rows, total, nextCursor, related, freshness } = await listBookings(deps, listing, query, request, owner);
  noteVersion(account, freshness.version);
  const view = { timeZone: deps.account.time_zone, now: deps.now, extended: query.extended ?? false, keys: nationalIdKeys(deps.env) };
  const answer: CachedList = {
    version: freshness.version,
    validUntil: freshness.validUntil,
    // encode() always answers a fresh ArrayBuffer; its type says "or shared" only for generality.
    body: utf8.encode(
      JSON.stringify(
        wrapList(
          "booking",
          rows.map((b) => toBookingJson(b, related, view)),
        ),
      ),
    ) as Uint8Array<ArrayBuffer>,
    total,
    pageItems: rows.length,
    nextCursor,
    readFrom,
  };
  keepList(key, answer);
  return answer;
}
