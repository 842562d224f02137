// Retry-safe POST and PUT with an `Idempotency-Key` header, after the IETF
// idempotency-key draft: a replay answers the stored response, a replay while the first
// request still runs is 409, the same key with another request is 422. Keys are per account.
import { createMiddleware } from "hono/factory";
import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";
import { sha256Hex } from "./secrets";
import { rawBodyText } from "./body";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request that has not finished in this time is taken as crashed; its key is free again. */
const ABANDONED_AFTER_MS = 60 * 1000;
const MAX_KEY_LENGTH = 255;

export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined || !["POST", "PUT"].includes(c.req.method)) return next();
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw ApiError.invalid("idempotency_key", `must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  const { db, account, now } = c.var;
  // The routed path (slashes and `.json` normalised, app.ts): `//bookings` is the same request as `/bookings`.
  const fingerprint = await sha256Hex(`${c.req.method} ${c.req.path}\n${await rawBodyText(c)}`);
  const where = and(eq(idempotencyKeys.account_id, account.id), eq(idempotencyKeys.key, key));

  // Expired or abandoned claims give way, so the insert below can take the key.
  await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.created_at, now - IDEMPOTENCY_TTL_MS)));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ account_id: account.id, key, request_hash: fingerprint, created_at: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });

  if (claimed.length === 0) {
    const stored = await db.query.idempotencyKeys.findFirst({ where });
    if (stored && stored.request_hash !== fingerprint) {
      throw new ApiError(422, { error: "This Idempotency-Key was used for a different request." });
    }
    if (stored && stored.response_status !== null) {
      return new Response(stored.response_body, {
        status: stored.response_status,
        headers: { "content-type": "application/json; charset=UTF-8", "idempotent-replayed": "true" },
      });
    }
    if (stored && stored.created_at > now - ABANDONED_AFTER_MS) {
      throw new ApiError(409, { error: "A request with this Idempotency-Key is still being processed." });
    }
    // Abandoned by a crashed first attempt: take it over.
    await db.update(idempotencyKeys).set({ created_at: now }).where(where);
  }

  try {
    await next();
  } catch (error) {
    await db.delete(idempotencyKeys).where(where);
    throw error;
  }
  // Server errors are not results: free the key so the client's retry runs again.
  if (c.res.status >= 500) {
    await db.delete(idempotencyKeys).where(where);
    return;
  }
  await db
    .update(idempotencyKeys)
    .set({ response_status: c.res.status, response_body: await c.res.clone().text() })
    .where(where);
});
