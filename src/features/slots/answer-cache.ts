// Slot computations kept per isolate under the account's availability version (drizzle/0006), and
// the version itself for a moment, so a repeated slot read costs no D1 round trip, or one batch
// that reads only the version row (docs/decisions/latency.md, "Slot answers").
import type { Account } from "../../db/schema";
import { SizedCache } from "../../db/sized-cache";
import type { Slot } from "../../domain/slots";

/**
 * How far ahead of its computation an answer may be served. The slots are computed for the
 * bookable window of now up to now + this, and each request cuts them to its own window, so the
 * age changes no answer: it only bounds how long an unused entry is kept.
 */
export const ANSWER_MAX_AGE_MS = 60_000;
/** Bounds memory per isolate (a 31-day answer of the large bench account is about 1,000 slots). */
const MAX_SLOTS_KEPT = 20_000;

interface CachedAnswer {
  /** The account's availability version read in the same D1 batch as the rows these come from. */
  version: number;
  /** The account object the slots were computed with: a reloaded account (settings) is a miss. */
  account: Account;
  /** Slots of the range over the widened window, sorted by start. */
  slots: Slot[];
  /** Served only before this instant: the answer's age limit, or the first unverified booking's lapse. */
  validUntil: number;
}

const answers = new SizedCache<CachedAnswer>(MAX_SLOTS_KEPT, (answer) => answer.slots.length);

export function cachedAnswer(key: string, account: Account, now: number): CachedAnswer | undefined {
  const hit = answers.get(key);
  if (!hit) return undefined;
  if (hit.account !== account || now >= hit.validUntil) {
    answers.delete(key);
    return undefined;
  }
  return hit;
}

export const keepAnswer = (key: string, answer: CachedAnswer): void => answers.set(key, answer);

/**
 * How long a version read from D1 is trusted without reading it again: a slot taken through
 * another isolate (or a queue, cron, the operator API) can look free here for at most this long.
 * Writes through this isolate forget it at once (features/account-writes.ts), and a request that carries
 * a D1 bookmark always reads the version (read your own writes).
 */
const VERSION_TRUSTED_MS = 2_000;

const versions = new Map<number, { version: number; until: number }>();

export function trustedVersion(accountId: number, now: number): number | undefined {
  const known = versions.get(accountId);
  return known && now < known.until ? known.version : undefined;
}

export function trustVersion(accountId: number, version: number, now: number): void {
  if (versions.size >= 10_000) versions.clear();
  versions.set(accountId, { version, until: now + VERSION_TRUSTED_MS });
}

export const forgetVersion = (accountId: number) => versions.delete(accountId);
