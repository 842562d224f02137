// The statements of slot holds: the guarded insert with its limits, what a refused one reads to
// say why, and a hold by id for its holder.
import { and, eq } from "drizzle-orm";
import { slotHolds, type SlotHold } from "../../db/schema";
import { toSqlRow, type SqlStatement } from "../../db/sql-statement";
import { occupiedSpan, type Buffers } from "../../domain/buffers";
import type { Deps } from "../../env";
import { liveHold } from "../bookings/active-sql";
import { fitsCondition, type CapacityScope, type CapacityWindow } from "../bookings/capacity-sql";
import { MAX_LIVE_HOLDS_PER_ACCOUNT, MAX_LIVE_HOLDS_PER_VISITOR } from "./limits";

export type HoldColumns = Omit<SlotHold, "id">;

/**
 * A new live hold of `placement`'s time, but for its resource (each candidate tried in turn): what
 * a visitor's hold and a waitlist offer insert. It occupies what the booking would (buffers: none
 * on an event, so its span is the event's times, the span the event's fits condition compares).
 */
export function newHoldColumns(
  deps: Pick<Deps, "account" | "now">,
  placement: { from: number; to: number; eventId: number | null; buffers: Buffers },
  hold: { serviceId: number; count: number; secretHash: string; clientHash: string | null; expiresAt: number; waitlistEntryId?: number },
): Omit<HoldColumns, "resource_id"> {
  const occupied = occupiedSpan(placement.from, placement.to, placement.buffers);
  return {
    account_id: deps.account.id,
    service_id: hold.serviceId,
    event_id: placement.eventId,
    booked_from: placement.from,
    booked_to: placement.to,
    occupied_from: occupied.from,
    occupied_to: occupied.to,
    count: hold.count,
    secret_hash: hold.secretHash,
    client_hash: hold.clientHash,
    expires_at: hold.expiresAt,
    ended_at: null,
    ended_by: null,
    booking_id: null,
    created_at: deps.now,
    waitlist_entry_id: hold.waitlistEntryId ?? null,
  };
}

/**
 * When a hold made now for `minutes` lapses: its answered `created_at` (whole seconds, as every
 * instant is answered) plus the minutes, so it ends at exactly the instant it answers, never up
 * to a second after it.
 */
export const holdExpiry = (now: number, minutes: number) => Math.floor(now / 1000) * 1000 + minutes * 60_000;

/** The window a hold's fits condition checks: its occupied span. */
export const holdWindow = (values: Omit<HoldColumns, "resource_id">, now: number): CapacityWindow => ({
  from: values.occupied_from,
  to: values.occupied_to,
  count: values.count,
  now,
});

/** Live holds of the account, or of one visitor of it when `clientHash` is given, as SQL with its parameters. */
function liveCount(accountId: number, now: number, clientHash?: string): SqlStatement {
  const live = liveHold(now);
  return clientHash === undefined
    ? { sql: `(SELECT COUNT(*) FROM slot_holds WHERE account_id = ? AND ${live.sql})`, params: [accountId, ...live.params] }
    : { sql: `(SELECT COUNT(*) FROM slot_holds WHERE account_id = ? AND client_hash = ? AND ${live.sql})`, params: [accountId, clientHash, ...live.params] };
}

/**
 * `INSERT … SELECT … WHERE <fits> AND <under the limits> RETURNING id`: the hold goes in only
 * when its seats fit (counted as bookings and the other live holds are) and neither its visitor
 * nor its account already holds the most they may.
 */
export function insertHoldStatement(values: HoldColumns, scope: CapacityScope, window: CapacityWindow): SqlStatement {
  const row = toSqlRow(values);
  const columns = Object.keys(row);
  const fits = fitsCondition(scope, window);
  const account = liveCount(values.account_id, window.now);
  // A waitlist offer is a hold the account's own line makes: no visitor's limit, but it goes in
  // only while its entry still waits (the entry's update in the same batch makes it `offered`).
  const offerTo = values.waitlist_entry_id;
  const conditions =
    offerTo === null
      ? [fits, { sql: `${account.sql} < ?`, params: [...account.params, MAX_LIVE_HOLDS_PER_ACCOUNT] }]
      : [fits, { sql: "EXISTS (SELECT 1 FROM waitlist_entries WHERE id = ? AND account_id = ? AND state = 'waiting')", params: [offerTo, values.account_id] }];
  if (offerTo === null && values.client_hash !== null) {
    const visitor = liveCount(values.account_id, window.now, values.client_hash);
    conditions.push({ sql: `${visitor.sql} < ?`, params: [...visitor.params, MAX_LIVE_HOLDS_PER_VISITOR] });
  }
  return {
    sql: `INSERT INTO slot_holds (${columns.join(", ")}) SELECT ${columns.map(() => "?").join(", ")}
          WHERE ${conditions.map((c) => c.sql).join(" AND ")} RETURNING id`,
    params: [...Object.values(row), ...conditions.flatMap((c) => c.params)],
  };
}

/** Read in the insert's transaction, so a refusal can say whether a limit or the time was full. */
export function limitReadStatement(values: HoldColumns, now: number): SqlStatement {
  const live = liveHold(now);
  const account = liveCount(values.account_id, now);
  const visitor = liveCount(values.account_id, now, values.client_hash ?? "");
  return {
    sql: `SELECT ${account.sql} AS account_live, ${visitor.sql} AS visitor_live,
            (SELECT MIN(expires_at) FROM slot_holds WHERE account_id = ? AND client_hash = ? AND ${live.sql}) AS visitor_first_lapse,
            (SELECT MIN(expires_at) FROM slot_holds WHERE account_id = ? AND ${live.sql}) AS account_first_lapse`,
    params: [...account.params, ...visitor.params, values.account_id, values.client_hash ?? "", ...live.params, values.account_id, ...live.params],
  };
}

export const holdOfAccount = (deps: Pick<Deps, "account">, id: number) => and(eq(slotHolds.id, id), eq(slotHolds.account_id, deps.account.id));
