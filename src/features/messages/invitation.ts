// Which e-mails carry a calendar invitation (iMIP, RFC 6047), and the booking as it was when the
// change happened; the SMTP provider writes the iCalendar part (calendar-feeds/ics.ts) when it sends.
import * as z from "zod";
import type { Account, Booking } from "../../db/schema";
import { bookingUid, siteOrigin } from "../calendar-feeds/links";
import type { Env } from "../../env";
import type { MessageKind } from "./kinds";
import type { MessageContext } from "./render";

/** What the queue carries: plain data, so queuing one costs no library (the sink never renders it). */
export const invitationData = z.object({
  method: z.enum(["REQUEST", "CANCEL"]),
  booking_id: z.number().int(),
  uid: z.string(),
  from: z.number(),
  to: z.number(),
  title: z.string(),
  location: z.string().nullable(),
  /** The revision the request saw; the consumer sends the higher of it and the row's current one. */
  revision: z.number().int(),
  attendee: z.object({ name: z.string().nullable(), email: z.string() }),
});
export type InvitationData = z.output<typeof invitationData>;

/**
 * A confirmation invites; a move of a confirmed booking invites again (same UID, higher SEQUENCE);
 * a cancellation or decline cancels. A verification has none: nothing is booked yet.
 */
function methodOf(kind: MessageKind, booking: Booking): InvitationData["method"] | null {
  if (kind === "confirmation") return "REQUEST";
  if (kind === "modification") return booking.state === "confirmed" && booking.active ? "REQUEST" : null;
  if (kind === "cancellation" || kind === "decline") return "CANCEL";
  return null;
}

/** The invitation of a customer e-mail about a booking's time, or null when the kind carries none. */
export function invitationOf(env: Env, account: Account, ctx: MessageContext, kind: MessageKind, recipient: string): InvitationData | null {
  const { booking } = ctx;
  if (!booking) return null;
  const method = methodOf(kind, booking);
  if (!method) return null;
  // The same words as the booking's calendar file (calendar-feeds/booking-file.ts).
  const what = ctx.event?.title ?? ctx.service?.title ?? booking.title ?? account.name;
  return {
    method,
    booking_id: booking.id,
    uid: bookingUid(booking.id, new URL(siteOrigin(env, account)).hostname),
    from: booking.booked_from,
    to: booking.booked_to,
    title: ctx.resource?.title ? `${what}, ${ctx.resource.title}` : what,
    location: account.address || account.name || null,
    revision: booking.revision,
    attendee: { name: ctx.person?.name ?? null, email: recipient },
  };
}
