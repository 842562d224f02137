// Changes to a booking's payment (bookings.payment, JSON) as SQL: json_set of the fields given,
// so a statement changes only what it names and can sit in a guarded batch beside the booking's
// own change.
import type { SqlStatement } from "../../db/sql-statement";
import type { BookingPayment, PaymentStatus } from "./booking-payment";

type PaymentFields = Partial<Omit<BookingPayment, "provider" | "kind" | "amount" | "currency">>;

/** `json_set(payment, '$.a', ?, …)` with its parameters. */
export function setPaymentSql(fields: PaymentFields): SqlStatement {
  const entries = Object.entries(fields);
  return {
    sql: `json_set(payment, ${entries.map(([name]) => `'$.${name}', ?`).join(", ")})`,
    params: entries.map(([, value]) => (value === undefined ? null : (value as string | number | null))),
  };
}

/**
 * Changes the booking's payment only while its status is one of `from` (a compare-and-swap, so a
 * duplicate or concurrent event changes nothing twice); answers the booking's id when it did.
 */
export function updatePaymentStatement(
  target: { id: number; accountId: number; from: readonly PaymentStatus[]; sessionId?: string },
  fields: PaymentFields,
  now: number,
): SqlStatement {
  const set = setPaymentSql(fields);
  const session =
    target.sessionId === undefined ? { sql: "", params: [] } : { sql: " AND json_extract(payment, '$.checkout_session_id') = ?", params: [target.sessionId] };
  return {
    sql: `UPDATE bookings SET payment = ${set.sql}, updated_at = ? WHERE id = ? AND account_id = ? AND payment IS NOT NULL
            AND json_extract(payment, '$.status') IN (${target.from.map(() => "?").join(", ")})${session.sql} RETURNING id`,
    params: [...set.params, now, target.id, target.accountId, ...target.from, ...session.params],
  };
}
