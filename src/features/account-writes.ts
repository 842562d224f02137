// After every write request of an account, this isolate's caches of it learn of the write, so the
// next read sees it: slot answers read the availability version again (slots/answer-cache.ts),
// and cached booking lists read before the write go straight to their batch (bookings/list-cache.ts).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { noteWrite } from "./bookings/list-cache";
import { forgetVersion } from "./slots/answer-cache";

export const afterAccountWrite = createMiddleware<AppEnv>(async (c, next) => {
  try {
    await next();
  } finally {
    // After the write: a read that starts later is newer than it.
    const account = c.get("account");
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && account) {
      forgetVersion(account.id);
      noteWrite(account);
    }
  }
});
