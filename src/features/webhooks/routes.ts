// /web_hooks on the private API: subscriptions, their deliveries and redelivery.
import { Hono, type Context } from "hono";
import type { WebHook } from "../../db/schema";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { pageRequest, setPageHeaders } from "../../http/pagination";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import { createWebHookBody, deliveriesQuery, updateWebHookBody } from "./schema";
import { toDeliveryJson, toWebHookJson } from "./serializer";
import { createWebHook, deleteWebHook, getWebHook, listDeliveries, listWebHooks, redeliver, updateWebHook, type DeliveryWithAttempts } from "./service";

export const webHookRoutes = new Hono<AppEnv>();

const tz = (c: Context<AppEnv>) => c.var.account.time_zone;
const one = (c: Context<AppEnv>, hook: WebHook) => c.json(wrap("web_hook", toWebHookJson(hook, tz(c))));
const delivery = (c: Context<AppEnv>, d: DeliveryWithAttempts) => toDeliveryJson(d.delivery, d.attempts, tz(c));

webHookRoutes.get("/", async (c) =>
  c.json(
    wrapList(
      "web_hook",
      (await listWebHooks(deps(c))).map((h) => toWebHookJson(h, tz(c))),
    ),
  ),
);

webHookRoutes.get("/:id", params("id"), async (c) => one(c, await getWebHook(deps(c), c.req.valid("param").id)));

webHookRoutes.post("/", body(createWebHookBody, { root: "web_hook" }), async (c) => one(c, await createWebHook(deps(c), c.req.valid("json").web_hook)));

webHookRoutes.put("/:id", params("id"), body(updateWebHookBody, { root: "web_hook" }), async (c) =>
  one(c, await updateWebHook(deps(c), c.req.valid("param").id, c.req.valid("json").web_hook)),
);

webHookRoutes.delete("/:id", params("id"), async (c) => one(c, await deleteWebHook(deps(c), c.req.valid("param").id)));

webHookRoutes.get("/:id/deliveries", params("id"), query(deliveriesQuery), async (c) => {
  const request = pageRequest(c.req.valid("query").page);
  const { rows, total } = await listDeliveries(deps(c), c.req.valid("param").id, request);
  setPageHeaders(c, request, total, rows.length);
  return c.json(
    wrapList(
      "webhook_delivery",
      rows.map((d) => delivery(c, d)),
    ),
  );
});

webHookRoutes.post("/:id/deliveries/:delivery_id/redeliver", params("id", "delivery_id"), async (c) => {
  const { id, delivery_id } = c.req.valid("param");
  return c.json(wrap("webhook_delivery", delivery(c, await redeliver(deps(c), id, delivery_id))));
});
