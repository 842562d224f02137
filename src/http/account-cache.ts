// Accounts by API-key hash and by booking-site subdomain, kept per isolate so a warm isolate spends
// no D1 round trip on who is asking (docs/decisions/latency.md). An entry is trusted for 30 s;
// after that, for a while, it is a guess: the request runs on it while the directory confirms it
// beside the route's own reads (http/auth.ts), so an account seen earlier costs no wait of its own.
import type { Account } from "../db/schema";

/** How long another isolate may still serve a key rotated or revoked, or an account changed. */
export const ACCOUNT_CACHE_TTL_MS = 30_000;
/** How long after that an entry is still worth guessing from (a guess is always confirmed). */
const ACCOUNT_GUESS_TTL_MS = 15 * 60_000;
/** Bounds memory per isolate; the oldest entry goes first. */
const MAX_ENTRIES = 2_000;

interface Entry {
  account: Account;
  trustedUntil: number;
  guessUntil: number;
}

const entries = new Map<string, Entry>();

export type AccountLookup =
  /** Trusted: from the cache within its 30 s, or just read from the directory. */
  | { account: Account | null; confirmation?: undefined }
  /** A guess from an older entry, and the directory's answer on its way (also cached when it comes). */
  | { account: Account; confirmation: Promise<Account | null> };

/** Whether a request for `key` can start here: the account is trusted or can be guessed. */
export function knowsAccount(key: string, now: number): boolean {
  const hit = entries.get(key);
  return hit !== undefined && hit.guessUntil > now;
}

/** The account cached under `key` while it is trusted. */
export const trustedAccount = (key: string, now: number): Account | undefined => {
  const hit = entries.get(key);
  return hit && hit.trustedUntil > now ? hit.account : undefined;
};

/** The account cached under `key`, trusted or a guess. */
export const cachedAccount = (key: string): Account | undefined => entries.get(key)?.account;

/**
 * Caches what the directory answered (misses are not kept, so a new account or key works at once).
 * An account unchanged keeps the object already cached: answers cached for it stay valid
 * (features/slots/answer-cache.ts compares accounts by identity).
 */
export function remember(key: string, account: Account | null, now: number): void {
  const before = entries.get(key)?.account;
  entries.delete(key);
  if (!account) return;
  if (before && JSON.stringify(before) === JSON.stringify(account)) account = before;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, { account, trustedUntil: now + ACCOUNT_CACHE_TTL_MS, guessUntil: now + ACCOUNT_CACHE_TTL_MS + ACCOUNT_GUESS_TTL_MS });
}

/** The account under `key`: trusted, a guess with its confirmation under way, or what `load` finds. */
export async function lookUpAccount(key: string, now: number, load: () => Promise<Account | null>): Promise<AccountLookup> {
  const hit = entries.get(key);
  if (hit && hit.trustedUntil > now) return { account: hit.account };
  if (hit && hit.guessUntil > now) {
    const confirmation = load().then((account) => {
      remember(key, account, now);
      return account;
    });
    return { account: hit.account, confirmation };
  }
  const account = await load();
  remember(key, account, now);
  return { account };
}

/** Drops every entry of an account: called by the writes that change it or its keys. */
export function evictAccount(accountId: number): void {
  for (const [key, entry] of entries) if (entry.account.id === accountId) entries.delete(key);
}

/**
 * Ends the trust of every entry, keeping them as guesses: what an isolate knows when an integrator
 * comes back after a pause. For the routes bench and tests of the guess path (bench/floor-worker.ts).
 */
export function distrustAccounts(): void {
  for (const entry of entries.values()) entry.trustedUntil = 0;
}

/** Every entry gone, as on a fresh isolate: how the routes bench and the wait tests ask a first request (bench/isolate-caches.ts). */
export const forgetAllAccounts = (): void => entries.clear();

export const apiKeyCacheKey = (hash: string) => `key:${hash}`;
export const subdomainCacheKey = (subdomain: string) => `site:${subdomain}`;
