// After every write request of an account, this isolate's caches of it learn of the write, so the
// next read sees it: slot answers read the availability version again (slots/answer-cache.ts),
// and cached booking lists read before the write go straight to their batch (bookings/list-cache.ts).
import { createMiddleware } from "hono/factory";
import type { Account } from "../db/schema";
import type { AppEnv } from "../env";
import { noteWrite } from "./bookings/list-cache";
import { forgetVersion } from "./slots/answer-cache";

export const afterAccountWrite = createMiddleware<AppEnv>(async (c, next) => {
  try {
    await next();
  } finally {
    // After the write: a read that starts later is newer than it.
    const account = c.get("account");
    if (account) afterRequestOf(c.req.method, account);
  }
});

/** What this isolate's caches of `account` learn from a request of it, here or answered beside the database. */
export function afterRequestOf(method: string, account: Account): void {
  if (method === "GET" || method === "HEAD") return;
  forgetVersion(account.id);
  noteWrite(account);
}
