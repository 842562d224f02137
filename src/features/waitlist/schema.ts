// POST /waitlist input: the full time (a service's, on a resource when named) or the full event,
// seats, and who waits (person_attributes as a booking takes them).
import { z } from "zod";
import { dateTime, integer, nullableInteger } from "../../http/fields";

export const joinWaitlistBody = z.object({
  waitlist_entry: z.object({
    service_id: nullableInteger({ min: 1 }),
    event_id: nullableInteger({ min: 1 }),
    resource_id: nullableInteger({ min: 1 }),
    booked_from: dateTime().optional(),
    booked_to: dateTime().optional(),
    count: integer({ min: 1, max: 100_000 }).optional(),
    person_attributes: z.record(z.string(), z.unknown()),
  }),
});

export const waitlistQuery = z.object({ service_id: nullableInteger({ min: 1 }), event_id: nullableInteger({ min: 1 }) });

export type JoinWaitlistBody = z.output<typeof joinWaitlistBody>;
