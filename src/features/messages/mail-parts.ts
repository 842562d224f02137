// What every e-mail provider sends alike: header text on one line, the sender and reply-to with the
// shop's name, the HTML part and the calendar invitation (loaded with the provider that sends them).
import { encodeHeader } from "worker-mailer";
import type { Account } from "../../db/schema";
import { invitationText } from "../calendar-feeds/ics";
import { localeOf } from "./defaults";
import { htmlOf } from "./html";
import type { InvitationData } from "./invitation";
import type { Message } from "./serializer";

/**
 * A header phrase or subject on one line: CR, LF and other controls, which could start a header
 * of their own, become spaces (worker-mailer writes subjects and names as given when they are ASCII).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters headerText removes
const CONTROLS = /[\u0000-\u001f\u007f]+/g;
export const headerText = (text: string, max = 200) => text.replace(CONTROLS, " ").replace(/\s+/g, " ").trim().slice(0, max);

/** A display name: one line, and no quote or backslash to end the quoted string it is written in. */
const displayName = (name: string) => headerText(name.replace(/["\\]/g, " "), 78);

/**
 * `"Name" <address>`, or `=?UTF-8?Q?…?= <address>` for a name beyond ASCII: RFC 2047 allows an
 * encoded word as a phrase but not inside quotes, where worker-mailer would put it.
 */
const mailbox = (name: string, address: string) => (/^[\x20-\x7e]*$/.test(name) ? `"${name}" <${address}>` : `${encodeHeader(name)} <${address}>`);

const base64 = (text: string) => {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
};

export interface OutgoingMail {
  message: Message;
  account: Account;
  subject: string;
  text: string;
  invitation: (InvitationData & { sequence: number }) | null;
  now: number;
}

/** The parts of one e-mail, as every provider sends them. */
export function mailParts(from: string, mail: OutgoingMail) {
  const { message, account, invitation } = mail;
  const shop = displayName(account.name) || from.split("@")[1];
  const subject = headerText(mail.subject);
  return {
    shop,
    subject,
    from: mailbox(shop, from),
    replyTo: account.email ? mailbox(shop, account.email) : null,
    text: mail.text,
    html: htmlOf({ subject, text: mail.text, locale: localeOf(account.locale), shop }),
    // RFC 6047: the part's `method` parameter names the iTIP method of the object it holds.
    invitation: invitation && {
      filename: invitation.method === "CANCEL" ? "cancel.ics" : "invite.ics",
      contentType: `text/calendar; charset=UTF-8; method=${invitation.method}`,
      base64: base64(
        invitationText({
          method: invitation.method,
          uid: invitation.uid,
          from: invitation.from,
          to: invitation.to,
          title: invitation.title,
          location: invitation.location,
          sequence: invitation.sequence,
          stamp: message.created_at,
          organizer: { name: shop, email: account.email || from },
          attendee: invitation.attendee,
        }),
      ),
    },
  };
}
