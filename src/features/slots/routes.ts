// GET /services/{id}/slots, /next_available_date and /available_dates, on the private API and
// on the booking site (active services only there). Each answers its D1 statement count in
// Server-Timing: the budget is four, whatever the range.
import { Hono, type Context } from "hono";
import { countingD1 } from "../../db/query-counter";
import { openDb } from "../../db/client";
import type { AppEnv, Deps } from "../../env";
import { wrapList } from "../../http/envelope";
import { conditionalGet } from "../../http/conditional-get";
import { params, query } from "../../http/validate";
import { deps } from "../deps";
import { slotsQuery } from "./schema";
import { availableDatesOf, nextAvailableDateOf, slotsOf } from "./service";
import type { Slot } from "../../domain/slots";

const toSlotJson = (s: Slot) => ({
  timestamp: s.timestamp,
  timestamp_end: s.timestamp_end,
  formatted_timestamp: s.formatted_timestamp,
  formatted_timestamp_end: s.formatted_timestamp_end,
  free: s.free,
  available_resources: s.available_resources,
  maximum_capacity: s.maximum_capacity,
});

/** Deps whose D1 counts statements; the count goes out in Server-Timing after the work. */
async function counted<T>(c: Context<AppEnv>, work: (d: Deps) => Promise<T>): Promise<T> {
  const counter = countingD1(c.env.DB);
  const result = await work({ ...deps(c), db: openDb(counter.d1) });
  c.header("Server-Timing", `d1;desc="${counter.statements()} statements"`);
  return result;
}

function slotRoutes(publicOnly: boolean) {
  const routes = new Hono<AppEnv>();
  if (publicOnly) routes.use("/:id/*", conditionalGet);
  routes.get("/:id/slots", params("id"), query(slotsQuery), async (c) => {
    const slots = await counted(c, (d) => slotsOf(d, c.req.valid("param").id, c.req.valid("query"), publicOnly));
    return c.json(wrapList("slot", slots.map(toSlotJson)));
  });
  routes.get("/:id/next_available_date", params("id"), query(slotsQuery), async (c) => {
    const date = await counted(c, (d) => nextAvailableDateOf(d, c.req.valid("param").id, c.req.valid("query"), publicOnly));
    // A list of the spec's element shape: the original service's clients decode an array.
    return c.json(date ? [{ available_date: date }] : []);
  });
  routes.get("/:id/available_dates", params("id"), query(slotsQuery), async (c) => {
    const dates = await counted(c, (d) => availableDatesOf(d, c.req.valid("param").id, c.req.valid("query"), publicOnly));
    return c.json(dates.map((date) => ({ available_date: { date } })));
  });
  return routes;
}

export const privateSlotRoutes = slotRoutes(false);
export const publicSlotRoutes = slotRoutes(true);
