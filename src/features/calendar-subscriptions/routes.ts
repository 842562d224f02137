// The private API's /calendar_subscriptions: subscribe a resource to a calendar kept elsewhere
// (the address answered once), list (by resource), read, delete.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { body, params, query } from "../../http/validate";
import { formatInstant } from "../../domain/time";
import { deps } from "../deps";
import { createCalendarSubscriptionBody, listCalendarSubscriptionsQuery } from "./schema";
import { toCalendarSubscriptionJson } from "./serializer";
import { createCalendarSubscription, deleteCalendarSubscription, getCalendarSubscription, listCalendarSubscriptions } from "./service";

export const calendarSubscriptionRoutes = new Hono<AppEnv>();

calendarSubscriptionRoutes.get("/", query(listCalendarSubscriptionsQuery), async (c) => {
  const rows = await listCalendarSubscriptions(deps(c), c.req.valid("query").resource_id);
  return c.json(
    wrapList(
      "calendar_subscription",
      rows.map((s) => toCalendarSubscriptionJson(s, c.var.account.time_zone)),
    ),
  );
});

calendarSubscriptionRoutes.post("/", body(createCalendarSubscriptionBody, { root: "calendar_subscription" }), async (c) => {
  const { subscription, url } = await createCalendarSubscription(deps(c), c.req.valid("json").calendar_subscription);
  // The only answer holding the address.
  c.header("Cache-Control", "no-store");
  return c.json(wrap("calendar_subscription", toCalendarSubscriptionJson(subscription, c.var.account.time_zone, url)));
});

// Before /:id, which takes only ids.
calendarSubscriptionRoutes.get("/conflicts", query(listCalendarSubscriptionsQuery), async (c) => {
  const { calendarConflicts } = await import("./conflicts");
  const tz = c.var.account.time_zone;
  const rows = await calendarConflicts(deps(c), c.req.valid("query").resource_id);
  return c.json(
    wrapList(
      "calendar_conflict",
      rows.map((r) => ({
        booking_id: r.booking_id,
        resource_id: r.resource_id,
        subscription_id: r.subscription_id,
        booked_from: formatInstant(r.booked_from, tz),
        booked_to: formatInstant(r.booked_to, tz),
        busy_from: formatInstant(r.busy_from, tz),
        busy_to: formatInstant(r.busy_to, tz),
      })),
    ),
  );
});

calendarSubscriptionRoutes.get("/:id", params("id"), async (c) =>
  c.json(wrap("calendar_subscription", toCalendarSubscriptionJson(await getCalendarSubscription(deps(c), c.req.valid("param").id), c.var.account.time_zone))),
);

calendarSubscriptionRoutes.delete("/:id", params("id"), async (c) =>
  c.json(wrap("calendar_subscription", toCalendarSubscriptionJson(await deleteCalendarSubscription(deps(c), c.req.valid("param").id), c.var.account.time_zone))),
);
