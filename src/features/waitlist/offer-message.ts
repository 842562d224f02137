// Tells the person offered a seat (docs/decisions/waitlist.md): by e-mail and SMS as their
// attributes allow, through the message queue and the account's Liquid templates (kind "offer"),
// with the link that opens the offer on the booking page. The link carries the offer's secret,
// which exists nowhere else: the message is how the person gets it.
import type { WaitlistEntry } from "../../db/schema";
import { configOf } from "../../config";
import type { Deps } from "../../env";
import { enqueueMessage } from "../messages/enqueue";
import type { Channel } from "../messages/kinds";
import { renderMessage } from "../messages/render";
import { templatesFor } from "../messages/templates";
import { phoneE164 } from "../people/identity";

/** The account's booking site: plain http on a local root domain (wrangler dev), https elsewhere. */
export function siteOriginOf(deps: Pick<Deps, "env" | "account">): string {
  const root = configOf(deps.env).ROOT_DOMAIN;
  return `${root === "localhost" ? "http" : "https"}://${deps.account.subdomain}.${root}`;
}

const offerLink = (origin: string, entryId: number, secret: string) => `${origin}/?waitlist=${entryId}&offer=${encodeURIComponent(secret)}`;

export async function sendOffer(deps: Deps, entry: WaitlistEntry, secret: string): Promise<void> {
  const attributes = entry.person_attributes as { name?: unknown; email?: unknown; phone_number?: unknown };
  const service = await deps.db.query.services.findFirst({ where: (s, { eq, and }) => and(eq(s.id, entry.service_id), eq(s.account_id, deps.account.id)) });
  const person = { name: typeof attributes.name === "string" ? attributes.name : "", email: typeof attributes.email === "string" ? attributes.email : null };
  const phone = typeof attributes.phone_number === "string" ? phoneE164(attributes.phone_number, deps.account.country_code) : null;
  const recipients: [Channel, string | null][] = [
    ["email", person.email],
    ["sms", phone],
  ];
  for (const [channel, recipient] of recipients) {
    if (!recipient) continue;
    const rendered = await renderMessage(templatesFor("offer", channel, deps.account, service ?? null), {
      account: deps.account,
      service: service ?? null,
      person: { id: null, name: person.name, email: person.email, phone_number: phone, phone_e164: phone },
      offer: { from: entry.booked_from, to: entry.booked_to, expiresAt: entry.offer_expires_at ?? deps.now, url: offerLink(siteOriginOf(deps), entry.id, secret) },
    });
    await enqueueMessage(deps, { kind: "offer", channel, recipient, ...rendered }, "record");
  }
}
