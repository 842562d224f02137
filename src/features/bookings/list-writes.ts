// Every write request of an account marks the isolate's cached booking lists of it as read
// before that write, so the next read of each goes straight to the page's batch: one round trip
// instead of a version read that could only say "changed" and then the batch (list-cache.ts).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { noteWrite } from "./list-cache";

export const staleListsOnWrite = createMiddleware<AppEnv>(async (c, next) => {
  try {
    await next();
  } finally {
    // After the write: a read that starts later is newer than it.
    const account = c.get("account");
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && account) noteWrite(account);
  }
});
