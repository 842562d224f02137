// POST /slots/holds input: the time (a service's, on a resource when named) or the event, and seats.
import * as z from "zod";
import { dateTime, integer, nullableInteger } from "../../http/fields";

/** One time of a service, or an event, and seats: what a hold and a waitlist entry are of (placeSlot's input). */
export const slotTimeFields = {
  service_id: nullableInteger({ min: 1 }),
  event_id: nullableInteger({ min: 1 }),
  resource_id: nullableInteger({ min: 1 }),
  booked_from: dateTime().optional(),
  booked_to: dateTime().optional(),
  count: integer({ min: 1, max: 100_000 }).optional(),
};

export const createHoldBody = z.object({ slot_hold: z.object(slotTimeFields) });

export type CreateHoldBody = z.output<typeof createHoldBody>;
