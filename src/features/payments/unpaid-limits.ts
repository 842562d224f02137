// What keeps a visitor from blocking a calendar with bookings they never pay (docs/decisions/payments.md):
// unpaid bookings hold their seats only for the payment window, and at most a few at once per
// visitor's address and a bounded number per booking site. Read before the guarded insert, so
// requests racing each other may pass the limit by the few in flight; the per-address rate limit
// bounds those.
import { accountD1 } from "../../db/shards";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../http/secrets";
import { MAX_UNPAID_PER_ACCOUNT, MAX_UNPAID_PER_VISITOR } from "./limits";

/** The visitor's address as the rate limiter groups it, keyed by account (as slot holds key theirs). */
export const visitorHash = (deps: Pick<Deps, "account">, address: string) => sha256Hex(`${deps.account.id}|${address}`);

export async function checkUnpaidLimits(deps: Deps, clientHash: string | null): Promise<void> {
  const counts = await accountD1(deps)
    .prepare(
      `SELECT COUNT(*) AS account_unpaid,
            COALESCE(SUM(json_extract(payment, '$.client_hash') = ?), 0) AS visitor_unpaid,
            MIN(expires_at) AS first_lapse
       FROM bookings WHERE account_id = ? AND state = 'awaiting_payment' AND expires_at > ?`,
    )
    .bind(clientHash ?? "", deps.account.id, deps.now)
    .first<{ account_unpaid: number; visitor_unpaid: number; first_lapse: number | null }>();
  if (!counts) return;
  const retryAfter = String(Math.max(1, Math.ceil(((counts.first_lapse ?? deps.now + 60_000) - deps.now) / 1000)));
  if (clientHash !== null && counts.visitor_unpaid >= MAX_UNPAID_PER_VISITOR) {
    throw new ApiError(
      429,
      { error: `Too many unpaid bookings: pay or cancel one first (at most ${MAX_UNPAID_PER_VISITOR} wait for payment at once).` },
      { "Retry-After": retryAfter },
    );
  }
  if (counts.account_unpaid >= MAX_UNPAID_PER_ACCOUNT) {
    throw new ApiError(429, { error: "Too many bookings are waiting for payment on this booking site: try again in a few minutes." }, { "Retry-After": retryAfter });
  }
}
