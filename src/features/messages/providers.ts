// Delivery adapters, chosen by MESSAGE_PROVIDER: "sink" stores only (development; the stored row
// is the delivery and reads back through GET /messages), "http" posts JSON to the provider URLs,
// "smtp" sends e-mail over SMTP (smtp.ts, loaded on first use) and "resend" through Resend's API
// (resend.ts, likewise). SMS go where SMS_PROVIDER says: SMS_PROVIDER_URL, or Twilio (twilio.ts).
import { configOf, MAILBOX } from "../../config";
import type { Account } from "../../db/schema";
import type { Env } from "../../env";
import type { InvitationData } from "./invitation";
import type { Message } from "./serializer";

interface Delivery {
  message: Message;
  /** The message's account; undefined once the account is gone (only e-mail providers need it). */
  account: Account | undefined;
  /** The text to deliver: the stored body, or the secret body the queue carried. */
  body: string;
  /** The calendar invitation of an e-mail about a booking's time, with the SEQUENCE to send. */
  invitation: (InvitationData & { sequence: number }) | null;
  now: number;
}

/**
 * `permanent`: retrying cannot help (the server refused the recipient for good), so it fails at once;
 * `undeliverable`: the address or number itself is refused, so later messages to it are not sent.
 * `providerMessageId`: the provider's id of what it took, which its delivery events name.
 */
type DeliveryResult = { ok: true; providerMessageId?: string } | { ok: false; error: string; permanent?: boolean; undeliverable?: boolean };

interface Provider {
  name: string;
  deliver(delivery: Delivery): Promise<DeliveryResult>;
  /** True when the delivered text may be kept in D1 (the sink: development only). */
  storesDeliveredText: boolean;
  /** True when e-mails carry an HTML part and calendar invitations (so the consumer reads the booking's SEQUENCE). */
  sendsInvitations?: boolean;
  /** Who delivers a channel when it is not this provider itself (SMS through Twilio: "twilio"). */
  nameFor?: (channel: Message["channel"]) => string;
}

const TIMEOUT_MS = 10_000;

const sink: Provider = { name: "sink", storesDeliveredText: true, deliver: async () => ({ ok: true }) };

/** SMS through Twilio (SMS_PROVIDER=twilio, twilio.ts, loaded on first use). */
async function twilioSms(env: Env, { message, body }: Delivery): Promise<DeliveryResult> {
  const config = configOf(env);
  if (!config.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN || !config.TWILIO_FROM) {
    return { ok: false, error: "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must all be configured" };
  }
  const { sendWithTwilio } = await import("./twilio");
  return sendWithTwilio(
    {
      accountSid: config.TWILIO_ACCOUNT_SID,
      authToken: env.TWILIO_AUTH_TOKEN,
      from: config.TWILIO_FROM,
      baseUrl: config.TWILIO_API_BASE,
      statusCallback: config.TWILIO_STATUS_CALLBACK,
    },
    message,
    body,
  );
}

const smsName = (env: Env) => (configOf(env).SMS_PROVIDER === "twilio" ? "twilio" : null);

function httpProvider(env: Env): Provider {
  return {
    name: "http",
    storesDeliveredText: false,
    nameFor: (channel) => (channel === "sms" && smsName(env)) || "http",
    async deliver(delivery) {
      const { message, body } = delivery;
      if (message.channel === "sms" && smsName(env)) return twilioSms(env, delivery);
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

/** Why an e-mail cannot go out through a MIME provider, or null when it can. */
function mailProblem(env: Env, delivery: Delivery): DeliveryResult | null {
  if (!delivery.account) return { ok: false, error: "the account no longer exists", permanent: true };
  if (!configOf(env).MAIL_FROM) return { ok: false, error: "MAIL_FROM is not configured" };
  // An address that could not be written in an SMTP command safely is not sent anywhere.
  if (!MAILBOX.test(delivery.message.recipient) || delivery.message.recipient.length > 254) {
    return { ok: false, error: "the recipient is not an address SMTP can deliver to", permanent: true };
  }
  return null;
}

const mailOf = (delivery: Delivery) => ({
  message: delivery.message,
  account: delivery.account!,
  subject: delivery.message.subject ?? "",
  text: delivery.body,
  invitation: delivery.invitation,
  now: delivery.now,
});

/** E-mail through `send` (after mailProblem); SMS as with "http" (SMS_PROVIDER). */
function mailProvider(env: Env, name: "smtp" | "resend", send: (delivery: Delivery) => Promise<DeliveryResult>): Provider {
  const http = httpProvider(env);
  return {
    name,
    storesDeliveredText: false,
    sendsInvitations: true,
    nameFor: (channel) => (channel === "sms" ? http.nameFor!(channel) : name),
    deliver: async (delivery) => (delivery.message.channel === "sms" ? http.deliver(delivery) : (mailProblem(env, delivery) ?? send(delivery))),
  };
}

const smtpProvider = (env: Env) =>
  mailProvider(env, "smtp", async (delivery) => {
    const config = configOf(env);
    if (!config.SMTP_HOST) return { ok: false, error: "SMTP_HOST is not configured" };
    const { sendOverSmtp } = await import("./smtp");
    return sendOverSmtp(
      {
        host: config.SMTP_HOST,
        port: config.SMTP_PORT ?? (config.SMTP_SECURITY === "tls" ? 465 : 587),
        security: config.SMTP_SECURITY,
        from: config.MAIL_FROM!,
        username: env.SMTP_USERNAME,
        password: env.SMTP_PASSWORD,
      },
      mailOf(delivery),
    );
  });

const resendProvider = (env: Env) =>
  mailProvider(env, "resend", async (delivery) => {
    if (!env.RESEND_API_KEY) return { ok: false, error: "RESEND_API_KEY is not configured" };
    const { sendWithResend } = await import("./resend");
    return sendWithResend({ apiKey: env.RESEND_API_KEY, from: configOf(env).MAIL_FROM!, baseUrl: configOf(env).RESEND_API_BASE }, mailOf(delivery));
  });

export function providerFor(env: Env): Provider {
  const { MESSAGE_PROVIDER } = configOf(env);
  if (MESSAGE_PROVIDER === "http") return httpProvider(env);
  if (MESSAGE_PROVIDER === "smtp") return smtpProvider(env);
  if (MESSAGE_PROVIDER === "resend") return resendProvider(env);
  return sink;
}
