// Refusals of a full slot from the isolate's memory, exact (docs/decisions/latency.md, "Refusals
// from memory"). The guard's refused insert reads, in its own transaction, the account's
// availability version and the first instant an unverified booking counted against the slot
// lapses; a later create whose references batch read the same version on the primary, before that
// instant, would meet the same rows in the same statement and be refused again, so it is refused
// here without the guard. Accepts always go through the guarded statement.
import { availabilityVersionStatement, versionOf } from "../../db/availability-version";
import { paramsOf } from "../../db/fixed-statement";
import type { SqlStatement } from "../../db/sql-statement";
import { resourceOccupants } from "../occupancy/occupants-sql";
import { lapsesLater, liveHold } from "./active-sql";
import type { CapacityScope, CapacityWindow } from "./capacity-sql";

interface Full {
  version: number;
  /** Before this instant (the first lapse, or the age limit) nothing that counts lapses. */
  validUntil: number;
}

/** Slots kept per isolate: a key is about 60 bytes, so at most about a megabyte. */
const MAX_ENTRIES = 10_000;
/**
 * Not needed for exactness (the version and the lapse bound are); it only bounds how long an
 * entry is trusted should a future write path ever change a slot's fit without the triggers.
 */
const MAX_AGE_MS = 60_000;

const fullSlots = new Map<string, Full>();

/** Everything the fits condition depends on that is not in the version: a create's, never a move's (no excluded booking). */
export interface MemoSlot {
  shard: string;
  accountId: number;
  scope: CapacityScope;
  window: CapacityWindow;
}

const keyOf = ({ shard, accountId, scope, window }: MemoSlot) =>
  `${shard}|${accountId}|${scope.kind}:${scope.id}:${scope.capacity}|${window.from}|${window.to}|${window.count}`;

/**
 * True when `slot` was refused under `version` and nothing counted against it has lapsed since.
 * `version` must have been read on the primary (db/request-scope.ts, nextStatementOnPrimary):
 * a replica's older snapshot could carry a version that a freeing write has already moved on.
 */
export function knownFull(slot: MemoSlot, version: number | undefined): boolean {
  if (version === undefined || slot.window.excludeBookingId !== undefined || slot.window.excludeHoldId !== undefined) return false;
  const entry = fullSlots.get(keyOf(slot));
  return entry !== undefined && entry.version === version && slot.window.now < entry.validUntil;
}

/**
 * What the refused insert reads in the same batch (one transaction, so the same rows its check
 * saw): the version, and the first `expires_at` still ahead among the unverified bookings and live
 * holds its load counts (the lapse frees capacity without a write, so without a version bump). Harmless reads
 * when the insert applied.
 */
export function refusalReads(slot: MemoSlot): SqlStatement[] {
  const { scope, window } = slot;
  const version = { sql: availabilityVersionStatement.sql, params: paramsOf(availabilityVersionStatement, { accountId: slot.accountId }) };
  if (scope.kind === "resource") {
    // What occupies the resource (occupancy/occupants-sql.ts) over the occupied span, as the fits condition reads it.
    const occupants = resourceOccupants({ resourceId: scope.id, from: window.from, to: window.to, now: window.now });
    return [version, { sql: `SELECT MIN(lapses_at) AS lapse FROM (${occupants.sql})`, params: occupants.params }];
  }
  // An event's seats: its active bookings (the index (account, event)) and live holds.
  const lapses = lapsesLater(window.now);
  const live = liveHold(window.now);
  return [
    version,
    {
      sql: `SELECT MIN(lapse) AS lapse FROM (
              SELECT MIN(expires_at) AS lapse FROM bookings WHERE account_id = ? AND event_id = ? AND active = 1 AND ${lapses.sql}
              UNION ALL SELECT MIN(expires_at) FROM slot_holds WHERE account_id = ? AND event_id = ? AND ${live.sql})`,
      params: [slot.accountId, scope.id, ...lapses.params, slot.accountId, scope.id, ...live.params],
    },
  ];
}

type Rows = Record<string, string | number | null>[];

/** Remembers a refusal from the rows of `refusalReads` (nothing when a guard answered without them). */
export function rememberFull(slot: MemoSlot, [versionRows, lapseRows]: Rows[]): void {
  if (!versionRows || !lapseRows || slot.window.excludeBookingId !== undefined || slot.window.excludeHoldId !== undefined) return;
  const version = versionOf(versionRows as { version: number }[]);
  const lapse = lapseRows[0]?.lapse;
  const key = keyOf(slot);
  fullSlots.delete(key);
  fullSlots.set(key, { version, validUntil: Math.min(lapse == null ? Infinity : Number(lapse), slot.window.now + MAX_AGE_MS) });
  if (fullSlots.size > MAX_ENTRIES) fullSlots.delete(fullSlots.keys().next().value!);
}
