// Web hook subscriptions and their deliveries. Deleting a web hook is a hard delete that takes
// its delivery history with it.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { webHooks, webhookAttempts, webhookDeliveries, type WebHook } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { found } from "../../http/serialize";
import { pageOf } from "../../db/page";
import { targetPolicy } from "./policy";
import { deliveryMessageFor } from "./queue-messages";
import type { WebHookInput, WebHookUpdate } from "./schema";
import type { WebhookAttempt, WebhookDelivery } from "./serializer";
import { targetUrlProblem } from "./ssrf";

function checkTarget(deps: Deps, input: WebHookUpdate): WebHookUpdate {
  if (input.target_url === undefined) return input;
  const target_url = input.target_url.trim();
  const problem = targetUrlProblem(target_url, targetPolicy(deps.env));
  if (problem) throw ApiError.invalid("target_url", problem);
  return { ...input, target_url };
}

export function listWebHooks({ db, account }: Deps): Promise<WebHook[]> {
  return db.select().from(webHooks).where(eq(webHooks.account_id, account.id)).orderBy(asc(webHooks.id));
}

export function getWebHook({ db, account }: Deps, id: number): Promise<WebHook> {
  return found(db.query.webHooks.findFirst({ where: and(eq(webHooks.id, id), eq(webHooks.account_id, account.id)) }), "web hook");
}

export async function createWebHook(deps: Deps, input: WebHookInput): Promise<WebHook> {
  const values = checkTarget(deps, input) as WebHookInput;
  const [row] = await deps.db
    .insert(webHooks)
    .values({ ...values, account_id: deps.account.id, created_at: deps.now, updated_at: deps.now })
    .returning();
  return row;
}

export async function updateWebHook(deps: Deps, id: number, input: WebHookUpdate): Promise<WebHook> {
  await getWebHook(deps, id);
  const [row] = await deps.db
    .update(webHooks)
    .set({ ...checkTarget(deps, input), updated_at: deps.now })
    .where(and(eq(webHooks.id, id), eq(webHooks.account_id, deps.account.id)))
    .returning();
  return row;
}

export async function deleteWebHook(deps: Deps, id: number): Promise<WebHook> {
  const hook = await getWebHook(deps, id);
  const { db, account } = deps;
  const deliveries = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.account_id, account.id), eq(webhookDeliveries.web_hook_id, id)));
  // One batch: the history goes with the subscription or not at all.
  await db.batch([
    db.delete(webhookAttempts).where(and(eq(webhookAttempts.account_id, account.id), inArray(webhookAttempts.delivery_id, deliveries))),
    db.delete(webhookDeliveries).where(and(eq(webhookDeliveries.account_id, account.id), eq(webhookDeliveries.web_hook_id, id))),
    db.delete(webHooks).where(and(eq(webHooks.id, id), eq(webHooks.account_id, account.id))),
  ]);
  return hook;
}

export interface DeliveryWithAttempts {
  delivery: WebhookDelivery;
  attempts: WebhookAttempt[];
}

const attemptsOf = (delivery: WebhookDelivery, attempts: WebhookAttempt[]): DeliveryWithAttempts => ({
  delivery,
  attempts: attempts.filter((a) => a.delivery_id === delivery.id),
});

async function withAttempts({ db, account }: Deps, deliveries: WebhookDelivery[]): Promise<DeliveryWithAttempts[]> {
  if (deliveries.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.account_id, account.id),
        inArray(
          webhookAttempts.delivery_id,
          deliveries.map((d) => d.id),
        ),
      ),
    )
    .orderBy(asc(webhookAttempts.attempt));
  return deliveries.map((delivery) => attemptsOf(delivery, attempts));
}

/** Newest first: the web hook's existence, the page, its total and its attempts in one batch. */
export async function listDeliveries(deps: Deps, webHookId: number, page: PageRequest) {
  const { db, account } = deps;
  const where = and(eq(webhookDeliveries.account_id, account.id), eq(webhookDeliveries.web_hook_id, webHookId));
  const {
    rows,
    total,
    extra: [hook, attempts],
  } = await pageOf(db, webhookDeliveries, where, [desc(webhookDeliveries.created_at), desc(webhookDeliveries.id)], page, (pageIds) => [
    db
      .select({ id: webHooks.id })
      .from(webHooks)
      .where(and(eq(webHooks.id, webHookId), eq(webHooks.account_id, account.id)))
      .limit(1),
    db
      .select()
      .from(webhookAttempts)
      .where(and(eq(webhookAttempts.account_id, account.id), inArray(webhookAttempts.delivery_id, pageIds)))
      .orderBy(asc(webhookAttempts.attempt)),
  ]);
  if ((hook as unknown[]).length === 0) throw ApiError.notFound("web hook");
  return { rows: rows.map((delivery) => attemptsOf(delivery, attempts as WebhookAttempt[])), total };
}

/** Queues a fresh series of attempts at once, whatever the delivery's state. */
export async function redeliver(deps: Deps, webHookId: number, deliveryId: number): Promise<DeliveryWithAttempts> {
  const hook = await getWebHook(deps, webHookId);
  const where = and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.web_hook_id, webHookId), eq(webhookDeliveries.account_id, deps.account.id));
  const delivery = await found(deps.db.query.webhookDeliveries.findFirst({ where }), "delivery");
  if (!hook.active) throw ApiError.invalid("active", "is false: activate the web hook before redelivering");
  const [pending] = await deps.db.update(webhookDeliveries).set({ state: "pending", updated_at: deps.now }).where(where).returning();
  await deps.env.WEBHOOK_QUEUE.send(deliveryMessageFor(delivery, deps.account.shard, delivery.attempts + 1, delivery.attempts), { contentType: "json" });
  return (await withAttempts(deps, [pending]))[0];
}
