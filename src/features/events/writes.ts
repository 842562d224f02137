// Event writes that touch its bookings' capacity or placement, as raw statements run in one
// D1 batch through the event's CapacityGuard, so they serialise with concurrent event bookings.
import type { CustomData } from "../../db/schema";
import { followBookmark } from "../../db/request-scope";
import type { Deps } from "../../env";
import { toSqlRow, type SqlStatement } from "../../db/sql-statement";
import { holdsCapacity } from "../bookings/active-sql";
import { eventLoadSql } from "../bookings/capacity-sql";

export interface EventColumns {
  resource_id?: number;
  service_id?: number;
  published?: boolean;
  capacity?: number;
  starts_at?: number;
  ends_at?: number;
  title?: string | null;
  description?: string | null;
  custom_data?: CustomData;
  updated_at: number;
}

/**
 * The event update; with `capacityCheck` it changes nothing unless the seats its bookings
 * hold still fit the new capacity, read in the same statement.
 */
function updateEventStatement(target: { id: number; accountId: number }, values: EventColumns, capacityCheck?: { capacity: number; now: number }): SqlStatement {
  const row = toSqlRow(values);
  const load = capacityCheck ? eventLoadSql(target.id, capacityCheck.now) : null;
  return {
    sql: `UPDATE events SET ${Object.keys(row)
      .map((c) => `${c} = ?`)
      .join(", ")}
          WHERE id = ? AND account_id = ?${load ? ` AND ${load.sql} <= ?` : ""}`,
    params: [...Object.values(row), target.id, target.accountId, ...(load ? [...load.params, capacityCheck!.capacity] : [])],
  };
}

/**
 * Every booking of the event takes the event's times, resource and service (spec: Booking, "all
 * its bookings follow"). Only rows that differ change, so when the event update before it in the
 * batch was refused, this changes nothing.
 */
function followEventStatement(target: { id: number; accountId: number }, now: number): SqlStatement {
  return {
    sql: `UPDATE bookings
          SET booked_from = e.starts_at, booked_to = e.ends_at, resource_id = e.resource_id, service_id = e.service_id, updated_at = ?
          FROM events AS e
          WHERE e.id = bookings.event_id AND bookings.event_id = ? AND bookings.account_id = ?
            AND (e.starts_at != bookings.booked_from OR e.ends_at != bookings.booked_to
                 OR e.resource_id != bookings.resource_id OR e.service_id IS NOT bookings.service_id)`,
    params: [now, target.id, target.accountId],
  };
}

/** Deactivates the event and cancels the bookings that still hold seats on it. */
function deleteEventStatements(target: { id: number; accountId: number }, now: number): SqlStatement[] {
  const holds = holdsCapacity(now);
  return [
    { sql: "UPDATE events SET active = 0, updated_at = ? WHERE id = ? AND account_id = ? AND active = 1", params: [now, target.id, target.accountId] },
    {
      sql: `UPDATE bookings SET state = 'cancelled', active = 0, updated_at = ?
            WHERE account_id = ? AND event_id = ? AND ${holds.sql}
              AND EXISTS (SELECT 1 FROM events WHERE id = ? AND active = 0)`,
      params: [now, target.accountId, target.id, ...holds.params, target.id],
    },
  ];
}

async function throughGuard({ capacityGuard }: Pick<Deps, "capacityGuard">, eventId: number, statements: SqlStatement[]): Promise<boolean> {
  const result = await capacityGuard.apply({ kind: "event", id: eventId }, { statements, atomic: true });
  followBookmark(result.shard, result.bookmark);
  return result.applied;
}

/** False when the capacity check refused the change (nothing was written). */
export function writeEventUpdate(
  deps: Pick<Deps, "capacityGuard">,
  target: { id: number; accountId: number },
  values: EventColumns,
  opts: { capacityCheck?: { capacity: number; now: number }; moved: boolean },
): Promise<boolean> {
  const statements = [updateEventStatement(target, values, opts.capacityCheck)];
  if (opts.moved) statements.push(followEventStatement(target, values.updated_at));
  return throughGuard(deps, target.id, statements);
}

/** False when the event was already inactive (nothing changed). */
export const writeEventDelete = (deps: Pick<Deps, "capacityGuard">, target: { id: number; accountId: number }, now: number) =>
  throughGuard(deps, target.id, deleteEventStatements(target, now));
