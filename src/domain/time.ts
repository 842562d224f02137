// Every conversion between wire strings and instants, in the account's time zone.
// Temporal decides offsets; results are cached per zone and UTC quarter-hour because
// serialising a 750-booking page would otherwise spend most of its CPU in the polyfill.
import { Temporal } from "@js-temporal/polyfill";

const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const CACHE_LIMIT = 100_000;

interface ZoneOffset {
  ms: number;
  /** `+01:00` */
  text: string;
}

/** Per zone, the offset of each UTC quarter-hour asked for (a number key: no string built per call). */
const zoneOffsets = new Map<string, Map<number, ZoneOffset>>();

function zoneOffsetAt(epochMs: number, timeZone: string): ZoneOffset {
  let offsets = zoneOffsets.get(timeZone);
  if (!offsets) {
    offsets = new Map();
    zoneOffsets.set(timeZone, offsets);
  }
  const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    const zoned = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone);
    const ms = zoned.offsetNanoseconds / 1_000_000;
    offset = { ms, text: formatOffset(ms) };
    if (offsets.size > CACHE_LIMIT) offsets.clear();
    offsets.set(quarter, offset);
  }
  return offset;
}

/** Offset of `timeZone` at `epochMs`, in milliseconds. Zone transitions fall on quarter hours. */
export const offsetMsAt = (epochMs: number, timeZone: string): number => zoneOffsetAt(epochMs, timeZone).ms;

function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? "-" : "+";
  const minutes = Math.round(Math.abs(offsetMs) / 60000);
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${sign}${hh}:${mm}`;
}

/** `2020-01-27T` of each wall-clock day asked for, by day number since the epoch. */
const dayPrefixes = new Map<number, string>();

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `2020-01-27T14:00:00+01:00`: the spec's output form, seconds included. Built from cached day
 * and offset texts: a page of 750 bookings formats thousands of instants, and `toISOString`
 * per instant was most of the serialiser's time.
 */
export function formatInstant(epochMs: number, timeZone: string): string {
  const offset = zoneOffsetAt(epochMs, timeZone);
  const wall = epochMs + offset.ms;
  const day = Math.floor(wall / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayPrefixes.size > CACHE_LIMIT) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  const ofDay = wall - day * DAY_MS;
  const seconds = Math.floor(ofDay / 1000);
  return `${prefix}${twoDigits(Math.floor(seconds / 3600))}:${twoDigits(Math.floor(seconds / 60) % 60)}:${twoDigits(seconds % 60)}${offset.text}`;
}

export const formatNullableInstant = (epochMs: number | null | undefined, timeZone: string) => (epochMs == null ? null : formatInstant(epochMs, timeZone));

/** The calendar date of an instant in the zone, `YYYY-MM-DD`. */
export function dateInZone(epochMs: number, timeZone: string): string {
  return new Date(epochMs + offsetMsAt(epochMs, timeZone)).toISOString().slice(0, 10);
}

const DATE_TIME_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Reads a datetime as the spec allows it: ISO 8601 with or without an offset, or the
 * recommended `YYYY-MM-DD hh:mm`. Without an offset the wall time is read in `timeZone`;
 * a wall time skipped by a DST change moves forward (Temporal's "compatible"), a repeated
 * one takes its first occurrence. Returns null when the text is not a real datetime.
 */
export function parseDateTimeInput(text: string, timeZone: string): number | null {
  const match = DATE_TIME_INPUT.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone] = match;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  const millisecond = Number(frac.padEnd(3, "0").slice(0, 3));
  // Temporal's own limits with overflow "reject", checked without it: a create parses two
  // times per request, and the polyfill's property-bag parsing was most of that.
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  if (zone) {
    const offsetMinutes = offsetMinutesOf(zone);
    if (offsetMinutes === null) return null;
    return utcMs(year, month, day, hour, minute, second, millisecond) - offsetMinutes * 60_000;
  }
  try {
    const wallAsUtc = utcMs(year, month, day, hour, minute, second, millisecond);
    // Temporal's own test (the zone's offsets a day either side) from the cached offsets: with no
    // change of offset around it, the wall time names exactly one instant. Near a change, Temporal decides.
    const offset = offsetMsAt(wallAsUtc - DAY_MS, timeZone);
    if (offset === offsetMsAt(wallAsUtc + DAY_MS, timeZone) && offset === offsetMsAt(wallAsUtc - offset, timeZone)) return wallAsUtc - offset;
    const wall = new Temporal.PlainDateTime(year, month, day, hour, minute, second, millisecond);
    return wall.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds;
  } catch {
    return null;
  }
}

/** `Z`, `±hh`, `±hhmm` or `±hh:mm` as minutes east of UTC; null past what an ISO offset allows (23:59). */
function offsetMinutesOf(zone: string): number | null {
  if (zone.toUpperCase() === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || "0");
  if (hours > 23 || minutes > 59) return null;
  return (zone[0] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/** Milliseconds since the epoch of a UTC wall time; years below 100 stay as written (Date.UTC would add 1900). */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, millisecond: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return date.getTime();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** A real day of the ISO (proleptic Gregorian) calendar, as Temporal's ISO calendar has them. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]);
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return isCalendarDate(Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10)));
}

const zoneValidity = new Map<string, boolean>();
/** IANA zone names only (`Europe/Oslo`, `UTC`); bare offsets are not account zones. */
export function isTimeZone(name: string): boolean {
  let valid = zoneValidity.get(name);
  if (valid === undefined) {
    valid = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) && tryZone(name);
    zoneValidity.set(name, valid);
  }
  return valid;
}

function tryZone(name: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(name);
    return true;
  } catch {
    return false;
  }
}

/** Today's date in the zone. */
export const todayIn = (nowMs: number, timeZone: string) => dateInZone(nowMs, timeZone);

/** Start of a calendar date in the zone, as epoch ms (DST-safe: a day may be 23 or 25 hours). */
export function startOfDay(date: string, timeZone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;
}

export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** Calendar years later; 29 February moves to 28 February in a common year. */
export function addYears(date: string, years: number): string {
  return Temporal.PlainDate.from(date).add({ years }).toString();
}

export function daysBetween(from: string, to: string): number {
  return Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: "days" }).days;
}

export function endOfMonth(date: string): string {
  const day = Temporal.PlainDate.from(date);
  return day.with({ day: day.daysInMonth }).toString();
}
