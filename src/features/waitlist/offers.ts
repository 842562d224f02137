// Offers (docs/decisions/waitlist.md): when a full time has a seat again, the first in its line
// who is still waiting gets it held for them, as a slot hold whose secret is their own token,
// taken through the capacity guard like any booking, so a freed seat is offered or sold, never
// both. Lapsed offers are noticed at read time (the hold lapses by itself, freeing the seat) and
// passed on by the next pass: every minute from the cron, and right after a freeing write.
import { and, eq, inArray, sql } from "drizzle-orm";
import { slotHolds, waitlistEntries, type WaitlistEntry } from "../../db/schema";
import { followBookmark } from "../../db/request-scope";
import type { Deps } from "../../env";
import { formatInstant } from "../../domain/time";
import { placeSlot } from "../bookings/placement";
import { holdExpiry, holdWindow, insertHoldStatement, newHoldColumns } from "../holds/queries";
import { emitEvent, performedByOf } from "../webhooks/emit";
import { randomToken, sha256Hex } from "../../http/secrets";
import { sendOffer } from "./offer-message";
import { toWaitlistJson } from "./serializer";

/**
 * Offers of this account whose hold lapsed unconverted, or was released by the key (DELETE
 * /slots/holds/{id}): expired, and the next in line may be offered.
 */
async function expireLapsedOffers(deps: Deps): Promise<WaitlistEntry[]> {
  const lapsed = deps.db
    .select({ id: slotHolds.id })
    .from(slotHolds)
    .where(
      and(
        eq(slotHolds.account_id, deps.account.id),
        sql`((${slotHolds.ended_at} IS NULL AND ${slotHolds.expires_at} <= ${deps.now}) OR ${slotHolds.ended_by} = 'released')`,
      ),
    );
  return deps.db
    .update(waitlistEntries)
    .set({ state: "expired", updated_at: deps.now })
    .where(and(eq(waitlistEntries.account_id, deps.account.id), eq(waitlistEntries.state, "offered"), inArray(waitlistEntries.hold_id, lapsed)))
    .returning();
}

/** The first waiting entry of each line of the account (no earlier entry of the same time still waits), of a future time. */
async function firstsInLine(deps: Deps): Promise<WaitlistEntry[]> {
  return deps.db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.account_id, deps.account.id),
        eq(waitlistEntries.state, "waiting"),
        sql`${waitlistEntries.booked_to} > ${deps.now}`,
        sql`NOT EXISTS (SELECT 1 FROM waitlist_entries AS earlier WHERE earlier.account_id = ${waitlistEntries.account_id}
      AND earlier.state = 'waiting' AND earlier.id < ${waitlistEntries.id}
      AND earlier.service_id = ${waitlistEntries.service_id} AND earlier.booked_from = ${waitlistEntries.booked_from}
      AND earlier.booked_to = ${waitlistEntries.booked_to} AND earlier.event_id IS ${waitlistEntries.event_id}
      AND earlier.resource_id IS ${waitlistEntries.resource_id})`,
      ),
    )
    .orderBy(waitlistEntries.id);
}

/**
 * Holds the entry's seats for it when they fit and it still waits. The hold and the entry's change
 * stand or fall together: one batch under the guard, the hold going in only while the entry waits
 * and the entry becoming `offered` only with that very hold, so a pass that lost the entry to
 * another pass (or to a leave) holds nothing. The hold's secret is new and goes only into the
 * offer's message link, so the person can accept from the message without the token they joined with.
 */
async function offer(deps: Deps, entry: WaitlistEntry): Promise<string | null> {
  const placement = await placeSlot(
    deps,
    {
      service_id: entry.service_id,
      event_id: entry.event_id,
      resource_id: entry.resource_id,
      booked_from: entry.event_id ? undefined : formatInstant(entry.booked_from, "UTC"),
      booked_to: entry.event_id ? undefined : formatInstant(entry.booked_to, "UTC"),
    },
    false,
  ).catch(() => undefined);
  if (!placement) return null;
  const secret = randomToken("", 32);
  const expiresAt = holdExpiry(deps.now, deps.account.waitlist_offer_minutes);
  const base = newHoldColumns(deps, placement, {
    serviceId: entry.service_id,
    count: entry.count,
    secretHash: await sha256Hex(secret),
    clientHash: null,
    expiresAt,
    waitlistEntryId: entry.id,
  });
  for (const { resource, scope } of placement.candidates) {
    const values = { ...base, resource_id: resource.id };
    const result = await deps.capacityGuard.apply(scope, {
      statements: [
        insertHoldStatement(values, scope, holdWindow(base, deps.now)),
        {
          sql: `UPDATE waitlist_entries SET state = 'offered', hold_id = last_insert_rowid(), offer_expires_at = ?, updated_at = ?
                WHERE id = ? AND account_id = ? AND state = 'waiting' AND changes() = 1`,
          params: [expiresAt, deps.now, entry.id, deps.account.id],
        },
      ],
      atomic: true,
    });
    if (result.failure) throw new Error(result.failure);
    followBookmark(result.shard, result.bookmark);
    if (result.applied) return secret;
  }
  return null;
}

/**
 * One pass over the account's lines: lapsed offers expire, then each line's first waiting entry is
 * offered while its seats fit (so two freed seats reach the first two). Idempotent: the cron and
 * a freeing write may run it at once; the guard and `state = 'waiting'` keep an entry from two offers.
 */
export async function offerFreedSeats(deps: Deps): Promise<void> {
  const performedBy = performedByOf("system");
  for (const expired of await expireLapsedOffers(deps)) {
    await emitEvent(
      deps.env,
      deps.account,
      "waitlist.expired",
      { kind: "waitlist_entry", id: expired.id, json: toWaitlistJson(expired, deps.account.time_zone) },
      performedBy,
      deps.now,
    );
  }
  for (let round = 0; round < 20; round++) {
    let offered = 0;
    for (const entry of await firstsInLine(deps)) {
      const secret = await offer(deps, entry);
      if (!secret) continue;
      offered += 1;
      const [offeredEntry] = await deps.db.select().from(waitlistEntries).where(eq(waitlistEntries.id, entry.id));
      await emitEvent(
        deps.env,
        deps.account,
        "waitlist.offered",
        { kind: "waitlist_entry", id: entry.id, json: toWaitlistJson(offeredEntry ?? entry, deps.account.time_zone) },
        performedBy,
        deps.now,
      );
      await sendOffer(deps, offeredEntry ?? entry, secret);
    }
    if (offered === 0) return;
  }
}
