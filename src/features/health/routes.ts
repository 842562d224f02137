// GET /health: the service and its database answer. No account, no data.
import { Hono } from "hono";
import { shardD1, shardNames } from "../../db/shards";
import type { AppEnv } from "../../env";

export const healthRoutes = new Hono<AppEnv>();

healthRoutes.get("/", async (c) => {
  try {
    // Every shard: an account whose shard is down is as broken as the service.
    await Promise.all(shardNames(c.env).map((shard) => shardD1(c.env, shard).prepare("select 1").first()));
    return c.json({ status: "ok" });
  } catch (error) {
    console.error(JSON.stringify({ request_id: c.var.requestId, health: "database unreachable", error: String(error) }));
    return c.json({ status: "unavailable", error: "The database does not answer." }, 503);
  }
});
