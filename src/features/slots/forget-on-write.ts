// Every write request of an account makes this isolate read the account's availability version
// again, so its own writes show in the next slot answer (answer-cache.ts, VERSION_TRUSTED_MS).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { forgetVersion } from "./answer-cache";

export const forgetAvailabilityOnWrite = createMiddleware<AppEnv>(async (c, next) => {
  try {
    await next();
  } finally {
    // After the write: a read that starts later reads the version the write left.
    const account = c.get("account");
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && account) forgetVersion(account.id);
  }
});
