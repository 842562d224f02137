// Delivery adapters, chosen by MESSAGE_PROVIDER: "sink" stores only (development; the stored row
// is the delivery and reads back through GET /messages), "http" posts JSON to the provider URLs.
import { configOf } from "../../config";
import type { Env } from "../../env";
import type { Message } from "./serializer";

interface Delivery {
  message: Message;
  /** The text to deliver: the stored body, or the secret body the queue carried. */
  body: string;
}

type DeliveryResult = { ok: true } | { ok: false; error: string };

interface Provider {
  name: string;
  deliver(delivery: Delivery): Promise<DeliveryResult>;
  /** True when the delivered text may be kept in D1 (the sink: development only). */
  storesDeliveredText: boolean;
}

const TIMEOUT_MS = 10_000;

const sink: Provider = { name: "sink", storesDeliveredText: true, deliver: async () => ({ ok: true }) };

function httpProvider(env: Env): Provider {
  return {
    name: "http",
    storesDeliveredText: false,
    async deliver({ message, body }) {
      const url = message.channel === "sms" ? configOf(env).SMS_PROVIDER_URL : configOf(env).EMAIL_PROVIDER_URL;
      if (!url) return { ok: false, error: `${message.channel === "sms" ? "SMS" : "EMAIL"}_PROVIDER_URL is not configured` };
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "booking-edge-api messages",
            // Providers that deduplicate can use it: a redelivered queue message carries the same id.
            "idempotency-key": `message-${message.id}`,
            ...(env.MESSAGE_PROVIDER_TOKEN ? { authorization: `Bearer ${env.MESSAGE_PROVIDER_TOKEN}` } : {}),
          },
          body: JSON.stringify({ id: message.id, channel: message.channel, to: message.recipient, subject: message.subject, body }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await response.body?.cancel();
        return response.ok ? { ok: true } : { ok: false, error: `provider answered HTTP ${response.status}` };
      } catch (error) {
        return { ok: false, error: `provider unreachable: ${String(error)}` };
      }
    },
  };
}

export function providerFor(env: Env): Provider {
  return configOf(env).MESSAGE_PROVIDER === "http" ? httpProvider(env) : sink;
}
