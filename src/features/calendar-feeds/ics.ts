// Writes iCalendar (RFC 5545) text with ical-generator: folding at 75 octets, text escaping and
// UTC times (DTSTART:...Z, so no VTIMEZONE is needed) are the library's, not ours.
import ical, { ICalEventStatus } from "ical-generator";

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
      id: e.uid, start: new Date(e.from), end: new Date(e.to), stamp: new Date(e.stamp), summary: e.title,
      location: e.location || null, description: e.description || null, sequence: e.sequence, status: STATUS[e.status],
    });
  }
  return `${cal.toString()}\r\n`;
}

/** `booking-<id>@<host>`: the UID a booking has in its own file and in every feed. */
export const bookingUid = (id: number, host: string) => `booking-${id}@${host}`;
export const eventUid = (id: number, host: string) => `event-${id}@${host}`;
