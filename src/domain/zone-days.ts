// Local calendar days of a time zone as epoch-ms spans: the one place slots turn wall-clock times into instants.
import { offsetMsAt } from "./time";

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

export interface ZoneDay {
  date: string;
  /** Days since 1970-01-01 of the local date. */
  dayNumber: number;
  /** 0 = Monday … 6 = Sunday, the index into WEEKDAYS. */
  weekday: number;
  startMs: number;
  /** Next local midnight: 23 or 25 hours after startMs on DST change days. */
  endMs: number;
  /** The zone's offset for the whole day, or null when it changes during the day. */
  fixedOffset: number | null;
}

export const dayNumberOf = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;

const dateOfDayNumber = (dayNumber: number): string => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

/**
 * The instant a wall-clock time (ms since 1970 read as if UTC) happens in the zone, resolved the way
 * Temporal's "compatible" disambiguation does: a skipped time moves forward by the gap, a repeated
 * time takes its first occurrence. Assumes at most one offset change within a day either side.
 */
function wallToEpoch(wallMs: number, timeZone: string): number {
  const before = offsetMsAt(wallMs - DAY_MS, timeZone);
  const after = offsetMsAt(wallMs + DAY_MS, timeZone);
  const early = wallMs - before;
  const late = wallMs - after;
  const earlyValid = early + offsetMsAt(early, timeZone) === wallMs;
  const lateValid = late + offsetMsAt(late, timeZone) === wallMs;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (lateValid) return late;
  // Valid, or inside a gap: reading it with the offset from before the change lands past the gap.
  return early;
}

export function zoneDay(dayNumber: number, timeZone: string): ZoneDay {
  const wall = dayNumber * DAY_MS;
  const startMs = wallToEpoch(wall, timeZone);
  const endMs = wallToEpoch(wall + DAY_MS, timeZone);
  const offset = offsetMsAt(startMs, timeZone);
  const fixed = endMs - startMs === DAY_MS && startMs === wall - offset && offsetMsAt(endMs - 1, timeZone) === offset;
  return {
    date: dateOfDayNumber(dayNumber),
    dayNumber,
    weekday: (dayNumber + 3) % 7, // 1970-01-01 was a Thursday
    startMs,
    endMs,
    fixedOffset: fixed ? offset : null,
  };
}

/** The instant of minute-of-day `minutes` on the day; 24:00 is the next midnight. */
export function wallMinutesToEpoch(day: ZoneDay, minutes: number, timeZone: string): number {
  if (minutes >= 1440) return day.endMs;
  const wall = day.dayNumber * DAY_MS + minutes * MINUTE_MS;
  return day.fixedOffset === null ? wallToEpoch(wall, timeZone) : wall - day.fixedOffset;
}

/** The zone's offset at an instant, without the cache lookup for instants inside a day that has one offset. */
export function offsetOn(day: ZoneDay, epochMs: number, timeZone: string): number {
  return day.fixedOffset !== null && epochMs >= day.startMs && epochMs < day.endMs ? day.fixedOffset : offsetMsAt(epochMs, timeZone);
}

/** `hh:mm` as minutes since midnight. */
export const minutesOfDay = (hhmm: string): number =>
  (hhmm.charCodeAt(0) - 48) * 600 + (hhmm.charCodeAt(1) - 48) * 60 + (hhmm.charCodeAt(3) - 48) * 10 + (hhmm.charCodeAt(4) - 48);
