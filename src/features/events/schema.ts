// Event input (POST/PUT /events) and the events list query.
import * as z from "zod";
import { syncCursor } from "../../db/sync-order";
import { boolean, customData, dateTime, idOrIds, idParam, integer, LONG_TEXT, optionalText, page } from "../../http/fields";

const MAX_EVENT_CAPACITY = 100_000;

const attributes = {
  resource_id: idParam,
  service_id: idParam,
  published: boolean().optional(),
  capacity: integer({ min: 1, max: MAX_EVENT_CAPACITY }),
  starts_at: dateTime(),
  ends_at: dateTime(),
  title: optionalText(),
  description: optionalText(LONG_TEXT),
  custom_data: customData(),
};

const eventInput = z.object(attributes);
export const createEventBody = z.object({ event: eventInput });
export const updateEventBody = z.object({ event: eventInput.partial() });

export type EventInput = z.output<typeof eventInput>;
export type EventUpdate = Partial<EventInput>;

export const eventsQuery = z.object({
  service_id: idOrIds().optional(),
  resource_id: idOrIds().optional(),
  start: dateTime().optional(),
  end: dateTime().optional(),
  since: dateTime().optional(),
  order: z.enum(["starts_at_asc", "starts_at_desc"]).optional(),
  page: page(),
  cursor: syncCursor().optional(),
});

export type EventsQuery = z.output<typeof eventsQuery>;
