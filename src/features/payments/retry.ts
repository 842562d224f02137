// Abandon and retry (docs/decisions/payments.md): a visitor who left the checkout and books the
// same time again gets their pending booking back, with its checkout, never a second booking nor a
// confirmed one without payment. "The same visitor" is the same person (matched by what they
// typed) from the same address, with the same service and time, while the first still waits.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { bookings, type Booking } from "../../db/schema";
import type { Deps } from "../../env";
import type { BookingColumns } from "../bookings/guarded-write";

export async function pendingOfSameVisitor(deps: Deps, draft: BookingColumns, personId: number | null): Promise<Booking | undefined> {
  const clientHash = draft.payment?.client_hash ?? null;
  if (personId === null || clientHash === null) return undefined;
  return deps.db.query.bookings.findFirst({
    where: and(
      eq(bookings.account_id, deps.account.id),
      eq(bookings.state, "awaiting_payment"),
      gt(bookings.expires_at, deps.now),
      eq(bookings.person_id, personId),
      eq(bookings.booked_from, draft.booked_from!),
      eq(bookings.booked_to, draft.booked_to!),
      draft.service_id == null ? isNull(bookings.service_id) : eq(bookings.service_id, draft.service_id),
      draft.event_id == null ? isNull(bookings.event_id) : eq(bookings.event_id, draft.event_id),
      sql`json_extract(${bookings.payment}, '$.client_hash') = ${clientHash}`,
      sql`json_extract(${bookings.payment}, '$.status') = 'pending'`,
    ),
  });
}
