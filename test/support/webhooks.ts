// Web hook test helpers: the test receiver (test/support/receiver-server.ts), hand-made queue
// messages driven straight into the Worker's queue handler, and signature checks as a
// receiver would write them with node:crypto.
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "cloudflare:test";
import { objectOfEvent, type WebhookEventMessage, type WebhookEventName } from "../../src/features/webhooks/emit";
import { runQueue } from "./queues";

let keys = 0;
/** A receiver address of its own; `behaviour` is e.g. "fail=2" or "fail=always&status=404". */
export function receiver(behaviour = "") {
  keys += 1;
  const key = `r${keys}-${crypto.randomUUID()}`;
  return {
    url: `${env.TEST_RECEIVER}/hooks/${key}${behaviour ? `?${behaviour}` : ""}`,
    /** The requests the receiver got, oldest first. */
    requests: async (): Promise<{ headers: Record<string, string>; body: string }[]> => (await fetch(`${env.TEST_RECEIVER}/hooks/_log/${key}`)).json(),
  };
}

export function eventMessage(accountId: number, event: WebhookEventName, id = 1): WebhookEventMessage {
  const object = objectOfEvent(event);
  return {
    account_id: accountId,
    event,
    idempotency_id: crypto.randomUUID(),
    generated_at: "2030-01-07T10:00:00+01:00",
    performed_by: { via: "private_api" },
    data: { object, id, [object]: { id, title: "Cut" } },
  };
}

export const attemptMessage = (accountId: number, deliveryId: number, attempt: number, seriesStart = 0) => ({
  type: "delivery",
  account_id: accountId,
  delivery_id: deliveryId,
  attempt,
  series_start: seriesStart,
});

/** Runs the webhook queue's consumer (or `queue`'s) on one batch: queues.ts runQueue with the queue first. */
export const drive = (bodies: unknown[], queue = "booking-webhooks") => runQueue(queue, bodies);

export function serviceSignatureValid(secret: string, body: string, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function standardSignatureValid(secret: string, headers: Record<string, string>, body: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64url");
  const signed = `${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`;
  const expected = `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
  return headers["webhook-signature"].split(" ").includes(expected);
}

export { env };
