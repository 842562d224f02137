// SMS through Twilio's Messages API (SMS_PROVIDER=twilio), in its documented REST form: one
// form-encoded POST with the account's SID and auth token as Basic credentials. Twilio's Node
// library was not used: it sends through axios with Node's HTTPS agent (https-proxy-agent) and
// would add far more to the bundle than this one request needs.
import type { Message } from "./serializer";

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** An E.164 number or alphanumeric sender id, or a Messaging Service SID (MG…). */
  from: string;
  /** The API's origin: unset for api.twilio.com; a local stand-in in the tests. */
  baseUrl?: string;
  /** Where Twilio reports the SMS's delivery (twilio-events.ts); unset, it reports nothing. */
  statusCallback?: string;
}

export type TwilioResult = { ok: true; providerMessageId?: string } | { ok: false; error: string; permanent: boolean; undeliverable?: boolean };

const TIMEOUT_MS = 10_000;

/**
 * Twilio's error codes for a request that would fail the same way again: a number that cannot take
 * SMS or is not a valid number (21211, 21614, 21408 region not enabled), a recipient who replied
 * STOP (21610), a body Twilio refuses (21617 too long).
 */
const REFUSED_FOR_GOOD = new Set([21211, 21408, 21610, 21614, 21617]);
/** Of those, the ones about the number itself: later messages to it are refused too. */
const NUMBER_REFUSES = new Set([21211, 21610, 21614]);

export async function sendWithTwilio(settings: TwilioSettings, message: Message, body: string): Promise<TwilioResult> {
  const form = new URLSearchParams({ To: message.recipient, Body: body });
  form.set(settings.from.startsWith("MG") ? "MessagingServiceSid" : "From", settings.from);
  if (settings.statusCallback) {
    // Our ids ride in the callback's URL, which Twilio's signature covers (twilio-events.ts).
    const callback = new URL(settings.statusCallback);
    callback.searchParams.set("account_id", String(message.account_id));
    callback.searchParams.set("message_id", String(message.id));
    form.set("StatusCallback", callback.toString());
  }
  const url = `${settings.baseUrl ?? "https://api.twilio.com"}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${settings.accountSid}:${settings.authToken}`)}`,
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "booking-edge-api messages",
      },
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, error: `Twilio unreachable: ${String(error)}`, permanent: false };
  }
  if (response.ok) {
    const sent = (await response.json().catch(() => null)) as { sid?: unknown } | null;
    return { ok: true, ...(typeof sent?.sid === "string" ? { providerMessageId: sent.sid } : {}) };
  }
  const answer = (await response.json().catch(() => null)) as { code?: number; message?: string } | null;
  const code = typeof answer?.code === "number" ? answer.code : null;
  return {
    ok: false,
    error: `Twilio ${response.status}${code ? ` ${code}` : ""}: ${String(answer?.message ?? response.statusText).slice(0, 300)}`,
    // Rate limits (429), Twilio's own failures and a refused login may pass later; a refused recipient or body does not.
    permanent: code !== null && REFUSED_FOR_GOOD.has(code),
    undeliverable: code !== null && NUMBER_REFUSES.has(code),
  };
}
