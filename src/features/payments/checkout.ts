// The checkout of a booking that waits for its payment (docs/decisions/payments.md): a Stripe
// Checkout session on the shop's own Stripe account for exactly this booking (its id as the
// reference, an idempotency key per booking), kept on the booking so the visitor can return to it.
import { and, sql } from "drizzle-orm";
import { bookings, type Booking, type Service } from "../../db/schema";
import { effectiveState } from "../../domain/booking-states";
import { slotTimeTexts } from "../../domain/slot-format";
import { offsetMsAt } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { bookingOfAccount, getBookingWithRelated, loadRelated, writeWithRelated } from "../bookings/queries";
import { localeOf } from "../messages/defaults";
import { siteOriginOf } from "../waitlist/offer-message";
import { paymentProvider } from "./provider-of";
import type { CheckoutState } from "./provider";

/** Where the payer comes back to from the checkout. */
export interface ReturnPages {
  success: string;
  cancel: string;
}

/** The private API's checkout: the integrator's own pages, or the booking site's. */
export function integratorReturnPages(deps: Pick<Deps, "env" | "account">, checkout: boolean | { success_url: string; cancel_url: string } | undefined): ReturnPages {
  if (typeof checkout === "object") return { success: checkout.success_url, cancel: checkout.cancel_url };
  const site = siteOriginOf(deps);
  return { success: `${site}/?payment=return`, cancel: `${site}/?payment=cancelled` };
}

/** The booking site's checkout: back to the visitor's own booking page, which waits for the payment to be confirmed. */
export const visitorReturnPages = (bookingPage: string): ReturnPages => ({ success: `${bookingPage}&payment=return`, cancel: `${bookingPage}&payment=cancelled` });

const unreachable = () => new ApiError(502, { error: "The payment provider could not be reached, so nothing was booked. Try again in a moment." });

/** What the payer sees on the checkout page: the service and its time in the shop's zone. */
function describe(deps: Deps, booking: Booking, service: Service | undefined): string {
  const when = slotTimeTexts(booking.booked_from, offsetMsAt(booking.booked_from, deps.account.time_zone), localeOf(deps.account.locale)).local;
  return `${service?.title ?? "Booking"}, ${when} (${deps.account.name})`;
}

async function createSession(deps: Deps, booking: Booking, pages: ReturnPages, idempotencyKey: string): Promise<CheckoutState> {
  const related = await loadRelated(deps, [booking]);
  const person = booking.person_id === null ? undefined : related.people.get(booking.person_id);
  const provider = await paymentProvider(deps.env);
  return provider.createCheckout({
    connectedAccount: deps.account.stripe_account_id!,
    reference: String(booking.id),
    accountId: deps.account.id,
    amount: booking.payment!.amount,
    currency: booking.payment!.currency,
    description: describe(deps, booking, booking.service_id === null ? undefined : related.services.get(booking.service_id)),
    customerEmail: person?.email ?? null,
    successUrl: pages.success,
    cancelUrl: pages.cancel,
    expiresAt: booking.expires_at!,
    idempotencyKey,
  });
}

/** Keeps the session on the booking (only while its payment is still pending), answering the booking as it is then. */
async function keepSession(deps: Deps, booking: Booking, session: CheckoutState): Promise<Booking> {
  const row = await writeWithRelated(
    deps,
    booking.id,
    deps.db
      .update(bookings)
      .set({
        payment: sql`json_set(${bookings.payment}, '$.checkout_session_id', ${session.sessionId}, '$.checkout_url', ${session.url})`,
        updated_at: deps.now,
      })
      .where(and(bookingOfAccount(deps, booking.id), sql`json_extract(${bookings.payment}, '$.status') = 'pending'`))
      .returning(),
  );
  return row ?? booking;
}

/**
 * The first checkout of a new booking. A provider that cannot be reached leaves nothing booked:
 * the booking (not yet announced to anyone) is removed again and its seat is free at once.
 */
export async function openCheckout(deps: Deps, booking: Booking, pages: ReturnPages): Promise<Booking> {
  let session: CheckoutState;
  try {
    session = await createSession(deps, booking, pages, `booking-checkout:${deps.account.id}:${booking.id}`);
  } catch (error) {
    console.error(JSON.stringify({ payment_checkout: "failed", account_id: deps.account.id, booking_id: booking.id, error: String(error) }));
    await deps.db.delete(bookings).where(sql`${bookingOfAccount(deps, booking.id)} AND ${bookings.state} = 'awaiting_payment'`);
    if (error instanceof ApiError) throw error;
    throw unreachable();
  }
  return keepSession(deps, booking, session);
}

/**
 * The checkout of a booking still waiting for its payment, again (a visitor back from an abandoned
 * checkout): its open session, or a new one for the same booking when that one has ended.
 */
export async function resumeCheckout(deps: Deps, booking: Booking, pages: ReturnPages, opts: { newPages?: boolean } = {}): Promise<Booking> {
  const payment = booking.payment;
  if (!payment || effectiveState(booking, deps.now) !== "awaiting_payment" || payment.status !== "pending") {
    throw ApiError.invalid(
      "payment",
      `is ${payment?.status ?? "not asked"}: there is nothing to pay${effectiveState(booking, deps.now) === "cancelled" ? " (the time was not paid in time)" : ""}`,
    );
  }
  const provider = await paymentProvider(deps.env);
  if (payment.checkout_session_id) {
    // New return pages (a new booking token): the old session, which returns to the old ones, is ended.
    const current = await (opts.newPages
      ? provider.expireCheckout(deps.account.stripe_account_id!, payment.checkout_session_id)
      : provider.readCheckout(deps.account.stripe_account_id!, payment.checkout_session_id)
    ).catch(() => null);
    if (current?.paid) {
      // Paid meanwhile (its event not here yet): settled now, and answered as it stands.
      await (await import("./settle")).observeCheckout(deps, booking.id, current);
      return getBookingWithRelated(deps, booking.id);
    }
    // The ended session is a fact of the booking's too: it can no longer be paid.
    if (current && current.status !== "open") {
      const { answeredCheckout, recordFact } = await import("./facts");
      await recordFact(deps, booking.id, answeredCheckout(current, deps.now));
    }
    if (!opts.newPages && current?.status === "open" && current.url) return booking;
  }
  const session = await createSession(deps, booking, pages, `booking-checkout:${deps.account.id}:${booking.id}:${deps.now}`).catch((error) => {
    throw error instanceof ApiError ? error : unreachable();
  });
  return keepSession(deps, booking, session);
}
