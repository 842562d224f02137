// Recurrence expansion: an iCalendar rrule / rdate / exdate around a first item, as occurrence
// instants in the account zone, keeping the first item's wall-clock times across DST changes.
import { Temporal } from "@js-temporal/polyfill";
import { RRule } from "rrule";
import { isTimeZone } from "./time";

const MAX_OCCURRENCES = 731; // spec: Limits, recurring occurrences

/** A rule is expanded this far past the first item at most, so no rule can loop for centuries. */
const HORIZON_YEARS = 100;

export interface RecurrenceInput {
  rrule?: string | null;
  rdate?: string | null;
  exdate?: string | null;
}

export interface Occurrence {
  from: number;
  to: number;
}

type Expansion = { ok: true; occurrences: Occurrence[] } | { ok: false; errors: Record<string, string[]> };

const WEEKDAY = "(?:MO|TU|WE|TH|FR|SA|SU)";

const numbers =
  (min: number, max: number, signed = false) =>
  (value: string) =>
    value.split(",").every((part) => {
      if (!/^[+-]?\d{1,3}$/.test(part) || (!signed && /^[+-]/.test(part))) return false;
      const n = Math.abs(Number(part));
      return n >= min && n <= max;
    });

const positive = (value: string) => /^\d{1,6}$/.test(value) && Number(value) >= 1;

/** RFC 5545 3.3.10 parts; rrule.js accepts nonsense (`FREQ=BOGUS`, `COUNT=abc`) without complaint. */
const RULE_PARTS: Record<string, (value: string) => boolean> = {
  FREQ: (v) => /^(YEARLY|MONTHLY|WEEKLY|DAILY|HOURLY|MINUTELY|SECONDLY)$/.test(v),
  UNTIL: (v) => /^\d{8}(T\d{6}Z?)?$/.test(v),
  COUNT: positive,
  INTERVAL: positive,
  BYSECOND: numbers(0, 60),
  BYMINUTE: numbers(0, 59),
  BYHOUR: numbers(0, 23),
  BYDAY: (v) => v.split(",").every((d) => new RegExp(`^([+-]?([1-9]|[1-4]\\d|5[0-3]))?${WEEKDAY}$`).test(d)),
  BYMONTHDAY: numbers(1, 31, true),
  BYYEARDAY: numbers(1, 366, true),
  BYWEEKNO: numbers(1, 53, true),
  BYMONTH: numbers(1, 12),
  BYSETPOS: numbers(1, 366, true),
  WKST: (v) => new RegExp(`^${WEEKDAY}$`).test(v),
};

/** Wall-clock date-times as rrule.js wants them: "floating" UTC fields that mean local time. */
const toFloating = (wall: Temporal.PlainDateTime) => new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));

const fromFloating = (date: Date) =>
  new Temporal.PlainDateTime(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());

const wallOf = (epochMs: number, timeZone: string) => Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone).toPlainDateTime();

/** A wall time skipped by DST moves forward, as `parseDateTimeInput` reads input. */
const instantOf = (wall: Temporal.PlainDateTime, timeZone: string) => wall.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds;

function plainDateTime(y: string, mo: string, d: string, h = "00", mi = "00", s = "00"): Temporal.PlainDateTime | null {
  try {
    return Temporal.PlainDateTime.from({ year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: Math.min(+s, 59) }, { overflow: "reject" });
  } catch {
    return null;
  }
}

interface RuleParse {
  options?: ConstructorParameters<typeof RRule>[0];
  errors: string[];
}

/** `UNTIL` in the account's wall time: a date includes its whole day, `Z` is an instant. */
function untilWall(value: string, timeZone: string): Temporal.PlainDateTime | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value)!;
  const [, y, mo, d, h, mi, s, z] = m;
  if (h === undefined) return plainDateTime(y, mo, d, "23", "59", "59");
  const wall = plainDateTime(y, mo, d, h, mi, s);
  if (!wall || !z) return wall;
  return wallOf(wall.toZonedDateTime("UTC").epochMilliseconds, timeZone);
}

function parseRule(text: string, timeZone: string): RuleParse {
  const body = text
    .trim()
    .toUpperCase()
    .replace(/^RRULE:/, "");
  const parts = new Map<string, string>();
  const errors: string[] = [];
  for (const part of body.split(";").filter((p) => p !== "")) {
    const [key, value, extra] = part.split("=");
    if (key === "DTSTART" || key === "TZID") errors.push(`can't set ${key}: the first item's start, in the account time zone, is DTSTART`);
    else if (!Object.hasOwn(RULE_PARTS, key) || value === undefined || extra !== undefined) errors.push(`has an unknown part: ${part}`);
    else if (parts.has(key)) errors.push(`gives ${key} twice`);
    else if (!RULE_PARTS[key](value)) errors.push(`has an invalid ${key}: ${value}`);
    else parts.set(key, value);
  }
  if (errors.length > 0) return { errors };
  if (!parts.has("FREQ")) return { errors: ["needs FREQ, e.g. FREQ=WEEKLY;COUNT=10"] };
  if (["MINUTELY", "SECONDLY"].includes(parts.get("FREQ")!)) return { errors: ["can't repeat more often than HOURLY"] };
  if (!parts.has("COUNT") && !parts.has("UNTIL")) return { errors: ["needs COUNT or UNTIL: a rule without an end has no last occurrence"] };
  if (parts.has("COUNT") && parts.has("UNTIL")) return { errors: ["can't have both COUNT and UNTIL (RFC 5545)"] };

  const withoutUntil = [...parts]
    .filter(([k]) => k !== "UNTIL")
    .map(([k, v]) => `${k}=${v}`)
    .join(";");
  const options = RRule.parseString(withoutUntil);
  if (parts.has("UNTIL")) {
    const wall = untilWall(parts.get("UNTIL")!, timeZone);
    if (!wall) return { errors: [`has an invalid UNTIL: ${parts.get("UNTIL")}`] };
    options.until = toFloating(wall);
  }
  return { options, errors: [] };
}

/** One rdate/exdate value: a date (any time that day for exdate, the first item's time for rdate) or a wall time. */
interface ListedDate {
  date: Temporal.PlainDate;
  time: Temporal.PlainTime | null;
}

/**
 * `VALUE=DATE:20300107,20300114`, date-times (`20300107T100000`, `...Z` for UTC, `TZID=<zone>:`
 * for another zone's wall time), an optional `RDATE`/`EXDATE` name, and ISO dashes and colons.
 */
function parseDateList(text: string, timeZone: string): { values: ListedDate[]; error?: string } {
  const invalid = (detail: string) => ({
    values: [],
    error: `is invalid (${detail}): use VALUE=DATE:20300107,20300114 or date-times like 20300107T100000`,
  });
  let rest = text.trim().replace(/^(RDATE|EXDATE)(?=[;:])[;:]?/i, "");
  let zone = timeZone;
  if (/^[A-Z-]+=/i.test(rest)) {
    const colon = rest.indexOf(":");
    if (colon < 0) return invalid("no ':' after the parameters");
    for (const param of rest.slice(0, colon).split(";")) {
      const [name, value = ""] = param.split("=");
      if (name.toUpperCase() === "VALUE" && /^(DATE|DATE-TIME)$/i.test(value)) continue;
      if (name.toUpperCase() === "TZID" && isTimeZone(value)) zone = value;
      else return invalid(`unsupported parameter ${param}`);
    }
    rest = rest.slice(colon + 1);
  }
  const values: ListedDate[] = [];
  for (const raw of rest
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "")) {
    const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/i.exec(raw.replace(/[-:]/g, ""));
    const wall = m && plainDateTime(m[1], m[2], m[3], m[4], m[5], m[6]);
    if (!m || !wall) return invalid(raw);
    if (m[4] === undefined) {
      values.push({ date: wall.toPlainDate(), time: null });
      continue;
    }
    const local = m[7] || zone !== timeZone ? wallOf(wall.toZonedDateTime(m[7] ? "UTC" : zone).epochMilliseconds, timeZone) : wall;
    values.push({ date: local.toPlainDate(), time: local.toPlainTime() });
  }
  return { values };
}

/**
 * The occurrences of `recurrence` around the first item (DTSTART/DTEND = its start and end), sorted.
 * Expansion runs in floating wall time, then each wall time becomes an instant in `timeZone`,
 * so a weekly 10:00 stays 10:00 local across DST; each keeps the first item's wall-clock length
 * (10:00–11:00 stays 10:00–11:00). The first item is always an occurrence unless exdate removes
 * it. More than `limit` occurrences is an error on `collection_id`, found without expanding all.
 */
export function expandRecurrence(input: { recurrence: RecurrenceInput; first: Occurrence; timeZone: string; limit?: number }): Expansion {
  const { recurrence, first, timeZone } = input;
  const limit = input.limit ?? MAX_OCCURRENCES;
  const errors: Record<string, string[]> = {};
  const rule = recurrence.rrule ? parseRule(recurrence.rrule, timeZone) : { errors: [] };
  if (rule.errors.length > 0) errors.rrule = rule.errors;
  const rdate = parseDateList(recurrence.rdate ?? "", timeZone);
  if (rdate.error) errors.rdate = [rdate.error];
  const exdate = parseDateList(recurrence.exdate ?? "", timeZone);
  if (exdate.error) errors.exdate = [exdate.error];
  if (!recurrence.rrule && rdate.values.length === 0 && !errors.rdate) errors.rrule = ["can't be blank: give rrule or rdate"];
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const startWall = wallOf(first.from, timeZone);
  const length = startWall.until(wallOf(first.to, timeZone), { largestUnit: "days" });
  const excludedDays = new Set(exdate.values.filter((v) => v.time === null).map((v) => v.date.toString()));
  const excludedTimes = new Set(exdate.values.filter((v) => v.time !== null).map((v) => v.date.toPlainDateTime(v.time!).toString()));
  const walls = new Map<string, Temporal.PlainDateTime>();
  let tooMany = false;
  const add = (wall: Temporal.PlainDateTime) => {
    const key = wall.toString();
    if (excludedDays.has(wall.toPlainDate().toString()) || excludedTimes.has(key) || walls.has(key)) return;
    walls.set(key, wall);
    if (walls.size > limit) tooMany = true;
  };

  add(startWall);
  for (const { date, time } of rdate.values) add(date.toPlainDateTime(time ?? startWall.toPlainTime()));
  if (rule.options && !tooMany) {
    const horizon = toFloating(startWall.add({ years: HORIZON_YEARS }));
    const until = rule.options.until && rule.options.until < horizon ? rule.options.until : horizon;
    new RRule({ ...rule.options, dtstart: toFloating(startWall), until }).all((date) => {
      add(fromFloating(date));
      return !tooMany;
    });
  }
  if (tooMany) return { ok: false, errors: { collection_id: [`has more than ${limit} occurrences: narrow the rule with COUNT or UNTIL`] } };

  const byStart = new Map<number, Occurrence>();
  for (const wall of walls.values()) {
    const from = instantOf(wall, timeZone);
    const to = instantOf(wall.add(length), timeZone);
    // A wall-clock end that DST pulls back to the start (or before) keeps the first item's elapsed length.
    byStart.set(from, { from, to: to > from ? to : from + (first.to - first.from) });
  }
  return { ok: true, occurrences: [...byStart.values()].sort((a, b) => a.from - b.from) };
}
