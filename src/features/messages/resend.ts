// E-mail through Resend's HTTP API with its official SDK (MESSAGE_PROVIDER=resend): the SDK runs on
// fetch, so it works in workerd as it is. The same parts as over SMTP (mail-parts.ts); loaded by the
// consumer on its first Resend delivery only.
import { Resend } from "resend";
import { headerText, mailParts, type OutgoingMail } from "./mail-parts";

export interface ResendSettings {
  apiKey: string;
  from: string;
  /** The API's origin: unset for api.resend.com; a local stand-in in the tests. */
  baseUrl?: string;
}

export type ResendResult = { ok: true; providerMessageId?: string } | { ok: false; error: string; permanent: boolean };

/**
 * Whether trying again may help: rate limits and quotas, the API's own failures and an unreachable
 * API may pass later, and so may a refused key (the operator can set it right); a request the API
 * calls invalid (422, 400) would fail again the same way.
 */
const passesLater = (status: number | null) => status === null || status === 429 || status >= 500 || status === 401 || status === 403;

export async function sendWithResend(settings: ResendSettings, mail: OutgoingMail): Promise<ResendResult> {
  const { message } = mail;
  const parts = mailParts(settings.from, mail);
  const resend = new Resend(settings.apiKey, settings.baseUrl ? { baseUrl: settings.baseUrl } : undefined);
  const { data, error } = await resend.emails.send(
    {
      from: parts.from,
      to: [message.recipient],
      ...(parts.replyTo ? { replyTo: parts.replyTo } : {}),
      subject: parts.subject,
      text: parts.text,
      html: parts.html,
      // RFC 3834: no vacation or out-of-office replies to an automatic message.
      headers: { "Auto-Submitted": "auto-generated" },
      ...(parts.invitation
        ? {
            attachments: [{ filename: parts.invitation.filename, content: parts.invitation.base64, contentType: parts.invitation.contentType }],
          }
        : {}),
      // Which message a delivery event is about, should one come back.
      tags: [
        { name: "account_id", value: String(message.account_id) },
        { name: "message_id", value: String(message.id) },
      ],
    },
    {
      // A redelivered queue message, or a retry after a lost answer, is the same e-mail to Resend:
      // it sends it once within its idempotency window (24 h).
      idempotencyKey: `message-${message.account_id}-${message.id}`,
    },
  );
  if (!error) return { ok: true, ...(data?.id ? { providerMessageId: data.id } : {}) };
  const status = error.statusCode ?? null;
  return {
    ok: false,
    error: `Resend ${status ?? "unreachable"} ${error.name}: ${headerText(error.message, 300)}`,
    permanent: !passesLater(status),
  };
}
