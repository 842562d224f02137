// Resource input: POST/PUT /resources, weekday hours and the deprecated open_N/close_N pairs.
import * as z from "zod";
import { WEEKDAYS, type Weekday } from "../../domain/opening-hours";
import { customData, date, integer, LONG_TEXT, openingHours, optionalText, requiredText, wallClockTime } from "../../http/fields";
import { legacyHoursIn } from "./legacy-hours";

/** A deprecated open_N / close_N value: `hh:mm`, or null / "" for a closed day. */
const legacyTime = () =>
  z
    .union([z.string(), z.null()])
    .transform((value, ctx) => {
      if (value === null || value.trim() === "") return null;
      const time = wallClockTime(value);
      if (time === null) {
        ctx.addIssue({ code: "custom", message: "must be a time written hh:mm" });
        return z.NEVER;
      }
      return time;
    })
    .optional();

const weekdayHours = Object.fromEntries(WEEKDAYS.map((day) => [`opening_hours_${day}`, openingHours().optional()])) as {
  [D in Weekday as `opening_hours_${D}`]: z.ZodOptional<ReturnType<typeof openingHours>>;
};

const legacyPairs = Object.fromEntries(
  WEEKDAYS.flatMap((_, n) => [
    [`open_${n}`, legacyTime()],
    [`close_${n}`, legacyTime()],
  ]),
) as Record<`open_${number}` | `close_${number}`, ReturnType<typeof legacyTime>>;

const attributes = {
  title: requiredText(),
  description: optionalText(LONG_TEXT),
  capacity: integer({ min: 1, max: 100_000 }).optional(),
  ...weekdayHours,
  custom_data: customData(),
};

export type ResourceInput = z.output<z.ZodObject<typeof attributes>>;
export type ResourceUpdate = Partial<ResourceInput>;

/**
 * The attributes with the open_N/close_N pairs folded into opening_hours_<day>. The pair check
 * runs even when other fields failed, so one 400 names every fault.
 */
function withLegacyPairs<S extends z.ZodObject>(shape: S) {
  const explicitDays = (value: Record<string, unknown>) => new Set(WEEKDAYS.filter((day) => value[`opening_hours_${day}`] !== undefined));
  return shape
    .extend(legacyPairs)
    .superRefine(
      (value, ctx) => {
        for (const { attribute, message } of legacyHoursIn(value, explicitDays(value)).errors) {
          ctx.addIssue({ code: "custom", path: [attribute], message });
        }
      },
      { when: ({ value }) => typeof value === "object" && value !== null && !Array.isArray(value) },
    )
    .transform((value) => {
      const { hours } = legacyHoursIn(value, explicitDays(value));
      const kept = Object.fromEntries(Object.entries(value).filter(([key]) => !/^(open|close)_\d$/.test(key)));
      const folded = Object.fromEntries(Object.entries(hours).map(([day, h]) => [`opening_hours_${day}`, h]));
      return { ...kept, ...folded };
    });
}

export const createResourceBody = z.object({
  resource: withLegacyPairs(z.object(attributes)).transform((v) => v as ResourceInput),
});
export const updateResourceBody = z.object({
  resource: withLegacyPairs(z.object(attributes).partial()).transform((v) => v as ResourceUpdate),
});

export const dateRangeQuery = z.object({ from: date().optional(), to: date().optional() });
