// Personal data: a person's export and erasure on the private API (mounted at /people), and a
// booking's export for the visitor holding its token on the booking site (mounted at /bookings).
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { params, query } from "../../http/validate";
import { deps } from "../deps";
import { exportQuery } from "./schema";
import { erasePerson, exportBookingForVisitor, exportPerson } from "./service";

export const personalDataRoutes = new Hono<AppEnv>();

personalDataRoutes.get("/:id/export", params("id"), query(exportQuery), async (c) =>
  c.json({ personal_data: await exportPerson(deps(c), c.req.valid("param").id, c.req.valid("query").page) }),
);

personalDataRoutes.post("/:id/erase", params("id"), async (c) => c.json({ erasure: await erasePerson(deps(c), c.req.valid("param").id) }));

export const visitorExportRoutes = new Hono<AppEnv>();

visitorExportRoutes.get("/:id/export", params("id"), query(exportQuery), async (c) =>
  c.json({
    personal_data: await exportBookingForVisitor(deps(c), c.req.valid("param").id, c.req.header("x-booking-token"), c.req.valid("query").page),
  }),
);
