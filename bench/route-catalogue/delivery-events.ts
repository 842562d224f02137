// The mail and SMS providers' delivery events in the route catalogue: signed here as Resend and
// Twilio sign them, with the settings the Worker under measurement is given (bench/routes.ts, and
// the tests' bindings in vitest.config.ts).
import { Webhook } from "standardwebhooks";
import { twilioSignature } from "../../src/features/messages/twilio-events";
import { DELIVERY_EVENT_SETTINGS } from "./provider-settings";
import type { RouteEntry, Shop } from "./types";

let events = 0;

/** The account id of the shop's key, which delivery events name. */
const accountIdOf = async (s: Shop): Promise<number> => (await s.must(s.api("GET", "/client"))).client.id;

/** A signed Resend event about the shop's confirmation e-mail. */
async function resendEvent(s: Shop, type: string) {
  const body = JSON.stringify({
    type,
    created_at: new Date().toISOString(),
    data: { email_id: `bench-${s.ids.message}`, tags: { account_id: String(await accountIdOf(s)), message_id: String(s.ids.message) } },
  });
  const id = `msg_bench_${Date.now()}_${(events += 1)}`;
  const at = new Date();
  return { body, id, at, signature: new Webhook(DELIVERY_EVENT_SETTINGS.RESEND_WEBHOOK_SECRET).sign(id, at, body) };
}

const postResend = (s: Shop, event: Awaited<ReturnType<typeof resendEvent>>) =>
  s.root("POST", "/api/v1/messages/resend/events", event.body, {
    "content-type": "application/json",
    "svix-id": event.id,
    "svix-timestamp": String(Math.floor(event.at.getTime() / 1000)),
    "svix-signature": event.signature,
  });

export const deliveryEventEntries: RouteEntry[] = [
  {
    name: "POST /api/v1/messages/resend/events",
    surface: "private",
    operation: "POST /api/v1/messages/resend/events",
    kind: "write",
    // A delivery of the shop's confirmation e-mail (each a new event: the first moves it to delivered).
    prepare: (s) => resendEvent(s, "email.delivered"),
    request: postResend,
  },
  {
    name: "POST /api/v1/messages/twilio/events",
    surface: "private",
    operation: "POST /api/v1/messages/twilio/events",
    kind: "write",
    prepare: async (s) => {
      const query = `account_id=${await accountIdOf(s)}&message_id=${s.ids.message}`;
      // The shop's one message, named by the provider id the Resend entry gave it (a message has one
      // provider id): the first callback delivers, the later ones are duplicates.
      const params = { MessageSid: `bench-${s.ids.message}`, MessageStatus: "delivered" };
      return {
        query,
        form: new URLSearchParams(params).toString(),
        signature: await twilioSignature(DELIVERY_EVENT_SETTINGS.TWILIO_AUTH_TOKEN, `${DELIVERY_EVENT_SETTINGS.TWILIO_STATUS_CALLBACK}?${query}`, params),
      };
    },
    request: (s, { query, form, signature }) =>
      s.root("POST", `/api/v1/messages/twilio/events?${query}`, form, { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature }),
  },
  {
    name: "GET /api/v1/messages/undeliverable",
    surface: "private",
    operation: "GET /api/v1/messages/undeliverable",
    kind: "read",
    request: (s) => s.api("GET", "/messages/undeliverable"),
  },
  {
    name: "DELETE /api/v1/messages/undeliverable/{channel}/{recipient}",
    surface: "private",
    operation: "DELETE /api/v1/messages/undeliverable/{channel}/{recipient}",
    kind: "write",
    // A complaint about the confirmation refuses its recipient; the entry releases it again.
    prepare: async (s) => {
      await s.must(postResend(s, await resendEvent(s, "email.complained")));
      return (await s.must(s.api("GET", `/messages/${s.ids.message}`))).message as { channel: string; recipient: string };
    },
    request: (s, { channel, recipient }) => s.api("DELETE", `/messages/undeliverable/${channel}/${encodeURIComponent(recipient)}`),
  },
];
