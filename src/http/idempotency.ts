// Retry-safe POST and PUT with an `Idempotency-Key` header, after the IETF
// idempotency-key draft: a replay answers the stored response, a replay while the first
// request still runs is 409, the same key with another request is 422. Keys are per account.
// The MCP `book` tool takes the same keys as an argument (features/mcp/idempotent.ts).
import { createMiddleware } from "hono/factory";
import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys, type Account } from "../db/schema";
import type { AppEnv, Db } from "../env";
import { ApiError } from "./errors";
import { sha256Hex } from "./secrets";
import { rawBodyText } from "./body";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request that has not finished in this time is taken as crashed; its key is free again. */
const ABANDONED_AFTER_MS = 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Whose keys: one account's, at one request's clock. */
export interface KeyScope {
  db: Db;
  account: Pick<Account, "id">;
  now: number;
}

/** What the first request with a key answered, kept for its replays. */
export interface StoredAnswer {
  status: number;
  body: string;
}

const keyOf = ({ account }: KeyScope, key: string) => and(eq(idempotencyKeys.account_id, account.id), eq(idempotencyKeys.key, key));

function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw ApiError.invalid("idempotency_key", `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
}

/**
 * Takes the key for the request `fingerprint` names. Answers null when this request is to run,
 * or the stored answer a replay gives; the same key with another request is 422, and one whose
 * first request still runs is 409.
 */
export async function claimIdempotencyKey(scope: KeyScope, key: string, fingerprint: string): Promise<StoredAnswer | null> {
  const { db, account, now } = scope;
  const where = keyOf(scope, key);
  // Expired or abandoned claims give way, so the insert below can take the key.
  await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.created_at, now - IDEMPOTENCY_TTL_MS)));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ account_id: account.id, key, request_hash: fingerprint, created_at: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return null;

  const stored = await db.query.idempotencyKeys.findFirst({ where });
  if (stored && stored.request_hash !== fingerprint) {
    throw new ApiError(422, { error: "This Idempotency-Key was used for a different request." });
  }
  if (stored && stored.response_status !== null) return { status: stored.response_status, body: stored.response_body ?? "" };
  if (stored && stored.created_at > now - ABANDONED_AFTER_MS) {
    throw new ApiError(409, { error: "A request with this Idempotency-Key is still being processed." });
  }
  // Abandoned by a crashed first attempt: take it over.
  await db.update(idempotencyKeys).set({ created_at: now }).where(where);
  return null;
}

/** Keeps the first request's answer for the key's replays. */
export async function keepIdempotentAnswer(scope: KeyScope, key: string, answer: StoredAnswer): Promise<void> {
  await scope.db.update(idempotencyKeys).set({ response_status: answer.status, response_body: answer.body }).where(keyOf(scope, key));
}

/** Frees the key: the request failed in a way a retry should run again. */
export async function freeIdempotencyKey(scope: KeyScope, key: string): Promise<void> {
  await scope.db.delete(idempotencyKeys).where(keyOf(scope, key));
}

export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined || !["POST", "PUT"].includes(c.req.method)) return next();
  checkIdempotencyKey(key);
  const scope: KeyScope = c.var;
  // The routed path (slashes and `.json` normalised, app.ts): `//bookings` is the same request as `/bookings`.
  const fingerprint = await sha256Hex(`${c.req.method} ${c.req.path}\n${await rawBodyText(c)}`);
  const stored = await claimIdempotencyKey(scope, key, fingerprint);
  if (stored) {
    return new Response(stored.body, {
      status: stored.status,
      headers: { "content-type": "application/json; charset=UTF-8", "idempotent-replayed": "true" },
    });
  }

  try {
    await next();
  } catch (error) {
    await freeIdempotencyKey(scope, key);
    throw error;
  }
  // Server errors are not results: free the key so the client's retry runs again.
  if (c.res.status >= 500) {
    await freeIdempotencyKey(scope, key);
    return;
  }
  await keepIdempotentAnswer(scope, key, { status: c.res.status, body: await c.res.clone().text() });
});
