// Accounts by API-key hash and by booking-site subdomain, kept per isolate for a short lifetime
// so a warm isolate spends no D1 round trip on who is asking (docs/decisions/latency.md).
import type { Account } from "../db/schema";

/** How long another isolate may still serve a key rotated or revoked, or an account changed. */
export const ACCOUNT_CACHE_TTL_MS = 30_000;
/** Bounds memory per isolate; the oldest entry goes first. */
const MAX_ENTRIES = 2_000;

interface Entry {
  account: Account;
  expires: number;
}

const entries = new Map<string, Entry>();

/** The cached account under `key`, or what `load` finds (cached if found; misses are not kept). */
export async function cachedAccount(key: string, now: number, load: () => Promise<Account | null>): Promise<Account | null> {
  const hit = entries.get(key);
  if (hit && hit.expires > now) return hit.account;
  entries.delete(key);
  const account = await load();
  if (account) {
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(key, { account, expires: now + ACCOUNT_CACHE_TTL_MS });
  }
  return account;
}

/** Drops every entry of an account: called by the writes that change it or its keys. */
export function evictAccount(accountId: number): void {
  for (const [key, entry] of entries) if (entry.account.id === accountId) entries.delete(key);
}

/** Every entry gone, as on a fresh isolate: how the routes bench and the wait tests ask a first request (bench/isolate-caches.ts). */
export const forgetAllAccounts = (): void => entries.clear();

export const apiKeyCacheKey = (hash: string) => `key:${hash}`;
export const subdomainCacheKey = (subdomain: string) => `site:${subdomain}`;
