// External calendar subscriptions (issue 32): the busy intervals an iCalendar feed holds within a
// window, recurrences expanded and moved or cancelled occurrences applied. Pure: text in, intervals out.
// ical.js parses the text and steps through RRULEs; which wall times those are, and which instants,
// is decided here, since ical.js reads a TZID without a VTIMEZONE as floating and then compares
// UNTIL, EXDATE and RECURRENCE-ID given in UTC against wall times as if they were UTC.
import { Temporal } from "@js-temporal/polyfill";
import ICAL from "ical.js";
import { addDays, daysBetween, isTimeZone, startOfDay } from "../../domain/time";
import { skipAhead } from "./skip-ahead";
import { dateText, ianaZone, midnightOf, plusDays, zoneResolver, type Wall, type WallZone } from "./wall-zones";

interface BusyInterval {
  /** Epoch ms, clipped to the window. */
  from: number;
  to: number;
  /** The VEVENT's UID ("" when it has none). */
  uid: string;
  /** For diagnostics ("which external event blocks 10:00?"). */
  summary?: string;
}

export interface ParsedFeed {
  /**
   * Sorted by `from`; one interval per occurrence, not merged: the UID says which external event
   * blocks a slot, and a caller storing them may merge (any busy interval takes the whole resource).
   */
  busy: BusyInterval[];
  /** VEVENT components read, moved and cancelled occurrences included. */
  eventsRead: number;
  /** VEVENTs that could not be read (no DTSTART, a date that is no date): their time is missing from `busy`. */
  eventsSkipped: number;
  /** A limit of BUSY_LIMITS cut the expansion short, so `busy` may miss intervals; `warnings` says where. */
  truncated: boolean;
  warnings: string[];
}

/** The text is not an iCalendar feed (an HTML error page, a vCard, a cut-off download): keep the last good busy times. */
export class MalformedFeed extends Error {
  override name = "MalformedFeed";
}

/** Bounds one feed's work: an infinite RRULE stops at the window's end, a dense one at these counts. */
export const BUSY_LIMITS = {
  /** Busy intervals one VEVENT may add within the window (a daily event for 13 years). */
  occurrencesPerEvent: 5_000,
  /** Busy intervals per feed. */
  busyPerFeed: 50_000,
  /**
   * RRULE steps (candidate dates ical.js checks against the rule) per event, before the window
   * included: DAILY to YEARLY rules without COUNT start near the window (skip-ahead.ts), others walk
   * from DTSTART; an hourly one from years back, or one no date fits, is cut here.
   */
  ruleStepsPerEvent: 20_000,
  /** RRULE steps per feed: a few µs each in ical.js. */
  ruleStepsPerFeed: 250_000,
  /** Distinct warnings kept. */
  warnings: 50,
} as const;

export interface Window {
  from: number;
  to: number;
}

export interface FeedOptions {
  /** The account's IANA zone: floating times and all-day dates are read in it. */
  floatingZone: string;
}

const DAY_MS = 86_400_000;

/** Thrown from inside ical.js's iterator when the step limits are spent. */
class StepsSpent extends Error {}

/**
 * The busy intervals of `icsText` overlapping `window`. Throws MalformedFeed when the text is not
 * an iCalendar feed, or when ical.js refuses a value it parses eagerly (an RRULE it cannot read).
 */
export function busyTimesOf(icsText: string, window: Window, opts: FeedOptions): ParsedFeed {
  if (!(Number.isFinite(window.from) && Number.isFinite(window.to) && window.from < window.to)) {
    throw new RangeError("the window must be finite and end after it starts");
  }
  if (!isTimeZone(opts.floatingZone)) throw new RangeError(`${opts.floatingZone} is not an IANA time zone`);
  forgetIcalCaches();
  const run = new Expansion(window, opts.floatingZone);
  for (const calendar of calendarsOf(icsText)) run.readCalendar(calendar);
  return run.result();
}

/**
 * ical.js keeps weekday and week-number answers in caches shared by the isolate, keyed so that a
 * date not yet normalised (day 32) can collide with another; emptied per feed, no feed's walk can
 * answer for the next, and the caches stay as small as one feed makes them.
 */
function forgetIcalCaches() {
  const time = ICAL.Time as unknown as { _dowCache: Record<number, number>; _wnCache: Record<number, number> };
  time._dowCache = {};
  time._wnCache = {};
}

function calendarsOf(icsText: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    // ical.js reads no byte order mark; some servers send one.
    parsed = ICAL.parse(icsText.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new MalformedFeed(`not iCalendar text: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new MalformedFeed("no VCALENDAR in the text");
  // One root comes back as a jCal component, several (concatenated calendars) as a list of them.
  const roots = (typeof parsed[0] === "string" ? [parsed] : parsed) as unknown[];
  return roots.map((root) => {
    if (!Array.isArray(root) || root[0] !== "vcalendar")
      throw new MalformedFeed(`a ${String(Array.isArray(root) ? root[0] : root).toUpperCase()} where a VCALENDAR belongs`);
    return new ICAL.Component(root);
  });
}

/** How each occurrence's end follows from its start (RFC 5545 3.8.5.3). */
type Length =
  /** DTEND: the same exact duration for every occurrence, whatever DST does in between. */
  | { kind: "exact"; ms: number }
  /** DURATION or an all-day span: days on the calendar (23 or 25 hours across DST), then exact time. */
  | { kind: "nominal"; days: number; ms: number };

interface Timing {
  start: ICAL.Time;
  /** null for all-day (VALUE=DATE) events: their dates are read in the account's zone. */
  zone: WallZone | null;
  length: Length;
}

interface Candidate {
  end: number;
}

class Expansion {
  readonly #busy: BusyInterval[] = [];
  readonly #warnings = new Set<string>();
  #eventsRead = 0;
  #eventsSkipped = 0;
  #ruleSteps = 0;
  #truncated = false;
  #zoneOf: (tzid: string) => WallZone = () => this.#floating;
  readonly #floating: WallZone;
  readonly #utc = ianaZone("UTC");

  constructor(
    readonly window: Window,
    readonly floatingZone: string,
  ) {
    this.#floating = ianaZone(floatingZone);
  }

  readCalendar(calendar: ICAL.Component) {
    this.#zoneOf = zoneResolver(calendar, this.floatingZone, (message) => this.#warn(message));
    const masters: ICAL.Component[] = [];
    /** Per UID, the occurrences (start instants) that a RECURRENCE-ID component replaces or cancels. */
    const replaced = new Map<string, Set<number>>();
    for (const vevent of calendar.getAllSubcomponents("vevent")) {
      this.#eventsRead++;
      if (!vevent.hasProperty("recurrence-id")) {
        masters.push(vevent);
        continue;
      }
      // A moved or cancelled occurrence stands on its own (its own times and status), whether or not
      // its original time or the series' DTSTART lies in the window.
      this.#readable(vevent, () => {
        const timing = this.#timingOf(vevent);
        const uid = uidOf(vevent);
        const key = this.#instantOf(vevent.getFirstProperty("recurrence-id")!, timing.zone);
        if (uid) {
          if (!replaced.has(uid)) replaced.set(uid, new Set());
          replaced.get(uid)!.add(key);
        }
        if (vevent.getFirstProperty("recurrence-id")!.getParameter("range")) {
          this.#warn(`UID ${uid}: RANGE=THISANDFUTURE is read as this occurrence only`);
        }
        if (isBusy(vevent)) this.#emit(vevent, this.#single(timing));
      });
    }
    for (const vevent of masters) {
      this.#readable(vevent, () => {
        if (isBusy(vevent)) this.#emit(vevent, this.#occurrences(vevent, replaced.get(uidOf(vevent)) ?? new Set()));
      });
    }
  }

  result(): ParsedFeed {
    this.#busy.sort((a, b) => a.from - b.from || a.to - b.to);
    return { busy: this.#busy, eventsRead: this.#eventsRead, eventsSkipped: this.#eventsSkipped, truncated: this.#truncated, warnings: [...this.#warnings] };
  }

  /** One unreadable VEVENT is skipped and said, not the whole feed refused: the rest is still busy time. */
  #readable(vevent: ICAL.Component, read: () => void) {
    try {
      read();
    } catch (error) {
      this.#eventsSkipped++;
      this.#warn(`UID ${uidOf(vevent)}: skipped, ${(error as Error).message}`);
    }
  }

  #warn(message: string) {
    if (this.#warnings.size < BUSY_LIMITS.warnings) this.#warnings.add(message);
  }

  #cut(message: string) {
    this.#truncated = true;
    this.#warn(message);
  }

  #emit(vevent: ICAL.Component, occurrences: Map<number, Candidate>) {
    const uid = uidOf(vevent);
    const summary = vevent.getFirstPropertyValue("summary");
    for (const [start, { end }] of occurrences) {
      if (this.#busy.length >= BUSY_LIMITS.busyPerFeed) return this.#cut(`more than ${BUSY_LIMITS.busyPerFeed} busy intervals in the window; the rest are left out`);
      const interval: BusyInterval = { from: Math.max(start, this.window.from), to: Math.min(end, this.window.to), uid };
      if (typeof summary === "string" && summary) interval.summary = summary;
      this.#busy.push(interval);
    }
  }

  /** DTSTART and how long each occurrence lasts. */
  #timingOf(vevent: ICAL.Component): Timing {
    const startProp = vevent.getFirstProperty("dtstart");
    if (!startProp) throw new Error("no DTSTART");
    const start = startProp.getFirstValue() as ICAL.Time;
    const zone = start.isDate ? null : this.#zoneOfValue(start, startProp, this.#floating);
    const endProp = vevent.getFirstProperty("dtend");
    const duration = vevent.getFirstPropertyValue("duration") as ICAL.Duration | null;
    let length: Length;
    if (endProp) {
      const end = endProp.getFirstValue() as ICAL.Time;
      if (start.isDate) {
        // An all-day event ending on (or before) its first day means that day: busy, not nothing.
        length = { kind: "nominal", days: Math.max(1, daysBetween(dateText(start), dateText(end))), ms: 0 };
      } else {
        length = { kind: "exact", ms: this.#instantOfValue(end, endProp, zone) - zone!.epochOf(start) };
        if (length.ms < 0) this.#warn(`UID ${uidOf(vevent)}: DTEND before DTSTART; not busy`);
      }
    } else if (duration) {
      const sign = duration.isNegative ? -1 : 1;
      length = {
        kind: "nominal",
        days: sign * (duration.weeks * 7 + duration.days),
        ms: sign * ((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1000,
      };
    } else {
      // RFC 5545 3.6.1: a date alone is that one day; a date-time alone is a moment, which blocks nothing.
      length = start.isDate ? { kind: "nominal", days: 1, ms: 0 } : { kind: "exact", ms: 0 };
    }
    return { start, zone, length };
  }

  /** The occurrence a RECURRENCE-ID component describes: its own DTSTART, nothing recurring. */
  #single(timing: Timing): Map<number, Candidate> {
    const found = new Map<number, Candidate>();
    this.#consider(found, timing, timing.start, timing.zone);
    return found;
  }

  /**
   * The recurrence set (RFC 5545 3.8.5): DTSTART, every RRULE and RDATE, less EXDATEs and the
   * occurrences replaced by RECURRENCE-ID components. DTSTART counts even when the rule would not
   * produce it (the RFC leaves that set undefined; a calendar app shows the event there).
   */
  #occurrences(vevent: ICAL.Component, replaced: Set<number>): Map<number, Candidate> {
    const timing = this.#timingOf(vevent);
    const uid = uidOf(vevent);
    const excludedInstants = new Set(replaced);
    const excludedDates = new Set<string>();
    for (const prop of vevent.getAllProperties("exdate")) {
      for (const value of prop.getValues() as ICAL.Time[]) {
        // A date excludes that day's occurrence, whatever its time of day.
        if (value.isDate || !timing.zone) excludedDates.add(dateText(value));
        else excludedInstants.add(this.#instantOfValue(value, prop, timing.zone));
      }
    }
    const found = new Map<number, Candidate>();
    const consider = (wall: ICAL.Time, zone: WallZone | null, start = this.#startOf(wall, zone), end?: number) => {
      if (excludedInstants.has(start) || excludedDates.has(dateText(wall))) return true;
      this.#consider(found, timing, wall, zone, start, end);
      if (found.size < BUSY_LIMITS.occurrencesPerEvent) return true;
      this.#cut(`UID ${uid}: stopped at ${BUSY_LIMITS.occurrencesPerEvent} occurrences in the window`);
      return false;
    };

    if (!consider(timing.start, timing.zone)) return found;
    for (const prop of vevent.getAllProperties("rdate")) {
      for (const value of prop.getValues() as (ICAL.Time | ICAL.Period)[]) {
        if (value instanceof ICAL.Period) {
          const zone = this.#zoneOfValue(value.start, prop, timing.zone ?? this.#floating);
          if (!consider(value.start, zone, zone.epochOf(value.start), this.#instantOfValue(value.getEnd(), prop, zone))) return found;
        } else if (!timing.zone || value.isDate) {
          // An all-day event recurs on dates; a date among a timed event's RDATEs has no time to start at.
          if (timing.zone) this.#warn(`UID ${uid}: RDATE ${dateText(value)} is a date on a timed event; ignored`);
          else if (!consider(value, null)) return found;
        } else if (!consider(value, this.#zoneOfValue(value, prop, timing.zone))) return found;
      }
    }
    for (const prop of vevent.getAllProperties("rrule")) {
      if (!this.#expandRule(prop.getFirstValue() as ICAL.Recur, timing, uid, consider)) break;
    }
    return found;
  }

  /** Steps through one RRULE until past the window or UNTIL; false when a limit stopped it. */
  #expandRule(rule: ICAL.Recur, timing: Timing, uid: string, consider: (wall: ICAL.Time, zone: WallZone | null) => boolean): boolean {
    const beyondUntil = this.#untilTest(rule, timing);
    // UNTIL is applied here, on instants: ical.js would compare it in the DTSTART's zone, which for
    // a TZID without a VTIMEZONE is floating (offset 0), dropping the last occurrence.
    const open = rule.clone();
    open.until = null;
    // ical.js walks these lists in the order written: "BYMONTH=2,1" yields February before January,
    // and the walk's stop past the window would miss the January after it.
    for (const part of ["BYMONTH", "BYHOUR", "BYMINUTE", "BYSECOND"] as const) open.parts[part]?.sort((a, b) => a - b);
    const steps = open.iterator(skipAhead(open, timing.start, this.#lastUnneededDate(timing.length)));
    // ical.js's next() loops until a candidate passes the rule's filters, unbounded for WEEKLY and
    // shorter frequencies: FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 would never return. Counting the
    // candidates it checks bounds the walk whether or not occurrences come out.
    let candidates = 0;
    const checkRules = steps.check_contracting_rules;
    steps.check_contracting_rules = () => {
      if (++candidates > BUSY_LIMITS.ruleStepsPerEvent || ++this.#ruleSteps > BUSY_LIMITS.ruleStepsPerFeed) throw new StepsSpent();
      return checkRules.call(steps);
    };
    // Wall-clock order and instant order differ by at most a DST shift (a skipped 02:30 reads as
    // 03:30), so the walk goes a day past the window's end before stopping.
    const stopAt = this.window.to + DAY_MS;
    try {
      for (let wall = steps.next(); wall; wall = steps.next()) {
        const start = this.#startOf(wall, timing.zone);
        if (beyondUntil(wall, start) || start >= stopAt) return true;
        if (!consider(wall, timing.zone)) return false;
      }
    } catch (error) {
      if (!(error instanceof StepsSpent)) throw error;
      this.#cut(
        candidates > BUSY_LIMITS.ruleStepsPerEvent
          ? `UID ${uid}: RRULE stopped after ${BUSY_LIMITS.ruleStepsPerEvent} steps (from ${dateText(timing.start)}, or no date fits the rule)`
          : `RRULE expansion stopped at ${BUSY_LIMITS.ruleStepsPerFeed} steps for the feed (at UID ${uid})`,
      );
      return false;
    }
    return true;
  }

  /**
   * A wall date before which no occurrence can reach the window: back from its start by the
   * longest an occurrence lasts, and two days for zone offsets (under a day each way).
   */
  #lastUnneededDate(length: Length): Temporal.PlainDate {
    const longest = length.kind === "exact" ? length.ms : (length.days + 1) * DAY_MS + length.ms;
    const utcDate = new Date(this.window.from - Math.max(0, longest) - 2 * DAY_MS).toISOString().slice(0, 10);
    return Temporal.PlainDate.from(utcDate);
  }

  #untilTest(rule: ICAL.Recur, timing: Timing): (wall: ICAL.Time, start: number) => boolean {
    const until = rule.until;
    if (!until) return () => false;
    if (until.isDate) {
      // The last day's occurrence is included, at whatever time of day it starts.
      const lastDate = dateText(until);
      return (wall) => dateText(wall) > lastDate;
    }
    const last = until.zone === ICAL.Timezone.utcTimezone ? this.#utc.epochOf(until) : (timing.zone ?? this.#floating).epochOf(until);
    return (_wall, start) => start > last;
  }

  /** Adds one occurrence's interval to `found` when it has a length and overlaps the window. */
  #consider(found: Map<number, Candidate>, timing: Timing, wall: ICAL.Time, zone: WallZone | null, start = this.#startOf(wall, zone), end?: number) {
    end ??= this.#endOf(timing.length, wall, zone, start);
    if (end <= start || end <= this.window.from || start >= this.window.to) return;
    const known = found.get(start);
    if (!known || known.end < end) found.set(start, { end });
  }

  #startOf(wall: Wall, zone: WallZone | null): number {
    return zone ? zone.epochOf(wall) : midnightOf(wall, this.floatingZone);
  }

  #endOf(length: Length, wall: Wall, zone: WallZone | null, start: number): number {
    if (length.kind === "exact") return start + length.ms;
    if (!zone) return startOfDay(addDays(dateText(wall), length.days), this.floatingZone) + length.ms;
    return (length.days ? zone.epochOf(plusDays(wall, length.days)) : start) + length.ms;
  }

  /** The zone a date-time value of `prop` is written in; a floating one takes `floating` (the event's own zone). */
  #zoneOfValue(value: ICAL.Time, prop: ICAL.Property, floating: WallZone): WallZone {
    if (value.zone === ICAL.Timezone.utcTimezone) return this.#utc;
    const tzid = prop.getParameter("tzid");
    return typeof tzid === "string" && tzid ? this.#zoneOf(tzid) : floating;
  }

  #instantOfValue(value: ICAL.Time, prop: ICAL.Property, eventZone: WallZone | null): number {
    if (value.isDate) return midnightOf(value, this.floatingZone);
    return this.#zoneOfValue(value, prop, eventZone ?? this.#floating).epochOf(value);
  }

  #instantOf(prop: ICAL.Property, eventZone: WallZone | null): number {
    return this.#instantOfValue(prop.getFirstValue() as ICAL.Time, prop, eventZone);
  }
}

const uidOf = (vevent: ICAL.Component) => String(vevent.getFirstPropertyValue("uid") ?? "");

/** RFC 5545 3.8.2.7 and 3.8.1.11: a transparent or cancelled event blocks no time. Tentative ones do. */
function isBusy(vevent: ICAL.Component): boolean {
  const upper = (name: string) => String(vevent.getFirstPropertyValue(name) ?? "").toUpperCase();
  return upper("status") !== "CANCELLED" && upper("transp") !== "TRANSPARENT";
}
