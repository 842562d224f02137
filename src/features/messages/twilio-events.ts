// Twilio's status callbacks for SMS (the StatusCallback each message names, twilio.ts): signed with
// X-Twilio-Signature, HMAC-SHA1 keyed with the account's auth token over the URL Twilio called
// followed by every POST parameter's name and value in name order, base64. The callback's URL
// carries our account and message ids, so they are covered by the signature too.
import type { DeliveryEvent } from "./delivery-events";
import type { DeliveryOutcome } from "./delivery-status";
import { DeliveryEventRefused } from "./resend-events";

const encoder = new TextEncoder();

/** Twilio's signature of a request to `url` with form `params`. */
export async function twilioSignature(authToken: string, url: string, params: Record<string, string>): Promise<string> {
  const text = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  const key = await crypto.subtle.importKey("raw", encoder.encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
  return btoa(String.fromCharCode(...mac));
}

/** Constant time over equal lengths: the comparison does not tell how much of a forgery was right. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The URL as Twilio may have signed it: as called, and with the scheme's default port written or left out. */
function urlForms(url: string): string[] {
  const parsed = new URL(url);
  const forms = [url];
  const defaultPort = parsed.protocol === "https:" ? "443" : "80";
  if (!parsed.port) forms.push(url.replace(parsed.host, `${parsed.hostname}:${defaultPort}`));
  else if (parsed.port === defaultPort) forms.push(url.replace(parsed.host, parsed.hostname));
  return forms;
}

/**
 * Error codes of an SMS that will not reach that number however often it is sent: a recipient
 * who replied STOP (21610), a message blocked (30004), an unknown destination (30005), a landline
 * or unreachable carrier (30006). Others (30003 handset off, 30008 unknown) may pass another day.
 */
const NUMBER_REFUSES = new Set(["21610", "30004", "30005", "30006"]);

function meaning(status: string, errorCode: string | undefined): { outcome: DeliveryOutcome | null; undeliverable: boolean; detail: string | null } {
  if (status === "delivered") return { outcome: "delivered", undeliverable: false, detail: null };
  if (status === "undelivered" || status === "failed") {
    return {
      outcome: "undelivered",
      undeliverable: errorCode !== undefined && NUMBER_REFUSES.has(errorCode),
      detail: `Twilio: ${status}${errorCode ? ` (error ${errorCode})` : ""}`,
    };
  }
  // queued, sending, sent, accepted, scheduled, read, ...: recorded, nothing changes.
  return { outcome: null, undeliverable: false, detail: null };
}

const positiveId = (text: string | null) => {
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** The verified callback, or DeliveryEventRefused (unsigned, wrongly signed, or not about one of our messages). */
export async function verifyTwilioEvent(authToken: string, url: string, raw: string, signature: string | undefined, now: number): Promise<DeliveryEvent> {
  if (!signature) throw new DeliveryEventRefused("it carries no X-Twilio-Signature");
  const params = Object.fromEntries(new URLSearchParams(raw));
  let verified = false;
  for (const form of urlForms(url)) verified ||= sameText(await twilioSignature(authToken, form, params), signature);
  if (!verified) throw new DeliveryEventRefused("its X-Twilio-Signature does not verify");
  const query = new URL(url).searchParams;
  const accountId = positiveId(query.get("account_id"));
  const messageId = positiveId(query.get("message_id"));
  if (!accountId || !messageId) throw new DeliveryEventRefused("its callback URL names no account_id and message_id of this service");
  const sid = params.MessageSid ?? params.SmsSid;
  const status = params.MessageStatus ?? params.SmsStatus;
  if (!sid || !status) throw new DeliveryEventRefused("it is not a message status callback (no MessageSid and MessageStatus)");
  return {
    provider: "twilio",
    // Twilio sends no event id: a status is reported once per message, so the pair names the event.
    eventId: `${sid}:${status}`,
    accountId,
    messageId,
    providerMessageId: sid,
    kind: status,
    ...meaning(status, params.ErrorCode || undefined),
    occurredAt: now,
  };
}
