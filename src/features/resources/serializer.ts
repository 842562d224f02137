// Resource, exception date and per-date opening hours output.
import type { OpeningHours, Resource, ResourceExceptionDate } from "../../db/schema";
import { weeklyHoursOf } from "../../domain/opening-hours";
import { customDataOut } from "../../http/custom-data";
import { timestampsOut } from "../../http/serialize";
import { legacyHoursOut } from "./legacy-hours";

export function toResourceJson(resource: Resource, timeZone: string) {
  const { account_id: _account, custom_data, created_at: _c, updated_at: _u, ...rest } = resource;
  return {
    ...rest,
    ...legacyHoursOut(weeklyHoursOf(resource)),
    custom_data: customDataOut(custom_data, timeZone),
    ...timestampsOut(resource, timeZone),
  };
}

export function toExceptionDateJson(row: ResourceExceptionDate, timeZone: string) {
  return {
    resource_id: row.resource_id,
    exception_date: row.exception_date,
    opening_hours: row.opening_hours ?? null,
    ...timestampsOut(row, timeZone),
  };
}

export const toOpeningHoursJson = (day: { date: string; opening_hours: OpeningHours }) => ({
  date: day.date,
  opening_hours: day.opening_hours,
});
