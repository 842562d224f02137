// One delivery attempt: POST the stored payload, signed, with a 10 s timeout; record the attempt
// and either finish the delivery or schedule the next attempt of its series.
import { and, eq, lt } from "drizzle-orm";
import { accounts, webHooks, webhookAttempts, webhookDeliveries } from "../../db/schema";
import { directoryDb } from "../../db/directory";
import type { Db, Env } from "../../env";
import { deliveryMessageFor, type DeliveryMessage } from "./queue-messages";
import { signatureHeaders } from "./sign";
import { signingSecrets } from "../webhook-secret/service";
import { targetPolicy } from "./policy";
import { targetUrlProblem } from "./ssrf";
import type { WebhookDelivery } from "./serializer";

// spec: Limits, at most 5 retries; the delays grow so a receiver that is down for a day is
// still reached. 12 h is also the most a queue message may be delayed.
const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 43_200];
const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const TIMEOUT_MS = 10_000; // spec: Limits, webhook timeout
const USER_AGENT = "booking-edge-api-webhooks/1.0";

interface AttemptOutcome {
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** Not sent because it never could be (no hook, inactive, refused URL): retrying cannot help. */
  hopeless?: boolean;
}

const notSent = (error: string): AttemptOutcome => ({ ok: false, status_code: null, duration_ms: 0, error: `not sent: ${error}`, hopeless: true });

/** POSTs `body` once. Redirects are not followed: a 3xx is a failure, and never a detour inward. */
async function post(target: string, body: string, secrets: readonly string[], webhookId: string): Promise<AttemptOutcome> {
  const started = Date.now();
  try {
    const headers = await signatureHeaders(secrets, webhookId, Math.floor(started / 1000), body);
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...headers },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // The answer's body is not needed; cancelling frees the connection at once.
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status_code: response.status, duration_ms: Date.now() - started, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const message = timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : error instanceof Error ? error.message : String(error);
    return { ok: false, status_code: null, duration_ms: Date.now() - started, error: message.slice(0, 500) };
  }
}

/** Makes the attempt a delivery message names, unless it was already made (duplicate or stale). */
export async function deliverAttempt(env: Env, db: Db, message: DeliveryMessage, now: number): Promise<void> {
  const delivery = await db.query.webhookDeliveries.findFirst({
    where: and(eq(webhookDeliveries.id, message.delivery_id), eq(webhookDeliveries.account_id, message.account_id)),
  });
  if (delivery?.state !== "pending" || delivery.attempts >= message.attempt) return;

  const outcome = await attempt(env, db, delivery, now);
  const inSeries = message.attempt - message.series_start;
  const state = outcome.ok ? "delivered" : outcome.hopeless || inSeries >= MAX_ATTEMPTS ? "failed" : "pending";
  const recorded = await recordAttempt(db, delivery, message.attempt, outcome, state, now);
  if (recorded && state === "pending") {
    await env.WEBHOOK_QUEUE.send(deliveryMessageFor(delivery, message.shard, message.attempt + 1, message.series_start), {
      contentType: "json",
      delaySeconds: RETRY_DELAYS_SECONDS[inSeries - 1],
    });
  }
}

async function attempt(env: Env, db: Db, delivery: WebhookDelivery, now: number): Promise<AttemptOutcome> {
  const [hook, account] = await Promise.all([
    db.query.webHooks.findFirst({ where: and(eq(webHooks.id, delivery.web_hook_id), eq(webHooks.account_id, delivery.account_id)) }),
    directoryDb(env).query.accounts.findFirst({
      where: eq(accounts.id, delivery.account_id),
      columns: { webhook_secret: true, previous_webhook_secret: true, previous_webhook_secret_expires_at: true },
    }),
  ]);
  if (!hook || !account) return notSent("the web hook no longer exists");
  if (!hook.active) return notSent("the web hook is inactive");
  // Checked again at send time: the policy is the deployment's, which may be stricter now.
  const problem = targetUrlProblem(hook.target_url, targetPolicy(env));
  if (problem) return notSent(`target_url ${problem}`);
  return post(hook.target_url, delivery.payload, signingSecrets(account, now), delivery.idempotency_id);
}

/**
 * Stores the attempt and the delivery's new state together. The attempt number is unique per
 * delivery, so of two copies of one message only the first records (and schedules) anything.
 */
export async function recordAttempt(
  db: Db,
  delivery: WebhookDelivery,
  attemptNo: number,
  outcome: AttemptOutcome,
  state: "pending" | "delivered" | "failed",
  now: number,
): Promise<boolean> {
  const [inserted] = await db.batch([
    db
      .insert(webhookAttempts)
      .values({
        account_id: delivery.account_id,
        delivery_id: delivery.id,
        attempt: attemptNo,
        status_code: outcome.status_code,
        duration_ms: outcome.duration_ms,
        error: outcome.error,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning({ id: webhookAttempts.id }),
    db
      .update(webhookDeliveries)
      .set({ attempts: attemptNo, state, updated_at: now })
      .where(and(eq(webhookDeliveries.id, delivery.id), lt(webhookDeliveries.attempts, attemptNo))),
  ]);
  return inserted.length > 0;
}
