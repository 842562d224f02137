// E-mail over SMTP from the Worker (MESSAGE_PROVIDER=smtp): worker-mailer's Email writes the MIME
// message (multipart/alternative of the text and HTML parts, quoted-printable, and the calendar
// invitation as a `text/calendar; method=…` part), smtp-client.ts submits it over
// `cloudflare:sockets`. Loaded by the consumer on its first SMTP delivery only.
import { Email, type EmailOptions } from "worker-mailer";
import { headerText, mailParts, type OutgoingMail } from "./mail-parts";
import { SmtpError, submit } from "./smtp-client";

export interface SmtpSettings {
  host: string;
  port: number;
  security: "starttls" | "tls" | "none";
  from: string;
  username?: string;
  password?: string;
}

export type SmtpResult = { ok: true } | { ok: false; error: string; permanent: boolean; undeliverable?: boolean };

/** RFC 5322 date-time in UTC with a numeric zone. */
const mailDate = (ms: number) => new Date(ms).toUTCString().replace(/GMT$/, "+0000");

/** The message worker-mailer writes: headers, the alternative parts and the invitation. */
function emailOf(settings: SmtpSettings, mail: OutgoingMail): EmailOptions {
  const { message } = mail;
  const parts = mailParts(settings.from, mail);
  return {
    from: settings.from,
    to: { email: message.recipient },
    subject: parts.subject,
    text: parts.text,
    html: parts.html,
    headers: {
      From: parts.from,
      ...(parts.replyTo ? { "Reply-To": parts.replyTo } : {}),
      // The same id on every attempt of one message: a receiver that sees it twice can tell.
      "Message-ID": `<message-${message.id}.${message.account_id}.${message.created_at}@${settings.from.split("@")[1]}>`,
      Date: mailDate(mail.now),
      // RFC 3834: no vacation or out-of-office replies to an automatic message.
      "Auto-Submitted": "auto-generated",
    },
    ...(parts.invitation
      ? {
          attachments: [{ filename: parts.invitation.filename, content: parts.invitation.base64, mimeType: parts.invitation.contentType }],
        }
      : {}),
  };
}

export async function sendOverSmtp(settings: SmtpSettings, mail: OutgoingMail): Promise<SmtpResult> {
  try {
    await submit(
      {
        host: settings.host,
        port: settings.port,
        security: settings.security,
        username: settings.username,
        password: settings.password,
        clientName: settings.from.split("@")[1],
      },
      { from: settings.from, to: mail.message.recipient, data: new Email(emailOf(settings, mail)).getEmailData() },
    );
    return { ok: true };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // A recipient the server refuses for good (5xx to RCPT TO) or a message it will never take (5xx
    // after the data: too large, refused content) is not retried; everything else may pass later.
    const refusedForGood = error instanceof SmtpError && (error.stage === "RCPT TO" || error.stage === "message") && error.code !== null && error.code >= 500;
    // RFC 3463 5.1.x: the address itself is bad (no such user, no such domain): a hard bounce.
    const badAddress = refusedForGood && error.stage === "RCPT TO" && /^5\d\d 5\.1\.\d/.test(error.message.slice("RCPT TO: ".length));
    return { ok: false, error: `SMTP ${headerText(text, 300)}`, permanent: refusedForGood, undeliverable: badAddress };
  }
}
