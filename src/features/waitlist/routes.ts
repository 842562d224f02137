// POST /waitlist, GET and DELETE /waitlist/{id}, POST /waitlist/{id}/accept on the booking site
// (a visitor, by the token the join answered: `X-Waitlist-Token`); on the private API the same
// without accept, plus the line (GET /waitlist?service_id= or ?event_id=).
import { nationalIdKeys } from "../../config";
import { Hono, type Context } from "hono";
import type { WaitlistEntry } from "../../db/schema";
import type { AppEnv } from "../../env";
import { wrap } from "../../http/envelope";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import { toPublicBookingJson } from "../bookings/serializer";
import { loadRelated } from "../bookings/service";
import { joinWaitlistBody, waitlistQuery } from "./schema";
import { toWaitlistJson } from "./serializer";
import { acceptOffer, entryFor, joinWaitlist, leaveWaitlist, lineOf, type Asker } from "./service";

type C = Context<AppEnv>;
const TOKEN_HEADER = "x-waitlist-token";

const answer = (c: C, entry: WaitlistEntry, extra: Record<string, unknown> = {}) =>
  c.json({ ...wrap("waitlist_entry", toWaitlistJson(entry, c.var.account.time_zone)), ...extra });

function waitlistRoutes(askerOf: (c: C) => Asker) {
  const routes = new Hono<AppEnv>();
  routes.post("/", body(joinWaitlistBody, { root: "waitlist_entry" }), async (c) => {
    const { entry, token } = await joinWaitlist(deps(c), c.req.valid("json"), askerOf(c));
    return answer(c, entry, { waitlist_token: token });
  });
  routes.get("/:id", params("id"), async (c) => answer(c, await entryFor(deps(c), c.req.valid("param").id, askerOf(c))));
  routes.delete("/:id", params("id"), async (c) => answer(c, await leaveWaitlist(deps(c), c.req.valid("param").id, askerOf(c))));
  return routes;
}

export const privateWaitlistRoutes = waitlistRoutes(() => ({ kind: "key" }));
privateWaitlistRoutes.get("/", query(waitlistQuery), async (c) => {
  const { service_id, event_id } = c.req.valid("query");
  const line = await lineOf(deps(c), { service_id: service_id ?? undefined, event_id: event_id ?? undefined });
  return c.json(line.map((entry) => wrap("waitlist_entry", toWaitlistJson(entry, c.var.account.time_zone))));
});

export const publicWaitlistRoutes = waitlistRoutes((c) => ({ kind: "visitor", token: c.req.header(TOKEN_HEADER) }));
publicWaitlistRoutes.post("/:id/accept", params("id"), async (c) => {
  const { entry, booking, bookingToken } = await acceptOffer(deps(c), c.req.valid("param").id, c.req.header(TOKEN_HEADER), new URL(c.req.url).origin);
  const related = await loadRelated(deps(c), [booking]);
  return c.json({
    ...wrap("waitlist_entry", toWaitlistJson(entry, c.var.account.time_zone)),
    ...wrap("booking", toPublicBookingJson(booking, related, { timeZone: c.var.account.time_zone, now: c.var.now, extended: false, keys: nationalIdKeys(c.env) })),
    booking_token: bookingToken,
  });
});
