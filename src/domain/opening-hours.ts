// Which hours a resource keeps on a date: an exception date first, then the weekday's hours.
import { Temporal } from "@js-temporal/polyfill";

/** Weekday keys in ISO order: index 0 is Monday (Temporal dayOfWeek 1). */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** One day's opening hours as stored (resources' opening_hours_* columns): "hh:mm" pairs; null = closed. */
export type OpeningHours = string[] | null;
export type WeeklyHours = Record<Weekday, OpeningHours>;

export function weeklyHoursOf(resource: { [K in `opening_hours_${Weekday}`]: OpeningHours }): WeeklyHours {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, resource[`opening_hours_${day}`] ?? null])) as WeeklyHours;
}

export const weekdayOf = (date: string): Weekday => WEEKDAYS[Temporal.PlainDate.from(date).dayOfWeek - 1];

/**
 * Hours on `date`. `exception` is the exception date's hours when one exists for the date
 * (null = closed that day), or undefined when there is none and the weekday's hours apply.
 */
export function hoursOn(date: string, weekly: WeeklyHours, exception?: OpeningHours): OpeningHours {
  return exception !== undefined ? exception : weekly[weekdayOf(date)];
}
