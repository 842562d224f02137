// Cron: bookings awaiting verification past expires_at become verification_expired (spec: States)
// and are announced as booking.modified, the only event that fits (the event list, docs/decisions/webhooks.md, has no expiry event).
import { and, eq, inArray, lte } from "drizzle-orm";
import { openDb } from "../../db/client";
import { shardD1 } from "../../db/shards";
import { bookings } from "../../db/schema";
import type { Env } from "../../env";
import { afterBookingChange } from "../../features/bookings/effects";
import { byAccount } from "../../features/system-deps";

const BATCH = 500;

export async function expireVerifications(env: Env, now: number, shard: string): Promise<void> {
  const db = openDb(shardD1(env, shard));
  const due = and(eq(bookings.state, "awaiting_verification"), lte(bookings.expires_at, now));
  // The state condition is repeated on the UPDATE itself: of two overlapping runs, or a run and a
  // verify racing it, only one changes a given booking, and only that one announces it.
  const expired = await db
    .update(bookings)
    .set({ state: "verification_expired", active: false, verification_code: null, updated_at: now })
    .where(and(due, inArray(bookings.id, db.select({ id: bookings.id }).from(bookings).where(due).limit(BATCH))))
    .returning();
  await byAccount(shard, env, now, expired, async (deps, rows) => {
    for (const booking of rows) await afterBookingChange(deps, "modified", booking, undefined, { messages: false });
  });
}
