// Writes iCalendar (RFC 5545) text with ical-generator: folding at 75 octets, text escaping and
// UTC times (DTSTART:...Z, so no VTIMEZONE is needed) are the library's, not ours.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from "ical-generator";
export { bookingUid, eventUid } from "./links";

export interface CalendarEntry {
  /** Stable per booking or event across every rendering: `booking-<id>@<host>`. */
  uid: string;
  from: number;
  to: number;
  title: string;
  location?: string | null;
  description?: string | null;
  /** Grows with every change of the entry (docs/decisions/calendar-feeds.md, "SEQUENCE"). */
  sequence: number;
  status: "confirmed" | "tentative" | "cancelled";
  /** When the entry last changed: a stable DTSTAMP keeps an unchanged feed's bytes, and ETag, unchanged. */
  stamp: number;
}

const STATUS = { confirmed: ICalEventStatus.CONFIRMED, tentative: ICalEventStatus.TENTATIVE, cancelled: ICalEventStatus.CANCELLED };

export function calendarText(calendar: { name: string; product: string; entries: CalendarEntry[] }): string {
  const cal = ical({ name: calendar.name, prodId: { company: "booking-edge-api", product: calendar.product, language: "EN" } });
  for (const e of calendar.entries) {
    cal.createEvent({
      id: e.uid,
      start: new Date(e.from),
      end: new Date(e.to),
      stamp: new Date(e.stamp),
      summary: e.title,
      location: e.location || null,
      description: e.description || null,
      sequence: e.sequence,
      status: STATUS[e.status],
    });
  }
  return `${cal.toString()}\r\n`;
}

export interface Invitation {
  method: "REQUEST" | "CANCEL";
  /** The booking's UID in the feeds and in its file, so an invitation and a subscription name one event. */
  uid: string;
  from: number;
  to: number;
  title: string;
  location?: string | null;
  sequence: number;
  stamp: number;
  organizer: { name: string; email: string };
  attendee: { name: string | null; email: string };
}

/**
 * An iTIP object (RFC 5546) for an iMIP e-mail (RFC 6047): METHOD on the calendar, the shop as
 * ORGANIZER and the visitor as the one ATTENDEE. No RSVP is asked: nothing reads replies.
 */
export function invitationText(invitation: Invitation): string {
  const cancel = invitation.method === "CANCEL";
  const cal = ical({
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    prodId: { company: "booking-edge-api", product: "booking invitation", language: "EN" },
  });
  cal.createEvent({
    id: invitation.uid,
    start: new Date(invitation.from),
    end: new Date(invitation.to),
    stamp: new Date(invitation.stamp),
    summary: invitation.title,
    location: invitation.location || null,
    sequence: invitation.sequence,
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: invitation.organizer,
    attendees: [
      {
        email: invitation.attendee.email,
        name: invitation.attendee.name || null,
        role: ICalAttendeeRole.REQ,
        status: ICalAttendeeStatus.NEEDSACTION,
        rsvp: false,
      },
    ],
  });
  return `${cal.toString()}\r\n`;
}
