// What each MCP endpoint offers: the booking site's tools are a visitor's journey under the
// public rules; the private API's add what its key may do besides (docs/decisions/mcp.md).
import { paymentsEnabled } from "../payments/stage";
import type { Account } from "../../db/schema";
import { EMAIL_VERIFICATION, SMS_VERIFICATION } from "../../domain/verification-methods";
import { VERIFICATION_TTL_MS } from "../bookings/verification";
import { privateBookingTools } from "./private-tools";
import { siteBookingTools } from "./site-tools";
import { findingTools, holdingTools } from "./time-tools";
import type { McpTool } from "./tool";

const siteFinding = findingTools("site");
const privateTools: readonly McpTool[] = [...findingTools("private"), ...holdingTools, ...privateBookingTools];

/** Holds are offered on the site only where the account enabled them, as its POST /slots/holds is. */
export const siteToolsOf = (account: Account): readonly McpTool[] => [...siteFinding, ...(account.slot_holds_enabled ? holdingTools : []), ...siteBookingTools];

export const privateToolsOf = (): readonly McpTool[] => privateTools;

/** How the account's bookings are proven, and what the person needs for it. */
const VERIFICATION = {
  [SMS_VERIFICATION]: { by: "SMS", needs: "a phone_number" },
  [EMAIL_VERIFICATION]: { by: "e-mail", needs: "an email" },
} as Record<number, { by: string; needs: string } | undefined>;

function verificationNote(account: Account): string {
  const method = VERIFICATION[account.verification_method];
  if (!method) return "Bookings need no verification code.";
  return `Bookings are verified by ${method.by}: the person needs ${method.needs}, receives a five-digit code, and verify_booking takes it within ${VERIFICATION_TTL_MS / 60_000} minutes.`;
}

export function siteInstructions(account: Account): string {
  return [
    `The booking site of ${account.name}. Every time is in ${account.time_zone}; find_times also shows each in the person's own zone when given.`,
    `To book: list_services, find_available_dates, find_times, ${account.slot_holds_enabled ? "hold_time while you ask for the person's details, " : ""}then book with the person's name and contact.`,
    verificationNote(account),
    account.confirm_manually ? `${account.name} confirms each booking itself: it awaits their confirmation after booking.` : "",
    paymentsEnabled(account)
      ? `Some services are paid online: a booking of one is awaiting_payment and its seat is held for ${account.payment_window_minutes} minutes; give the person its payment.checkout_url to pay. It is confirmed once the payment arrives (show_booking tells).`
      : "",
    "Keep the booking_id and booking_token book answers: show_booking and cancel_booking need both.",
  ]
    .filter(Boolean)
    .join(" ");
}

export function privateInstructions(account: Account): string {
  return [
    `The private booking API of ${account.name}, with its API key. Every time is in ${account.time_zone}.`,
    "The booking site's tools without its public rules (book may set confirm, ignore_capacity, person_id),",
    "plus reads over bookings and people and the confirm, decline and cancel actions.",
  ].join(" ");
}
