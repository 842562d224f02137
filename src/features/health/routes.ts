// GET /health: the service and its database answer. No account, no data.
import { Hono } from "hono";
import type { AppEnv } from "../../env";

export const healthRoutes = new Hono<AppEnv>();

healthRoutes.get("/", async (c) => {
  try {
    await c.env.DB.prepare("select 1").first();
    return c.json({ status: "ok" });
  } catch (error) {
    console.error(JSON.stringify({ request_id: c.var.requestId, health: "database unreachable", error: String(error) }));
    return c.json({ status: "unavailable", error: "The database does not answer." }, 503);
  }
});
