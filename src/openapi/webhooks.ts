// The webhook payloads as the document's `webhooks:` entries: what a subscriber's endpoint
// receives for each event, with the signature headers it should check.
import * as z from "zod";
import { objectOfEvent, WEBHOOK_EVENTS, type WebhookObject } from "../features/webhooks/emit";
import { outputs } from "./answers";
import { Booking, CalendarSubscription, Event, Message, Person, WaitlistEntry } from "./objects";
import type { Tag } from "./tags";

const OBJECTS: Record<WebhookObject, z.ZodType> = {
  booking: Booking,
  event: Event,
  person: Person,
  message: Message,
  waitlist_entry: WaitlistEntry,
  calendar_subscription: CalendarSubscription,
};

const performedBy = z.object({
  via: z.enum(["private_api", "public_api", "system"]),
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).optional(),
});

/** One payload schema per object kind (the fan-out's payloadOf): `data`, plus its deprecated root copies. */
const payloads = Object.fromEntries(
  (Object.entries(OBJECTS) as [WebhookObject, z.ZodType][]).map(([kind, object]) => {
    const id = `WebhookPayload${kind[0].toUpperCase()}${kind.slice(1)}`;
    const events = WEBHOOK_EVENTS.filter((name) => objectOfEvent(name) === kind);
    const schema = z
      .object({
        event: z.enum(events as [string, ...string[]]),
        idempotency_id: z.string().meta({ description: "Unique per event: deduplicate on it." }),
        generated_at: z.string().meta({ format: "date-time" }),
        performed_by: performedBy,
        data: z.object({ object: z.literal(kind), id: z.number().int(), [kind]: object }),
        object: z.literal(kind).meta({ deprecated: true }),
        id: z.number().int().meta({ deprecated: true }),
        // Deprecated copy of data.<kind>; left without its own annotation so it stays a $ref.
        [kind]: object,
      })
      .meta({ description: `\`object\`, \`id\` and \`${kind}\` at the root are deprecated copies of \`data\`'s.` });
    outputs.add(schema, { id });
    return [kind, id];
  }),
) as Record<WebhookObject, string>;

const header = (name: string, description: string) => ({ name, in: "header", required: true, schema: { type: "string" }, description });

const SIGNATURE_HEADERS = [
  header("X-Service-Signature", "`sha256=<hex>`: HMAC-SHA256 of the raw body, keyed with the account's webhook secret."),
  header("webhook-id", "Standard Webhooks: the delivery's idempotency id."),
  header("webhook-timestamp", "Standard Webhooks: seconds since the epoch when the attempt was signed."),
  header("webhook-signature", "Standard Webhooks: `v1,<base64>` HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`."),
];

/** The `webhooks:` object of the document, one entry per event name. */
export function webhookEntries(ref: (id: string) => { $ref: string }) {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => {
      const kind = objectOfEvent(event);
      return [
        event,
        {
          post: {
            operationId: `webhook_${event.replace(".", "_")}`,
            summary: `${event}: posted to every active subscription matching it (the name, \`${kind}.*\` or \`*\`)`,
            tags: ["Webhook payloads" satisfies Tag],
            // The receiver asks no credential of us; it checks the signature headers, an HMAC of the
            // body that none of OpenAPI's security scheme types can express.
            security: [],
            parameters: SIGNATURE_HEADERS,
            requestBody: { required: true, content: { "application/json": { schema: ref(payloads[kind]) } } },
            responses: {
              "200": { description: "Any 2xx acknowledges the delivery." },
              default: { description: "Any other answer, or none within 10 s, is retried with growing delays, at most 5 times." },
            },
          },
        },
      ];
    }),
  );
}
