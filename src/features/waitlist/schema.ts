// POST /waitlist input: the full time (a service's, on a resource when named) or the full event,
// seats, and who waits (person_attributes as a booking takes them).
import * as z from "zod";
import { nullableInteger } from "../../http/fields";
import { slotTimeFields } from "../holds/schema";

export const joinWaitlistBody = z.object({
  waitlist_entry: z.object({ ...slotTimeFields, person_attributes: z.record(z.string(), z.unknown()) }),
});

export const waitlistQuery = z.object({ service_id: nullableInteger({ min: 1 }), event_id: nullableInteger({ min: 1 }) });

export type JoinWaitlistBody = z.output<typeof joinWaitlistBody>;
