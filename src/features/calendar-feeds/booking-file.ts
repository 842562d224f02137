// One booking's calendar file, opened by the signed link its messages carry (links.ts).
import { and, eq } from "drizzle-orm";
import { bookings, events, resources, services } from "../../db/schema";
import { effectiveState, ACTIVE_STATES } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { bookingFileSigned } from "./links";
import { bookingUid, calendarText } from "./ics";

export async function bookingFile(deps: Deps, id: number, signature: string | undefined, host: string): Promise<string> {
  const { db, account, now } = deps;
  // A wrong signature answers as an unknown booking does: a link tells nothing about bookings it does not open.
  if (!(await bookingFileSigned(db, account.id, id, signature))) throw ApiError.notFound("booking");
  const booking = await db.query.bookings.findFirst({ where: and(eq(bookings.account_id, account.id), eq(bookings.id, id)) });
  if (!booking) throw ApiError.notFound("booking");
  const [service, resource, event] = await Promise.all([
    booking.service_id !== null ? db.query.services.findFirst({ where: and(eq(services.account_id, account.id), eq(services.id, booking.service_id)) }) : undefined,
    db.query.resources.findFirst({ where: and(eq(resources.account_id, account.id), eq(resources.id, booking.resource_id)) }),
    booking.event_id !== null ? db.query.events.findFirst({ where: and(eq(events.account_id, account.id), eq(events.id, booking.event_id)) }) : undefined,
  ]);
  const state = effectiveState(booking, now);
  const what = event?.title ?? service?.title ?? booking.title ?? account.name;
  return calendarText({ name: account.name, product: "booking file", entries: [{
    uid: bookingUid(booking.id, host), from: booking.booked_from, to: booking.booked_to,
    title: resource?.title ? `${what}, ${resource.title}` : what, location: account.address || account.name,
    sequence: booking.revision, stamp: booking.updated_at,
    status: state === "confirmed" ? "confirmed" : ACTIVE_STATES.has(state) ? "tentative" : "cancelled",
  }] });
}
