// GET /messages query: filters on booking, channel and kind, and the page.
import * as z from "zod";
import { idParam, page } from "../../http/fields";
import { CHANNELS, MESSAGE_KINDS } from "./kinds";

export const listMessagesQuery = z.object({
  booking_id: idParam.optional(),
  channel: z.enum(CHANNELS).optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  page: page(),
});

export const listUndeliverableQuery = z.object({ page: page() });

/** A refused recipient as the path names it: the channel, and the address or E.164 number as stored. */
export const undeliverableParams = z.object({ channel: z.enum(CHANNELS), recipient: z.string().min(1).max(320) });

export type ListMessagesQuery = z.output<typeof listMessagesQuery>;
