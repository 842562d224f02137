// /bookings/recurring and /events/recurring on the private API: create a collection, read its
// occurrences and progress, delete a booking collection.
import { nationalIdKeys } from "../../config";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { BOOKINGS_PAGE_SIZE, pageRequest, setPageHeaders, type PageRequest } from "../../http/pagination";
import { body, query } from "../../http/validate";
import { actionBody } from "../bookings/schema";
import { toBookingJson } from "../bookings/serializer";
import { toEventJson } from "../events/serializer";
import { deps } from "../deps";
import { collectionQuery, recurringBookingBody, recurringEventBody } from "./schema";
import { toCollectionJson } from "./serializer";
import { collectionBookings, collectionEvents, collectionStatus, deleteRecurringBookings, startRecurringBookings, startRecurringEvents } from "./service";

type C = Context<AppEnv>;

async function bookingPage(c: C, id: string, request: PageRequest, extended: boolean) {
  const { rows, total, related } = await collectionBookings(deps(c), id, request);
  setPageHeaders(c, request, total, rows.length);
  const view = { timeZone: c.var.account.time_zone, now: c.var.now, extended, keys: nationalIdKeys(c.env) };
  return c.json(
    wrapList(
      "booking",
      rows.map((b) => toBookingJson(b, related, view)),
    ),
  );
}

export const recurringBookingRoutes = new Hono<AppEnv>();

recurringBookingRoutes.post("/", body(recurringBookingBody, { root: "booking" }), async (c) =>
  c.json({ collection_id: await startRecurringBookings(deps(c), c.req.valid("json")) }),
);

recurringBookingRoutes.get("/:collection_id", query(collectionQuery), (c) => {
  const q = c.req.valid("query");
  return bookingPage(c, c.req.param("collection_id"), pageRequest(q.page, BOOKINGS_PAGE_SIZE), q.extended ?? false);
});

recurringBookingRoutes.get("/:collection_id/status", async (c) =>
  c.json(wrap("recurring_collection", toCollectionJson(await collectionStatus(deps(c), c.req.param("collection_id"), "booking"), c.var.account.time_zone))),
);

recurringBookingRoutes.delete("/:collection_id", query(collectionQuery), body(actionBody), async (c) => {
  const { extended, ...flags } = c.req.valid("json");
  const q = c.req.valid("query");
  await deleteRecurringBookings(deps(c), c.req.param("collection_id"), flags);
  return bookingPage(c, c.req.param("collection_id"), pageRequest(q.page, BOOKINGS_PAGE_SIZE), extended ?? q.extended ?? false);
});

export const recurringEventRoutes = new Hono<AppEnv>();

recurringEventRoutes.post("/", body(recurringEventBody, { root: "event" }), async (c) =>
  c.json({ collection_id: await startRecurringEvents(deps(c), c.req.valid("json")) }),
);

recurringEventRoutes.get("/:collection_id", query(collectionQuery), async (c) => {
  const request = pageRequest(c.req.valid("query").page);
  const { rows, total, booked } = await collectionEvents(deps(c), c.req.param("collection_id"), request);
  setPageHeaders(c, request, total, rows.length);
  return c.json(
    wrapList(
      "event",
      rows.map((e) => toEventJson(e, booked.get(e.id) ?? 0, c.var.account.time_zone)),
    ),
  );
});

recurringEventRoutes.get("/:collection_id/status", async (c) =>
  c.json(wrap("recurring_collection", toCollectionJson(await collectionStatus(deps(c), c.req.param("collection_id"), "event"), c.var.account.time_zone))),
);
