// /services on the private API, and its read-only subset on the public booking site.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { wrap, wrapList } from "../../http/envelope";
import { body, params } from "../../http/validate";
import { deps } from "../deps";
import { createServiceBody, updateServiceBody } from "./schema";
import { toPublicServiceJson, toServiceJson } from "./serializer";
import { createService, deleteService, getService, listServices, updateService } from "./service";
import { conditionalGet } from "../../http/conditional-get";

export const serviceRoutes = new Hono<AppEnv>();
const tz = (c: { var: AppEnv["Variables"] }) => c.var.account.time_zone;

serviceRoutes.get("/", async (c) =>
  c.json(
    wrapList(
      "service",
      (await listServices(deps(c))).map((s) => toServiceJson(s, tz(c))),
    ),
  ),
);

serviceRoutes.get("/appointments", async (c) =>
  c.json(
    wrapList(
      "service",
      (await listServices(deps(c), { bookingType: "appointment" })).map((s) => toServiceJson(s, tz(c))),
    ),
  ),
);

serviceRoutes.get("/attendances", async (c) =>
  c.json(
    wrapList(
      "service",
      (await listServices(deps(c), { bookingType: "attendance" })).map((s) => toServiceJson(s, tz(c))),
    ),
  ),
);

serviceRoutes.get("/:id", params("id"), async (c) => c.json(wrap("service", toServiceJson(await getService(deps(c), c.req.valid("param").id), tz(c)))));

serviceRoutes.post("/", body(createServiceBody, { root: "service" }), async (c) =>
  c.json(wrap("service", toServiceJson(await createService(deps(c), c.req.valid("json").service), tz(c)))),
);

serviceRoutes.put("/:id", params("id"), body(updateServiceBody, { root: "service" }), async (c) =>
  c.json(wrap("service", toServiceJson(await updateService(deps(c), c.req.valid("param").id, c.req.valid("json").service), tz(c)))),
);

serviceRoutes.delete("/:id", params("id"), async (c) => c.json(wrap("service", toServiceJson(await deleteService(deps(c), c.req.valid("param").id), tz(c)))));

export const publicServiceRoutes = new Hono<AppEnv>();
publicServiceRoutes.use("/", conditionalGet);
publicServiceRoutes.use("/:id", conditionalGet);

publicServiceRoutes.get("/", async (c) =>
  c.json(
    wrapList(
      "service",
      (await listServices(deps(c))).map((s) => toPublicServiceJson(s, tz(c))),
    ),
  ),
);

publicServiceRoutes.get("/:id", params("id"), async (c) =>
  c.json(wrap("service", toPublicServiceJson(await getService(deps(c), c.req.valid("param").id, { activeOnly: true }), tz(c)))),
);
