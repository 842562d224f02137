// Resend's delivery events: Standard Webhooks (Svix) signatures over the raw body, checked by
// Resend's own SDK (`webhooks.verify`, the standardwebhooks package) with RESEND_WEBHOOK_SECRET,
// which also refuses a timestamp outside its five-minute tolerance (a replay). The tags we sent
// with the e-mail (resend.ts) name the account and the message.
import * as z from "zod";
import type { DeliveryEvent } from "./delivery-events";
import type { DeliveryOutcome } from "./delivery-status";

export class DeliveryEventRefused extends Error {}

const tagsOf = z.union([
  z.record(z.string(), z.string()),
  z.array(z.object({ name: z.string(), value: z.string() })).transform((tags) => Object.fromEntries(tags.map((t) => [t.name, t.value]))),
]);

const resendEvent = z.object({
  type: z.string(),
  created_at: z.string(),
  data: z.object({
    email_id: z.string(),
    tags: tagsOf.optional(),
    bounce: z.object({ type: z.string().optional(), subType: z.string().optional(), message: z.string().optional() }).optional(),
    failed: z.object({ reason: z.string().optional() }).optional(),
    suppressed: z.object({ type: z.string().optional(), message: z.string().optional() }).optional(),
  }),
});

const positiveId = z.coerce.number().int().positive();

/**
 * What each event means for the message. `email.bounced` is a permanent rejection in Resend's
 * words; its `bounce.type` says "Transient" for the rare soft bounce it reports, which fails this
 * message but does not refuse the address. `email.suppressed` is Resend refusing an address on its
 * own suppression list (an earlier hard bounce or complaint, perhaps another sender's).
 */
function meaning(event: z.output<typeof resendEvent>): { outcome: DeliveryOutcome | null; undeliverable: boolean; detail: string | null } {
  const { data } = event;
  switch (event.type) {
    case "email.delivered":
      return { outcome: "delivered", undeliverable: false, detail: null };
    case "email.bounced": {
      const soft = data.bounce?.type?.toLowerCase() === "transient";
      const detail = [data.bounce?.type, data.bounce?.subType].filter(Boolean).join("/");
      return { outcome: "bounced", undeliverable: !soft, detail: `bounced (${detail || "Permanent"}): ${data.bounce?.message ?? ""}`.trim() };
    }
    case "email.complained":
      return { outcome: "complained", undeliverable: true, detail: "the recipient marked it as spam" };
    case "email.suppressed":
      return { outcome: "bounced", undeliverable: true, detail: `suppressed by Resend: ${data.suppressed?.message ?? data.suppressed?.type ?? ""}`.trim() };
    case "email.failed":
      return { outcome: "failed", undeliverable: false, detail: `Resend could not send it: ${data.failed?.reason ?? "no reason given"}` };
    default:
      // Sent, delivery delayed (Resend keeps trying), opened, clicked, ...: recorded, nothing changes.
      return { outcome: null, undeliverable: false, detail: null };
  }
}

/** The verified event, or DeliveryEventRefused (unsigned, wrongly signed, stale, or not about one of our messages). */
export async function verifyResendEvent(secret: string, raw: string, header: (name: string) => string | undefined): Promise<DeliveryEvent> {
  // Resend sends Svix's header names; Standard Webhooks names them webhook-*.
  const id = header("svix-id") ?? header("webhook-id");
  const timestamp = header("svix-timestamp") ?? header("webhook-timestamp");
  const signature = header("svix-signature") ?? header("webhook-signature");
  if (!id || !timestamp || !signature) throw new DeliveryEventRefused("it carries no Standard Webhooks signature (svix-id, svix-timestamp, svix-signature)");
  // Loaded here, not with the messages feature's routes: GET /messages needs none of the SDK.
  const { Resend } = await import("resend");
  let payload: unknown;
  try {
    // The SDK's constructor wants an API key even though verifying never calls the API.
    payload = new Resend("re_verify_only").webhooks.verify({ payload: raw, headers: { id, timestamp, signature }, webhookSecret: secret });
  } catch (error) {
    throw new DeliveryEventRefused(`its signature does not verify (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = resendEvent.safeParse(payload);
  if (!parsed.success) throw new DeliveryEventRefused("it is not an e-mail event");
  const tags = parsed.data.data.tags ?? {};
  const accountId = positiveId.safeParse(tags.account_id);
  const messageId = positiveId.safeParse(tags.message_id);
  if (!accountId.success || !messageId.success) throw new DeliveryEventRefused("its e-mail was not sent by this service (no account_id and message_id tags)");
  const occurredAt = Date.parse(parsed.data.created_at);
  return {
    provider: "resend",
    eventId: id,
    accountId: accountId.data,
    messageId: messageId.data,
    providerMessageId: parsed.data.data.email_id,
    kind: parsed.data.type,
    ...meaning(parsed.data),
    occurredAt: Number.isFinite(occurredAt) ? occurredAt : Date.now(),
  };
}
