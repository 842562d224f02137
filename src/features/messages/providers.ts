// Delivery adapters, chosen by MESSAGE_PROVIDER: "sink" stores only (development; the stored row
// is the delivery and reads back through GET /messages), "http" posts JSON to the provider URLs,
// "smtp" sends e-mail over SMTP (smtp.ts, loaded on first use) and SMS as "http" does.
import { configOf, MAILBOX } from "../../config";
import type { Account } from "../../db/schema";
import type { Env } from "../../env";
import type { InvitationData } from "./invitation";
import type { Message } from "./serializer";

interface Delivery {
  message: Message;
  account: Account;
  /** The text to deliver: the stored body, or the secret body the queue carried. */
  body: string;
  /** The calendar invitation of an e-mail about a booking's time, with the SEQUENCE to send. */
  invitation: (InvitationData & { sequence: number }) | null;
  now: number;
}

/** `permanent`: retrying cannot help (the server refused the recipient for good), so it fails at once. */
type DeliveryResult = { ok: true } | { ok: false; error: string; permanent?: boolean };

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

function smtpProvider(env: Env): Provider {
  const http = httpProvider(env);
  return {
    name: "smtp",
    storesDeliveredText: false,
    async deliver(delivery) {
      // SMTP carries e-mail only: SMS go to the SMS provider URL, as with "http".
      if (delivery.message.channel === "sms") return http.deliver(delivery);
      const config = configOf(env);
      if (!config.SMTP_HOST) return { ok: false, error: "SMTP_HOST is not configured" };
      if (!config.MAIL_FROM) return { ok: false, error: "MAIL_FROM is not configured" };
      if (!MAILBOX.test(delivery.message.recipient) || delivery.message.recipient.length > 254) {
        return { ok: false, error: "the recipient is not an address SMTP can deliver to", permanent: true };
      }
      const { sendOverSmtp } = await import("./smtp");
      return sendOverSmtp({
        host: config.SMTP_HOST, port: config.SMTP_PORT ?? (config.SMTP_SECURITY === "tls" ? 465 : 587),
        security: config.SMTP_SECURITY, from: config.MAIL_FROM, username: env.SMTP_USERNAME, password: env.SMTP_PASSWORD,
      }, {
        message: delivery.message, account: delivery.account, subject: delivery.message.subject ?? "",
        text: delivery.body, invitation: delivery.invitation, now: delivery.now,
      });
    },
  };
}

export function providerFor(env: Env): Provider {
  const { MESSAGE_PROVIDER } = configOf(env);
  return MESSAGE_PROVIDER === "http" ? httpProvider(env) : MESSAGE_PROVIDER === "smtp" ? smtpProvider(env) : sink;
}
