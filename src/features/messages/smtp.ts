// E-mail over SMTP from the Worker (MESSAGE_PROVIDER=smtp): worker-mailer's Email writes the MIME
// message (multipart/alternative of the text and HTML parts, quoted-printable, and the calendar
// invitation as a `text/calendar; method=…` part), smtp-client.ts submits it over
// `cloudflare:sockets`. Loaded by the consumer on its first SMTP delivery only.
import { Email, encodeHeader, type EmailOptions } from "worker-mailer";
import type { Account } from "../../db/schema";
import { invitationText } from "../calendar-feeds/ics";
import { localeOf } from "./defaults";
import { htmlOf } from "./html";
import type { InvitationData } from "./invitation";
import type { Message } from "./serializer";
import { SmtpError, submit } from "./smtp-client";

export interface SmtpSettings {
  host: string;
  port: number;
  security: "starttls" | "tls" | "none";
  from: string;
  username?: string;
  password?: string;
}

export type SmtpResult = { ok: true } | { ok: false; error: string; permanent: boolean };

/**
 * A header phrase or subject on one line: worker-mailer writes names and subjects as given (it
 * encodes only non-ASCII text), so CR, LF and other controls, which could start a header of their
 * own, become spaces here; quotes and backslashes would end a quoted display name.
 */
export const headerText = (text: string, max = 200) =>
  text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim().slice(0, max);
const displayName = (name: string) => headerText(name.replace(/["\\]/g, " "), 78);

/**
 * `"Name" <address>`, or `=?UTF-8?Q?…?= <address>` for a name beyond ASCII: RFC 2047 allows an
 * encoded word as a phrase but not inside quotes, where worker-mailer would put it.
 */
const mailbox = (name: string, address: string) =>
  /^[\x20-\x7e]*$/.test(name) ? `"${name}" <${address}>` : `${encodeHeader(name)} <${address}>`;

/** RFC 5322 date-time in UTC with a numeric zone. */
const mailDate = (ms: number) => new Date(ms).toUTCString().replace(/GMT$/, "+0000");

const base64 = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

export interface SmtpMail {
  message: Message;
  account: Account;
  subject: string;
  text: string;
  invitation: (InvitationData & { sequence: number }) | null;
  now: number;
}

/** The message worker-mailer writes: headers, the alternative parts and the invitation. */
export function emailOf(settings: SmtpSettings, mail: SmtpMail): EmailOptions {
  const { message, account, invitation } = mail;
  const domain = settings.from.split("@")[1];
  const shop = displayName(account.name) || domain;
  const subject = headerText(mail.subject);
  const organizer = { name: shop, email: account.email || settings.from };
  return {
    from: { name: shop, email: settings.from },
    to: { email: message.recipient },
    ...(account.email ? { reply: { name: shop, email: account.email } } : {}),
    subject,
    text: mail.text,
    html: htmlOf({ subject, text: mail.text, locale: localeOf(account.locale), shop }),
    headers: {
      From: mailbox(shop, settings.from),
      ...(account.email ? { "Reply-To": mailbox(shop, account.email) } : {}),
      // The same id on every attempt of one message: a receiver that sees it twice can tell.
      "Message-ID": `<message-${message.id}.${message.account_id}.${message.created_at}@${domain}>`,
      Date: mailDate(mail.now),
      // RFC 3834: no vacation or out-of-office replies to an automatic message.
      "Auto-Submitted": "auto-generated",
    },
    ...(invitation ? {
      attachments: [{
        filename: invitation.method === "CANCEL" ? "cancel.ics" : "invite.ics",
        content: base64(invitationText({
          method: invitation.method, uid: invitation.uid, from: invitation.from, to: invitation.to, title: invitation.title,
          location: invitation.location, sequence: invitation.sequence, stamp: message.created_at, organizer, attendee: invitation.attendee,
        })),
        // RFC 6047: the method parameter names the iTIP method of the part.
        mimeType: `text/calendar; charset=UTF-8; method=${invitation.method}`,
      }],
    } : {}),
  };
}

export async function sendOverSmtp(settings: SmtpSettings, mail: SmtpMail): Promise<SmtpResult> {
  const domain = settings.from.split("@")[1];
  try {
    await submit(
      { host: settings.host, port: settings.port, security: settings.security, username: settings.username, password: settings.password, clientName: domain },
      { from: settings.from, to: mail.message.recipient, data: new Email(emailOf(settings, mail)).getEmailData() },
    );
    return { ok: true };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // A recipient the server refuses for good (5xx to RCPT TO) is not retried; everything else may pass later.
    const permanent = error instanceof SmtpError && error.stage === "RCPT TO" && error.code !== null && error.code >= 500;
    return { ok: false, error: `SMTP ${headerText(text, 300)}`, permanent };
  }
}
