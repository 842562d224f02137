// How an external feed's wall-clock times become instants: each TZID is resolved once per feed to
// an IANA zone (Temporal), to the feed's own VTIMEZONE (ical.js), or to the account's zone.
import { Temporal } from "@js-temporal/polyfill";
import ICAL from "ical.js";
import { isTimeZone, parseDateTimeInput, startOfDay } from "../../domain/time";

/** The fields of a wall-clock date-time; an `ICAL.Time` has them. */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface WallZone {
  /** The IANA name or the feed's TZID, for warnings. */
  readonly id: string;
  /**
   * RFC 5545 3.3.5: a wall time that occurs twice is its first instant; one skipped by a DST change
   * is read with the offset before the gap, so 02:30 on a spring-forward night is 03:30. That is
   * Temporal's "compatible" disambiguation, which `parseDateTimeInput` applies.
   */
  epochOf(wall: Wall): number;
}

/** An ICAL.Time of the wall fields only (ICAL.Time keeps them behind getters, so no spreading). */
const icalTime = (wall: Wall, zone: ICAL.Timezone) =>
  new ICAL.Time({ year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute, second: wall.second, isDate: false }, zone);

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export const dateText = (wall: Wall) => `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;

const wallText = (wall: Wall) => `${dateText(wall)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;

/** The same wall time `days` calendar days later (a nominal day: 23 or 25 hours across a DST change). */
export function plusDays(wall: Wall, days: number): Wall {
  const later = new Temporal.PlainDateTime(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second).add({ days });
  return { year: later.year, month: later.month, day: later.day, hour: later.hour, minute: later.minute, second: later.second };
}

/** Midnight starting a calendar date in `timeZone`, for all-day (VALUE=DATE) values. */
export const midnightOf = (wall: Wall, timeZone: string) => startOfDay(dateText(wall), timeZone);

export function ianaZone(id: string): WallZone {
  return {
    id,
    epochOf(wall) {
      const epoch = parseDateTimeInput(wallText(wall), id);
      if (epoch === null) throw new RangeError(`${wallText(wall)} is not a wall time`);
      return epoch;
    },
  };
}

const DAY_SECONDS = 86_400;

/**
 * A zone only the feed defines (Outlook's "W. Europe Standard Time"), read with ical.js's offsets.
 * ical.js alone reads a repeated wall time as its second instant and a skipped one with the offset
 * after the gap, the opposite of RFC 5545 3.3.5, so the offset is chosen here. Its `utcOffset` of a
 * wall time switches at the transition read on the wall clock of the smaller offset; probing the
 * wall time moved back by the size of the change is therefore before that switch exactly when the
 * RFC wants the earlier offset (before a gap, inside it, or in the first pass of a repeated hour).
 */
function vtimezoneZone(id: string, zone: ICAL.Timezone): WallZone {
  const offsetAt = (wall: Wall, seconds: number) => {
    const probe = icalTime(wall, ICAL.Timezone.localTimezone);
    probe.adjust(0, 0, 0, seconds);
    return zone.utcOffset(probe);
  };
  return {
    id,
    epochOf(wall) {
      const wallAsUtc = icalTime(wall, ICAL.Timezone.utcTimezone).toUnixTime() * 1000;
      // A day either side is clear of any transition (zones change offset at most twice a year).
      const before = offsetAt(wall, -DAY_SECONDS);
      const after = offsetAt(wall, DAY_SECONDS);
      if (before === after) return wallAsUtc - before * 1000;
      const offset = offsetAt(wall, -Math.abs(after - before)) === before ? before : after;
      return wallAsUtc - offset * 1000;
    },
  };
}

/**
 * The zone of each TZID in one VCALENDAR, resolved once. An IANA name is read with Temporal even
 * when the feed carries a VTIMEZONE for it: Google and Apple send IANA names (Google often without
 * any VTIMEZONE), the tz database is the authority those names refer to, and the rest of the
 * product reads wall times the same way. A name Temporal does not know (Windows names from
 * Outlook/Exchange, custom zones) needs the feed's VTIMEZONE, read from the parsed tree; nothing is
 * registered in ical.js's TimezoneService, which is global to the isolate and would let one feed's
 * definition of a name answer for another's. A name with neither is read in the account's zone,
 * with a warning: a guess, but the likeliest zone for a subscriber's own calendar.
 */
export function zoneResolver(calendar: ICAL.Component, accountZone: string, warn: (message: string) => void) {
  const resolved = new Map<string, WallZone>();
  const account = ianaZone(accountZone);
  return (tzid: string): WallZone => {
    let zone = resolved.get(tzid);
    if (!zone) {
      // RFC 5545 3.2.19: a leading "/" marks a globally unique TZID; the IANA name follows it.
      const iana = [tzid, tzid.replace(/^\/+/, "")].find(isTimeZone);
      const defined = iana ? null : calendar.getTimeZoneByID(tzid);
      if (iana) zone = ianaZone(iana);
      else if (defined) zone = vtimezoneZone(tzid, defined);
      else {
        warn(`TZID "${tzid}" is neither an IANA zone nor defined by a VTIMEZONE; read in ${accountZone}`);
        zone = account;
      }
      resolved.set(tzid, zone);
    }
    return zone;
  };
}
