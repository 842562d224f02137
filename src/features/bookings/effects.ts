// What follows a booking change, after it is stored: its webhook event(s), the customer and
// admin messages it calls for, and what it does to a payment (answered: the booking as it is then). Every path that changes a booking (private and public API,
// recurrence, cron) ends here.
import { nationalIdKeys } from "../../config";
import type { Booking } from "../../db/schema";
import type { BookingChange } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { enqueueBookingMessages } from "../messages/booking-messages";
import { emitEvent, performedByOf, type PerformedBy, type WebhookEventName } from "../webhooks/emit";
import { loadRelated } from "./queries";
import { toBookingJson, type Related } from "./serializer";

export async function afterBookingChange(
  deps: Deps,
  change: BookingChange,
  booking: Booking,
  performedBy: PerformedBy = performedByOf(deps.surface),
  opts: {
    /** False where the caller sends its own messages or none (cron expiry, recurrence occurrences). */
    messages?: boolean;
    /** Related rows already loaded for many bookings at once (a collection's), saving a query each. */
    preloaded?: Related;
    /** The booking page with the visitor's token, known only to requests that carry the token. */
    link?: string;
  } = {},
): Promise<Booking> {
  // A booking that pays: its refund by the policy, or its unpaid checkout ended (payments/after-change.ts),
  // first, so the change's event carries the payment as it is afterwards.
  const after = booking.payment ? await (await import("../payments/after-change")).paymentAfterChange(deps, change, booking) : booking;
  const related = opts.preloaded ?? (await loadRelated(deps, [after]));
  const json = toBookingJson(after, related, { timeZone: deps.account.time_zone, now: deps.now, extended: false, keys: nationalIdKeys(deps.env) });
  const events: WebhookEventName[] = [change === "paid" ? "booking.modified" : `booking.${change}`];
  // A verification that confirms at once is also a confirmation for whoever waits on that.
  if (change === "verified" && after.state === "confirmed") events.push("booking.confirmed");
  for (const event of events) {
    await emitEvent(deps.env, deps.account, event, { kind: "booking", id: booking.id, json }, performedBy, deps.now);
  }
  if (opts.messages !== false) await enqueueBookingMessages(deps, change, booking, related, opts.link);
  if (FREES_SEATS.has(change) && deps.account.waitlist_enabled) await offerToWaitlist(deps);
  return after;
}

/** Changes after which a seat may be free: the waitlist's first in line gets it now, not at the next cron. */
const FREES_SEATS = new Set<BookingChange>(["cancelled", "declined", "deleted", "modified"]);

/**
 * Only for accounts with the waitlist on (a pass is a read for everyone else's cancels too); the
 * every-minute cron passes on any seat this misses, so a failure here is logged, not answered.
 */
async function offerToWaitlist(deps: Deps): Promise<void> {
  try {
    const { offerFreedSeats } = await import("../waitlist/offers");
    await offerFreedSeats(deps);
  } catch (error) {
    console.error(JSON.stringify({ waitlist_pass: "failed", account_id: deps.account.id, error: String(error) }));
  }
}
