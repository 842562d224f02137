// Finished booking-list answers kept per isolate under the account's listing version (drizzle/0009),
// so a repeated list read costs one tiny D1 statement instead of the page, its total and its related
// rows (docs/decisions/latency.md, "Booking-list answers").
import { SizedCache } from "../../db/sized-cache";

export interface CachedList {
  /** The account's listing version read in the same D1 batch as the rows the body comes from. */
  version: number;
  /** Served only before this instant: the first lapse of an unverified booking, or a row leaving the listing. */
  validUntil: number;
  /**
   * The JSON as sent, encoded once: a hit copies these bytes instead of encoding 0.8 MB of text
   * again, and the memory bound counts exact bytes.
   */
  body: Uint8Array<ArrayBuffer>;
  total: number;
  pageItems: number;
  /** Sync listings' next cursor (pagination.ts); undefined for the others. */
  nextCursor?: string | null;
  /** `writeSequence()` when the read behind it began: a write through this isolate after that makes it stale. */
  readFrom: number;
}

/** Bounds memory per isolate (128 MB in all): page 1 of a 10,000-booking account is 0.8 MB, so ten such pages. */
const MAX_BYTES_KEPT = 8 * 1024 * 1024;

const lists = new SizedCache<CachedList>(MAX_BYTES_KEPT, (answer) => answer.body.byteLength);

/** The answer under `key` while time has changed nothing in it; whether its version stands is the caller's read. */
export function cachedList(key: string, now: number): CachedList | undefined {
  const hit = lists.get(key);
  if (hit && now >= hit.validUntil) {
    lists.delete(key);
    return undefined;
  }
  return hit;
}

export const keepList = (key: string, answer: CachedList): void => lists.set(key, answer);

/** A stale entry (its version moved on) is dropped at once rather than waiting to be pushed out. */
export const forgetList = (key: string): void => lists.delete(key);

/**
 * What this isolate knows of an account's listing version without asking D1: the newest version
 * any of its requests read, and when its last write request of the account ended. An entry older
 * than either is stale for sure, so its request goes straight to the page's batch (one round
 * trip) instead of first reading the version only to learn that (two). Only ever a shortcut to
 * the miss path: a hit still needs the version read from D1.
 */
const known = new Map<string, { version: number; writtenAt: number }>();
let writes = 0;

const accountKey = (account: { id: number; shard: string }) => `${account.id}|${account.shard}`;

export const writeSequence = () => writes;

/** What the isolate knows of the account, an entry made on first sight (bounded: cleared when full). */
function knownOf(account: { id: number; shard: string }) {
  const key = accountKey(account);
  let seen = known.get(key);
  if (!seen) {
    if (known.size >= 10_000) known.clear();
    known.set(key, (seen = { version: 0, writtenAt: -1 }));
  }
  return seen;
}

export function noteVersion(account: { id: number; shard: string }, version: number): void {
  const seen = knownOf(account);
  seen.version = Math.max(seen.version, version);
}

/** After a write request of the account ends (features/account-writes.ts): answers read before it are stale. */
export function noteWrite(account: { id: number; shard: string }): void {
  writes += 1;
  knownOf(account).writtenAt = writes;
}

export function knownStale(account: { id: number; shard: string }, answer: CachedList): boolean {
  const seen = known.get(accountKey(account));
  return seen !== undefined && (answer.version < seen.version || answer.readFrom < seen.writtenAt);
}

/** Every list and known version gone, as on a fresh isolate (bench/isolate-caches.ts). */
export function forgetAllLists(): void {
  lists.clear();
  known.clear();
}
