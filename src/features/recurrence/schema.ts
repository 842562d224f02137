// Recurring create bodies (POST /bookings/recurring, POST /events/recurring), the recurrence
// parameters, the collection reads' query and the queue message.
import * as z from "zod";
import { DIRECTORY_SHARD } from "../../db/shards";
import { boolean, LONG_TEXT, optionalText, page } from "../../http/fields";
import { createBookingBody } from "../bookings/schema";
import { createEventBody } from "../events/schema";

/**
 * The recurrence object is checked after the first item (spec: only the first booking is
 * validated first), so the body only requires it to be there.
 */
const recurrenceObject = z.record(z.string(), z.unknown());

// A hold is of one time: a recurring create takes none (docs/decisions/holds.md).
export const recurringBookingBody = createBookingBody.omit({ hold_secret: true }).extend({ recurring: recurrenceObject });

// spec: events take the recurrence under `recurrence`, bookings under `recurring`.
export const recurringEventBody = createEventBody.extend({ recurrence: recurrenceObject });

export const recurrenceParameters = z.object({
  rrule: optionalText(1000),
  rdate: optionalText(LONG_TEXT),
  exdate: optionalText(LONG_TEXT),
});

export const collectionQuery = z.object({ page: page(), extended: boolean().optional() });

export const recurrenceMessage = z.object({
  collection_id: z.string().min(1),
  account_id: z.number().int().min(1),
  /** The account's shard (db/shards.ts); absent in messages queued before shards, meaning DB. */
  shard: z.string().default(DIRECTORY_SHARD),
  /** Index of the first occurrence this message creates; each message creates one chunk. */
  from: z.number().int().min(0),
});

export type RecurringBookingBody = z.output<typeof recurringBookingBody>;
export type RecurringEventBody = z.output<typeof recurringEventBody>;
export type RecurrenceMessage = z.output<typeof recurrenceMessage>;
export type CollectionKind = "booking" | "event";
