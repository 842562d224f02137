// Exception date input: one date by path, several in the multiple-entry body, and list filters.
import * as z from "zod";
import { boolean, date, openingHours, page } from "../../http/fields";

/** The most entries one multiple-entry request may carry: a year of dates. */
const MAX_ENTRIES = 366;

export const exceptionDateBody = z.object({
  resource_exception_date: z.object({ opening_hours: openingHours().optional() }),
});

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The original Node SDK sends one exception date as `{"resource": {"exception_date": {...}}}`;
 * it is the same input as `{"resource_exception_date": {...}}` (docs/decisions/compat.md).
 */
export function liftSdkExceptionDate(raw: unknown): unknown {
  if (!isRecord(raw) || "resource_exception_date" in raw || !isRecord(raw.resource)) return raw;
  const inner = raw.resource.exception_date;
  return isRecord(inner) ? { resource_exception_date: inner } : raw;
}

const entry = z.object({
  exception_date: date(),
  opening_hours: openingHours().optional(),
  _destroy: boolean().optional(),
});

export const exceptionDatesBody = z.object({
  resource_exception_dates: z
    .array(entry)
    .max(MAX_ENTRIES, `has more than ${MAX_ENTRIES} entries: send them in several requests`)
    .superRefine(
      (entries, ctx) => {
        const seen = new Set<unknown>();
        entries.forEach((entry, i) => {
          const date = typeof entry === "object" && entry !== null ? entry.exception_date : undefined;
          if (typeof date !== "string") return;
          if (seen.has(date)) ctx.addIssue({ code: "custom", path: [i, "exception_date"], message: "is given more than once" });
          seen.add(date);
        });
      },
      // Runs beside other entries' faults too, so one 400 names every entry to fix.
      { when: ({ value }) => Array.isArray(value) },
    ),
});

export type ExceptionDateEntry = z.output<typeof entry>;

export const exceptionDatesQuery = z.object({ from: date().optional(), to: date().optional(), page: page() });
