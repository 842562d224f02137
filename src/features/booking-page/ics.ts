// The "add to calendar" file of a booking (RFC 5545), offered as a data: link so it needs no route or script.
const utc = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

// Text values escape backslash, semicolon, comma and newline (RFC 5545, 3.3.11).
const escapeText = (text: string) => text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");

export function bookingIcs(b: { id: number; from: number; to: number; title: string; location: string; host: string; now: number }): string {
  return [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//booking-edge-api//booking page//EN", "BEGIN:VEVENT",
    `UID:booking-${b.id}@${b.host}`, `DTSTAMP:${utc(b.now)}`, `DTSTART:${utc(b.from)}`, `DTEND:${utc(b.to)}`,
    `SUMMARY:${escapeText(b.title)}`, `LOCATION:${escapeText(b.location)}`, "END:VEVENT", "END:VCALENDAR", "",
  ].join("\r\n");
}

export const icsDataUrl = (ics: string) => `data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}`;
