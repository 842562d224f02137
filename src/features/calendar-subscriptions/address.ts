// A subscription's address: what may be fetched, and what the answers show instead of it. The
// address is a secret (Google's "secret address in iCal format" reads the whole calendar), and it
// must never make the Worker fetch inside a network the tenant should not reach: the same rule, in
// the same place, as a web hook's target (webhooks/ssrf.ts).
import { targetUrlProblem, type TargetPolicy } from "../webhooks/ssrf";

/** `webcal://` is how calendar apps name an http(s) feed; it is fetched over https. */
export function feedUrl(raw: string): string {
  const trimmed = raw.trim();
  return /^webcals?:\/\//i.test(trimmed) ? trimmed.replace(/^webcals?:/i, "https:") : trimmed;
}

/** Why the address may not be subscribed to or fetched, as a 400 message on `url`; null when it may. */
export const addressProblem = (raw: string, policy: TargetPolicy): string | null => targetUrlProblem(feedUrl(raw), policy);

/** What the answers show: the host and the address's last four characters, never enough to read the calendar. */
export function addressHint(raw: string): string {
  const url = new URL(feedUrl(raw));
  const whole = `${url.host}${url.pathname}${url.search}`;
  return `${url.protocol}//${url.host}/…${whole.slice(-4)}`;
}
