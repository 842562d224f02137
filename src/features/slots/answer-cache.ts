// Slot computations kept per isolate under the versions of what they read (the account's calendar
// version and the booking-hour versions of their resources and hours: db/invalidation.ts), trusted
// for a moment after they were read, so a repeated slot read costs no D1 round trip, or one batch
// that reads only those versions (docs/decisions/latency.md, "Slot answers").
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
  /** The versions the answer depends on, read in the same D1 batch as the rows it comes from. */
  version: string;
  /** When those versions were last read from D1 (a request's now). */
  checkedAt: number;
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
 * How long versions read from D1 are trusted without reading them again: a slot taken through
 * another isolate (or a queue, cron, the operator API) can look free here for at most this long.
 * Writes through this isolate end the trust at once (features/account-writes.ts), and a request
 * that carries a D1 bookmark always reads the versions (read your own writes).
 */
const VERSION_TRUSTED_MS = 2_000;

/** When this isolate last finished a write request of each account. */
const lastWrites = new Map<number, number>();

/** Whether a cached answer may be served without reading its versions again. */
export const trusted = (answer: CachedAnswer, accountId: number, now: number): boolean =>
  now < answer.checkedAt + VERSION_TRUSTED_MS && answer.checkedAt > (lastWrites.get(accountId) ?? -Infinity);

/** A read found the answer's versions unchanged at `now`. */
export const confirmed = (answer: CachedAnswer, now: number): void => {
  answer.checkedAt = now;
};

/** A write request of the account ended here: none of its answers is trusted without reading D1 again. */
export function forgetVersion(accountId: number): void {
  if (lastWrites.size >= 10_000) lastWrites.clear();
  lastWrites.set(accountId, Date.now());
}

/** Every answer and write time gone, as on a fresh isolate (bench/isolate-caches.ts). */
export function forgetAllAnswers(): void {
  answers.clear();
  lastWrites.clear();
}
