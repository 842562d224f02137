// GET /services/{id}/slots, /next_available_date and /available_dates, on the private API and
// on the booking site (active services only there). Their D1 round trips show in Server-Timing
// (http/server-timing.ts); the budget is in docs/decisions/latency.md.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../env";
import { wrap } from "../../http/envelope";
import { conditionalGet } from "../../http/conditional-get";
import { params, query } from "../../http/validate";
import { deps } from "../deps";
import { slotsQuery } from "./schema";
import { availableDatesOf, nextAvailableDateOf, slotAnswerOf, type SlotReadOptions } from "./service";
import { BOOKMARK_HEADER } from "../../http/server-timing";
import type { Slot } from "../../domain/slots";
import { toSlotJson } from "./serializer";

const writeSlotText = (slot: Slot) => JSON.stringify(wrap("slot", toSlotJson(slot)));

/**
 * Each slot's JSON, kept per slot object once its answer is read again: a cached answer hands out
 * the same objects (answer-cache.ts), so a repeated read only joins texts instead of serialising a
 * thousand slots. A miss's texts are not kept: many answers are never read again, and the texts
 * of the ones an isolate keeps were much of a miss's garbage collection (latency.md, "What a miss
 * leaves for the garbage collector").
 */
const texts = new WeakMap<Slot, string>();
function keptSlotText(slot: Slot): string {
  let text = texts.get(slot);
  if (text === undefined) texts.set(slot, (text = writeSlotText(slot)));
  return text;
}

function slotRoutes(publicOnly: boolean) {
  // A client that sends a bookmark wants at least what it wrote: the cached version is checked.
  const readOptions = (c: Context<AppEnv>): SlotReadOptions => ({ publicOnly, exact: c.req.header(BOOKMARK_HEADER) !== undefined });
  const routes = new Hono<AppEnv>();
  if (publicOnly) routes.use("/:id/*", conditionalGet);
  routes.get("/:id/slots", params("id"), query(slotsQuery), async (c) => {
    const { slots, cached } = await slotAnswerOf(deps(c), c.req.valid("param").id, c.req.valid("query"), readOptions(c));
    return c.body(`[${slots.map(cached ? keptSlotText : writeSlotText).join(",")}]`, 200, { "content-type": "application/json" });
  });
  routes.get("/:id/next_available_date", params("id"), query(slotsQuery), async (c) => {
    const date = await nextAvailableDateOf(deps(c), c.req.valid("param").id, c.req.valid("query"), readOptions(c));
    // A list of the spec's element shape: the original service's clients decode an array.
    return c.json(date ? [{ available_date: date }] : []);
  });
  routes.get("/:id/available_dates", params("id"), query(slotsQuery), async (c) => {
    const dates = await availableDatesOf(deps(c), c.req.valid("param").id, c.req.valid("query"), readOptions(c));
    return c.json(dates.map((date) => ({ available_date: { date } })));
  });
  return routes;
}

export const privateSlotRoutes = slotRoutes(false);
export const publicSlotRoutes = slotRoutes(true);
