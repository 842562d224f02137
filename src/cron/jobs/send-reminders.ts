// Cron: due SMS reminders. Each booking is stamped reminded_at by a compare-and-swap UPDATE before
// its SMS is queued, so overlapping runs never send twice (at most once: a crash after the stamp
// loses that reminder rather than repeating it).
import { and, eq, gt, inArray, isNull, lte, ne } from "drizzle-orm";
import { openDb } from "../../db/client";
import { shardD1 } from "../../db/shards";
import { bookings } from "../../db/schema";
import type { Env } from "../../env";
import { loadRelated } from "../../features/bookings/queries";
import { enqueueReminder } from "../../features/messages/booking-messages";
import { byAccount } from "../../features/system-deps";

const BATCH = 200;
/** A reminder more than a day late is stale (the cron was down); it is left unsent. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export async function sendReminders(env: Env, now: number, shard: string): Promise<void> {
  const db = openDb(shardD1(env, shard));
  const due = and(
    isNull(bookings.reminded_at),
    lte(bookings.reminder_at, now),
    gt(bookings.reminder_at, now - STALE_AFTER_MS),
    gt(bookings.booked_from, now),
    eq(bookings.active, true),
    ne(bookings.state, "awaiting_verification"),
  );
  // reminded_at is bookkeeping of the system, not a change of the booking: updated_at stays.
  const stamped = await db
    .update(bookings)
    .set({ reminded_at: now })
    .where(and(isNull(bookings.reminded_at), inArray(bookings.id, db.select({ id: bookings.id }).from(bookings).where(due).limit(BATCH))))
    .returning();
  await byAccount(shard, env, now, stamped, async (deps, rows) => {
    const related = await loadRelated(deps, rows);
    for (const booking of rows) await enqueueReminder(deps, booking, related);
  });
}
