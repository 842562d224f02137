// "Holds capacity / is active" and the effective state as SQL over the bookings table: the one
// definition that listings, slots, events and the capacity statements all use. It mirrors
// domain/booking-states.ts (effectiveState, isActive); test/integration/booking-states-sql.test.ts
// runs both over every state × expiry and demands the same answer.
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { bookings, slotHolds } from "../../db/schema";
import { fixedStatement, paramsOf, type FixedStatement } from "../../db/fixed-statement";
import type { SqlStatement } from "../../db/sql-statement";
import type { BookingState } from "../../domain/booking-states";

/** Now, or a placeholder for it in a statement rendered once (db/fixed-statement.ts). */
type Instant = number | Placeholder;

/**
 * An unverified booking, or one awaiting its payment, past `expires_at`: verification_expired (or
 * cancelled) at once, before any sweep persists it.
 */
const lapsedSql = (now: Instant): SQL =>
  sql`(${bookings.state} IN ('awaiting_verification', 'awaiting_payment') AND ${bookings.expires_at} IS NOT NULL AND ${bookings.expires_at} <= ${now})`;

/** A booking that will lapse after `now` (the moment lapsedSql turns true for it). */
export const lapsesLaterSql = (now: Instant): SQL => sql`(${bookings.state} IN ('awaiting_verification', 'awaiting_payment') AND ${bookings.expires_at} > ${now})`;

/** State as readers see it (domain `effectiveState`). */
export const effectiveStateSql = (now: number): SQL =>
  sql`(CASE WHEN ${lapsedSql(now)} THEN (CASE ${bookings.state} WHEN 'awaiting_payment' THEN 'cancelled' ELSE 'verification_expired' END) ELSE ${bookings.state} END)`;

export const inEffectiveStates = (states: readonly BookingState[], now: number): SQL =>
  sql`${effectiveStateSql(now)} IN (select value from json_each(${JSON.stringify(states)}))`;

/**
 * Holds capacity and reads as `active: true` (domain `isActive`). Reads the stored `active` flag
 * (every write sets it to ACTIVE_STATES.has(state), and the bookings_resource_occupied index leads
 * with it) rather than the state list, plus the lapse no sweep has persisted yet.
 */
export const isActiveSql = (now: Instant): SQL => sql`(${bookings.active} = 1 AND NOT ${lapsedSql(now)})`;

const dialect = new SQLiteSyncDialect();
/**
 * A condition on `now` as text rendered once per isolate, then bound per call (db/fixed-statement.ts):
 * the guarded writes and the refusal reads add these on every create, move and hold.
 */
const withNow = (condition: (now: Placeholder) => SQL) => {
  const fixed: FixedStatement<"now"> = fixedStatement(() => ({ toSQL: () => dialect.sqlToQuery(condition(sql.placeholder("now"))) }));
  return (now: number): SqlStatement => ({ sql: fixed.sql, params: paramsOf(fixed, { now }) });
};

/** The same condition as text, for the raw statements of capacity-sql.ts and events/writes.ts. */
export const holdsCapacity = withNow(isActiveSql);

/** `lapsesLaterSql` as text, for the refusal memo's raw reads. */
export const lapsesLater = withNow(lapsesLaterSql);

/**
 * A slot hold that takes capacity now (docs/decisions/holds.md): not released or converted, and
 * not lapsed. Like an unverified booking it lapses by time alone, with no write.
 */
export const liveHoldSql = (now: Instant): SQL => sql`(${slotHolds.ended_at} IS NULL AND ${slotHolds.expires_at} > ${now})`;

/** The same condition as text, for the raw statements of capacity-sql.ts. */
export const liveHold = withNow(liveHoldSql);
