// The booking page's "add to calendar" link: the booking's file (calendar-feeds/ics.ts) as a data: URL, so it needs no route or script.
export const icsDataUrl = (ics: string) => `data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}`;
