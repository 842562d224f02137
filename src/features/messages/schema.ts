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

export type ListMessagesQuery = z.output<typeof listMessagesQuery>;
