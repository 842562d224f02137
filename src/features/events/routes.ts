// /events on the private API; an event's bookings (/events/{id}/bookings) are the bookings feature's.
import { Hono, type Context } from "hono";
import type { Event } from "../../db/schema";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { pageRequest, setPageHeaders } from "../../http/pagination";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import { createEventBody, eventsQuery, updateEventBody } from "./schema";
import { toEventJson } from "./serializer";
import { createEvent, deleteEvent, getEventWithBooked, listEvents, updateEvent } from "./service";

export const eventRoutes = new Hono<AppEnv>();

const one = (c: Context<AppEnv>, { event, booked }: { event: Event; booked: number }) => c.json(wrap("event", toEventJson(event, booked, c.var.account.time_zone)));

eventRoutes.get("/", query(eventsQuery), async (c) => {
  const q = c.req.valid("query");
  const request = pageRequest(q.page, undefined, q.cursor);
  const { rows, total, booked, nextCursor } = await listEvents(deps(c), q, request);
  setPageHeaders(c, request, total, rows.length, nextCursor);
  return c.json(
    wrapList(
      "event",
      rows.map((e) => toEventJson(e, booked.get(e.id) ?? 0, c.var.account.time_zone)),
    ),
  );
});

eventRoutes.get("/:id", params("id"), async (c) => one(c, await getEventWithBooked(deps(c), c.req.valid("param").id)));

eventRoutes.post("/", body(createEventBody, { root: "event" }), async (c) => one(c, await createEvent(deps(c), c.req.valid("json").event)));

eventRoutes.put("/:id", params("id"), body(updateEventBody, { root: "event" }), async (c) =>
  one(c, await updateEvent(deps(c), c.req.valid("param").id, c.req.valid("json").event)),
);

eventRoutes.delete("/:id", params("id"), async (c) => one(c, await deleteEvent(deps(c), c.req.valid("param").id)));
