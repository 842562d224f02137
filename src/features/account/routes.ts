// The caller's own account: read and update (PUT /client), and its country's holidays.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrapList } from "../../http/envelope";
import { body, query } from "../../http/validate";
import { toAccountJson } from "./serializer";
import { holidaysQuery, updateClientBody } from "./schema";
import { listHolidays, updateAccount } from "./service";
import { deps } from "../deps";

export const clientRoutes = new Hono<AppEnv>();

clientRoutes.get("/", (c) => c.json({ client: toAccountJson(c.var.account) }));

clientRoutes.put("/", body(updateClientBody, { root: "client" }), async (c) => {
  const account = await updateAccount(deps(c), c.req.valid("json").client);
  return c.json({ client: toAccountJson(account) });
});

clientRoutes.get("/holidays", query(holidaysQuery), async (c) => c.json(wrapList("holiday", await listHolidays(deps(c), c.req.valid("query")))));

// Paid bookings: the shop's own Stripe account, made and linked, and the link to finish it at Stripe.
clientRoutes.post("/stripe_onboarding", async (c) => {
  const { stripeOnboarding } = await import("../payments/onboarding");
  const { account, url } = await stripeOnboarding(deps(c));
  return c.json({ client: toAccountJson(account), onboarding_url: url });
});
