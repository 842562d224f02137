// A 2,000-event iCalendar feed as a busy calendar exports it (issue 32): 1,800 single events and
// 200 weekly series that began years before the window, in Europe/Oslo without a VTIMEZONE (as
// Google writes it). The engine suite measures what a sync spends on it outside I/O: the parse
// and expansion (busy-times.ts), the merge and the difference against the stored rows (busy-rows.ts).
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").slice(0, 15);
const vevent = (...lines: string[]) => ["BEGIN:VEVENT", "DTSTAMP:20260101T000000Z", ...lines, "END:VEVENT"].join("\r\n");

export function calendarFeed(opts: { from?: number; moved?: boolean } = {}): { text: string; window: { from: number; to: number } } {
  const events: string[] = [];
  const from = opts.from ?? Date.parse("2030-02-04T00:00:00Z");
  for (let i = 0; i < 1800; i++) {
    // `moved`: the first event half an hour later, as when one meeting of the calendar moves.
    const start = from + i * 3_600_000 + (i === 0 && opts.moved ? 1_800_000 : 0);
    events.push(vevent(`UID:single-${i}`, `SUMMARY:Single ${i}`, `DTSTART:${stamp(start)}Z`, `DTEND:${stamp(start + 1_800_000)}Z`));
  }
  for (let i = 0; i < 200; i++) {
    events.push(
      vevent(`UID:weekly-${i}`, `DTSTART;TZID=Europe/Oslo:20270104T${String(8 + (i % 10)).padStart(2, "0")}0000`, "DURATION:PT15M", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE"),
    );
  }
  const text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//calendar//EN", ...events, "END:VCALENDAR"].join("\r\n");
  // A year from the first single event, as a shop without a booking horizon reads it.
  return { text, window: { from, to: from + 365 * 86_400_000 } };
}
