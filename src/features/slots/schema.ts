// Query parameters of the slot endpoints: a date range and an optional resource selection.
import * as z from "zod";
import { date, idOrIds } from "../../http/fields";

export const MAX_RANGE_DAYS = 92;
export const NEXT_AVAILABLE_WINDOW_DAYS = 30; // spec: Limits

export const slotsQuery = z.object({
  from: date().optional(),
  to: date().optional(),
  selected_resources: idOrIds().optional(),
});

export type SlotsQuery = z.output<typeof slotsQuery>;
