// One booking's calendar file, opened by the signed link its messages carry (links.ts).
import { and, eq, inArray } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { bookings, events, resources, services } from "../../db/schema";
import { effectiveState, ACTIVE_STATES } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { bookingFileSigned, fileKeyRow } from "./links";
import { bookingUid, calendarText } from "./ics";

export async function bookingFile(deps: Deps, id: number, signature: string | undefined, host: string): Promise<string> {
  const { db, account, now } = deps;
  // A wrong signature answers as an unknown booking does: a link tells nothing about bookings it does not open.
  if (!signature) throw ApiError.notFound("booking");
  const which = and(eq(bookings.account_id, account.id), eq(bookings.id, id));
  const bookingColumn = (column: SQLiteColumn) => db.select({ id: column }).from(bookings).where(which);
  // The key, the booking and what its title names, in one batch: one wait at distance.
  const [[key], [booking], [service], [resource], [event]] = await db.batch([
    fileKeyRow(db, account.id),
    db.select().from(bookings).where(which).limit(1),
    db
      .select()
      .from(services)
      .where(and(eq(services.account_id, account.id), inArray(services.id, bookingColumn(bookings.service_id)))),
    db
      .select()
      .from(resources)
      .where(and(eq(resources.account_id, account.id), inArray(resources.id, bookingColumn(bookings.resource_id)))),
    db
      .select()
      .from(events)
      .where(and(eq(events.account_id, account.id), inArray(events.id, bookingColumn(bookings.event_id)))),
  ]);
  if (!(await bookingFileSigned(key, id, signature)) || !booking) throw ApiError.notFound("booking");
  const state = effectiveState(booking, now);
  const what = event?.title ?? service?.title ?? booking.title ?? account.name;
  return calendarText({
    name: account.name,
    product: "booking file",
    entries: [
      {
        uid: bookingUid(booking.id, host),
        from: booking.booked_from,
        to: booking.booked_to,
        title: resource?.title ? `${what}, ${resource.title}` : what,
        location: account.address || account.name,
        sequence: booking.revision,
        stamp: booking.updated_at,
        status: state === "confirmed" ? "confirmed" : ACTIVE_STATES.has(state) ? "tentative" : "cancelled",
      },
    ],
  });
}
