// The deprecated open_N / close_N attributes (Monday = 0 … Sunday = 6) read from and written to
// weekday opening hours (spec: Resource, "opening and closing times without breaks").
import type { OpeningHours } from "../../db/schema";
import { WEEKDAYS, type Weekday, type WeeklyHours } from "../../domain/opening-hours";

const LEGACY_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

type LegacyHoursJson = Record<`open_${number}` | `close_${number}`, string | null>;

/** First opening and last closing of each weekday; a break in between is not visible here. */
export function legacyHoursOut(weekly: WeeklyHours): LegacyHoursJson {
  const out: LegacyHoursJson = {};
  WEEKDAYS.forEach((day, n) => {
    const hours = weekly[day];
    out[`open_${n}`] = hours && hours.length > 0 ? hours[0] : null;
    out[`close_${n}`] = hours && hours.length > 0 ? hours[hours.length - 1] : null;
  });
  return out;
}

interface LegacyHoursInput {
  /** Weekdays whose hours the pairs set: `[open, close]`, or null when both were sent empty. */
  hours: Partial<Record<Weekday, OpeningHours>>;
  errors: { attribute: string; message: string }[];
}

/**
 * Reads open_N / close_N from already field-validated input (undefined = not sent, null = sent
 * empty, a `hh:mm` string, anything else = already reported invalid). Weekdays in `explicit`
 * were sent as opening_hours_<day>, which wins, so their pairs are ignored altogether.
 */
export function legacyHoursIn(input: Record<string, unknown>, explicit: ReadonlySet<Weekday>): LegacyHoursInput {
  const result: LegacyHoursInput = { hours: {}, errors: [] };
  WEEKDAYS.forEach((day, n) => {
    if (explicit.has(day)) return;
    const openKey = `open_${n}`;
    const closeKey = `close_${n}`;
    const open = input[openKey];
    const close = input[closeKey];
    if (open === undefined && close === undefined) return;
    const together = `can't be blank: send ${openKey} and ${closeKey} together`;
    if (open === undefined || close === undefined) {
      result.errors.push({ attribute: open === undefined ? openKey : closeKey, message: together });
      return;
    }
    if (open === null && close === null) {
      result.hours[day] = null;
      return;
    }
    if (open === null || close === null) {
      result.errors.push({ attribute: open === null ? openKey : closeKey, message: together });
      return;
    }
    if (typeof open !== "string" || typeof close !== "string" || !LEGACY_TIME.test(open) || !LEGACY_TIME.test(close)) return;
    if (close <= open) {
      result.errors.push({ attribute: closeKey, message: `must be after open_${n}` });
      return;
    }
    result.hours[day] = [open, close];
  });
  return result;
}
