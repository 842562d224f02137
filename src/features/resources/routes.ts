// /resources on the private API: the resources, their opening hours per date and exception dates.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import { exceptionDateRoutes } from "./exception-date-routes";
import { createResourceBody, dateRangeQuery, updateResourceBody } from "./schema";
import { toOpeningHoursJson, toResourceJson } from "./serializer";
import { createResource, deleteResource, getResource, listResources, openingHoursBetween, updateResource } from "./service";

export const resourceRoutes = new Hono<AppEnv>();
const tz = (c: { var: AppEnv["Variables"] }) => c.var.account.time_zone;

resourceRoutes.get("/", async (c) =>
  c.json(
    wrapList(
      "resource",
      (await listResources(deps(c))).map((r) => toResourceJson(r, tz(c))),
    ),
  ),
);

resourceRoutes.get("/:id", params("id"), async (c) => c.json(wrap("resource", toResourceJson(await getResource(deps(c), c.req.valid("param").id), tz(c)))));

resourceRoutes.post("/", body(createResourceBody, { root: "resource" }), async (c) =>
  c.json(wrap("resource", toResourceJson(await createResource(deps(c), c.req.valid("json").resource), tz(c)))),
);

resourceRoutes.put("/:id", params("id"), body(updateResourceBody, { root: "resource" }), async (c) =>
  c.json(wrap("resource", toResourceJson(await updateResource(deps(c), c.req.valid("param").id, c.req.valid("json").resource), tz(c)))),
);

resourceRoutes.delete("/:id", params("id"), async (c) => c.json(wrap("resource", toResourceJson(await deleteResource(deps(c), c.req.valid("param").id), tz(c)))));

resourceRoutes.get("/:id/opening_hours", params("id"), query(dateRangeQuery), async (c) => {
  const days = await openingHoursBetween(deps(c), c.req.valid("param").id, c.req.valid("query"));
  return c.json(wrapList("resource_opening_hours", days.map(toOpeningHoursJson)));
});

resourceRoutes.route("/", exceptionDateRoutes);
