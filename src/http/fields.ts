// Zod building blocks for the wire formats: form values arrive as strings, JSON values
// as their own types, and both must validate the same way with Rails-style messages.
import * as z from "zod";
import { isIsoDate, isTimeZone } from "../domain/time";

z.config({
  customError: (issue) => {
    if (issue.input === undefined) return "can't be blank";
    if (issue.code === "invalid_type") return `is invalid: expected ${issue.expected}`;
    if (issue.code === "too_big" && issue.origin === "string") return `is too long (maximum is ${issue.maximum} characters)`;
    if (issue.code === "too_small" && issue.origin === "string") return "can't be blank";
    if (issue.code === "invalid_value") return `is not included in the list (${issue.values.join(", ")})`;
    // A nullable field's branch that recognised the value and rejected it knows why; "Invalid input" does not.
    if (issue.code === "invalid_union") return issue.errors.flat().find((i) => i.code === "custom")?.message;
    return undefined;
  },
});

const fail = (ctx: z.RefinementCtx, message: string) => {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
};

const SHORT_TEXT = 255;
export const LONG_TEXT = 20_000;

/** Text; numbers are accepted as their string form because form posts cannot tell them apart. */
export const text = (max = SHORT_TEXT) =>
  z.union([z.string(), z.number()]).transform((value, ctx) => {
    const s = String(value);
    if (s.length > max) return fail(ctx, `is too long (maximum is ${max} characters)`);
    return s;
  });

/** Text that must be present and non-blank. */
export const requiredText = (max = SHORT_TEXT) => text(max).refine((s) => s.trim().length > 0, "can't be blank");

/** Optional, clearable text: "" and null both clear the attribute. */
export const optionalText = (max = SHORT_TEXT) =>
  z
    .union([text(max), z.null()])
    .transform((s) => (s === null || s === "" ? null : s))
    .optional();

export const integer = (opts: { min?: number; max?: number } = {}) =>
  z.union([z.number(), z.string()]).transform((value, ctx) => {
    const n = typeof value === "number" ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n)) return fail(ctx, "is not an integer");
    if (opts.min !== undefined && n < opts.min) return fail(ctx, `must be greater than or equal to ${opts.min}`);
    if (opts.max !== undefined && n > opts.max) return fail(ctx, `must be less than or equal to ${opts.max}`);
    return n;
  });

export const nullableInteger = (opts: { min?: number; max?: number } = {}) =>
  z
    .union([integer(opts), z.null(), z.literal("")])
    .transform((v) => (v === "" ? null : v))
    .optional();

const TRUE_WORDS = new Set(["true", "1", "t", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "0", "f", "no", "off"]);

/** Booleans as JSON booleans, or the words a form sends; `false` is honoured (spec 2020-03-13). */
export const boolean = () =>
  z.union([z.boolean(), z.string(), z.number()]).transform((value, ctx) => {
    if (typeof value === "boolean") return value;
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    return fail(ctx, "must be true or false");
  });

/** A datetime as text; converted to an instant in the account zone by the service. */
export const dateTime = () =>
  z
    .string()
    .refine((s) => DATE_TIME_SHAPE.test(s.trim()) && isPlausibleDateTime(s), {
      message: "is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601",
    })
    .meta({ description: "`YYYY-MM-DD hh:mm` in the account's zone, or ISO 8601 with an offset.", examples: ["2030-01-07 10:00"] });

const DATE_TIME_SHAPE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function isPlausibleDateTime(s: string): boolean {
  const trimmed = s.trim();
  if (!isIsoDate(trimmed.slice(0, 10))) return false;
  const time = /[T ](\d{2}):(\d{2})(?::(\d{2}))?/i.exec(trimmed);
  if (!time) return true;
  return Number(time[1]) < 24 && Number(time[2]) < 60 && Number(time[3] ?? 0) < 60;
}

export const nullableDateTime = () =>
  z
    .union([dateTime(), z.null(), z.literal("")])
    .transform((v) => (v === "" ? null : v))
    .optional();

export const date = () => z.string().refine(isIsoDate, { message: "is not a valid date: use YYYY-MM-DD" }).meta({ format: "date" });

export const nullableDate = () =>
  z
    .union([date(), z.null(), z.literal("")])
    .transform((v) => (v === "" ? null : v))
    .optional();

export const timeZone = () => z.string().refine(isTimeZone, { message: "is not a known IANA time zone" });

/** A numeric id in a path or body. */
export const idParam = integer({ min: 1 });

/** One id or several (`service_id=1` or `service_id[]=1&service_id[]=2`). */
export const idOrIds = () => z.union([idParam, z.array(idParam).max(1000)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** Ids list for writes such as `service_id_list`; a form's empty value clears it. */
export const idList = () => z.union([z.array(idParam).max(1000), z.literal(""), z.null()]).transform((v) => (Array.isArray(v) ? v : []));

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/**
 * A wall-clock time read leniently and written strictly: clients of the original service send
 * `"9:00"`, which is `"09:00"` (stored and answered padded); `"9"`, `"25:00"`, `"09:60"` are null.
 */
export function wallClockTime(text: string): string | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const padded = `${match[1].padStart(2, "0")}:${match[2]}`;
  return HH_MM.test(padded) ? padded : null;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

/**
 * Opening hours: pairs of `hh:mm` (open, close), several pairs for breaks, in order and not
 * overlapping; `null` (or a form's empty value) means closed.
 */
export const openingHours = () =>
  z.union([z.array(z.string()).max(48), z.null(), z.literal("")]).transform((value, ctx) => {
    if (value === null || value === "") return null;
    if (value.length === 0 || value.length % 2 !== 0) return fail(ctx, "must be pairs of opening and closing times");
    const times = value.map(wallClockTime);
    if (!times.every((t) => t !== null)) return fail(ctx, "must be times written hh:mm");
    const minutes = times.map(minutesOf);
    for (let i = 0; i < minutes.length; i += 2) {
      if (minutes[i] >= minutes[i + 1]) return fail(ctx, "must close after it opens");
      if (i > 0 && minutes[i] < minutes[i - 1]) return fail(ctx, "must be in order without overlaps");
    }
    return times;
  });

const MAX_CUSTOM_DATA_KEYS = 100;

/**
 * custom_data: a flat key/value object; every value is stored as a string (spec: Custom data).
 * An update replaces the whole set; null or "" clears it.
 */
export const customData = () =>
  z
    .union([z.record(z.string(), z.unknown()), z.null(), z.literal("")])
    .transform((value, ctx) => {
      if (value === null || value === "") return null;
      const entries = Object.entries(value);
      if (entries.length > MAX_CUSTOM_DATA_KEYS) return fail(ctx, `has more than ${MAX_CUSTOM_DATA_KEYS} keys`);
      const stored: Record<string, string> = {};
      for (const [key, raw] of entries) {
        if (key.length > 100) return fail(ctx, "has a key longer than 100 characters");
        if (raw !== null && typeof raw === "object") return fail(ctx, `value of ${key} must be text, a number or a boolean`);
        const s = raw === null || raw === undefined ? "" : String(raw);
        if (s.length > LONG_TEXT) return fail(ctx, `value of ${key} is too long`);
        stored[key] = s;
      }
      return stored;
    })
    .optional();

export const page = () => integer({ min: 1, max: 1_000_000 }).optional();
