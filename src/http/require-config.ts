// Every request first reads the deployment's settings (src/config.ts): a bad one answers the
// spec's 500 and a log line naming the variable, before any route could half-run on it.
import { createMiddleware } from "hono/factory";
import { badConfig, configErrorLine } from "../config";
import type { AppEnv } from "../env";

export const requireConfig = createMiddleware<AppEnv>(async (c, next) => {
  const misconfigured = badConfig(c.env);
  if (misconfigured) {
    console.error(configErrorLine(misconfigured, { request_id: c.var.requestId }));
    return c.json({ error: "system error" }, 500);
  }
  await next();
});
