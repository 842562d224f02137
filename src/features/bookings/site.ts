// The booking site's own bookings: a visitor's booking token (random, kept only as its SHA-256),
// and what the token lets its holder do: read, verify with the code (five tries), cancel (and move:
// move.ts).
import { and, eq, lt, sql } from "drizzle-orm";
import { bookings, type Booking } from "../../db/schema";
import { effectiveState } from "../../domain/booking-states";
import { parsePeriod, subtractPeriod } from "../../domain/periods";
import { slotTimeTexts } from "../../domain/slot-format";
import { offsetMsAt } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { randomToken, secretsEqual, sha256Hex } from "../../http/secrets";
import { localeOf } from "../messages/defaults";
import type { CreateBookingBody } from "./schema";
import { followed } from "./service";
import { draftBooking, insertDraftAndRead } from "./create";
import { openCheckout, resumeCheckout, visitorReturnPages } from "../payments/checkout";
import { checkUnpaidLimits } from "../payments/unpaid-limits";
import { bookingOfAccount, getBookingWithRelated } from "./queries";
import { stateError, transition } from "./transitions";

/** Wrong codes a booking takes on the site before every further try is refused until it expires. */
const MAX_CODE_TRIES = 5;

/** 32 random bytes (256 bits) in URL-safe base64: fits a header and a link unescaped. */
const newBookingToken = () => randomToken("", 32);

/** Where the visitor's booking is shown: the booking page with the booking and its token. */
export const bookingPageLink = (siteOrigin: string, id: number, token: string) => `${siteOrigin}/?booking=${id}&token=${encodeURIComponent(token)}`;

const notFound = () => ApiError.notFound("booking");

/**
 * The booking the token opens, or 404: a missing, wrong or other booking's token looks exactly
 * like an unknown id, so a token tells nothing about bookings it does not open.
 */
export async function bookingWithToken(deps: Deps, id: number, token: string | undefined): Promise<Booking> {
  if (!token) throw notFound();
  return bookingWithTokenOf(await deps.db.query.bookings.findFirst({ where: bookingOfAccount(deps, id) }), token);
}

/** As `bookingWithToken`, with the rows its answer shows read in the same batch: a visitor's read waits once. */
export async function bookingWithTokenAndRelated(deps: Deps, id: number, token: string | undefined): Promise<Booking> {
  if (!token) throw notFound();
  return bookingWithTokenOf(await getBookingWithRelated(deps, id), token);
}

/** `bookingWithToken` for a booking already read (the account's, or undefined): the booking, or the same 404. */
export async function bookingWithTokenOf(booking: Booking | undefined, token: string): Promise<Booking> {
  if (!booking?.public_token_hash || !(await secretsEqual(await sha256Hex(token), booking.public_token_hash))) throw notFound();
  return booking;
}

export async function createOnSite(deps: Deps, body: CreateBookingBody, siteOrigin: string, opts: { heldBy?: number } = {}) {
  const token = newBookingToken();
  const draft = await draftBooking(deps, body, opts);
  if (draft.retryOf) {
    const retried = await retryPending(deps, draft.retryOf, token, siteOrigin);
    if (retried) return retried;
    // Paid or lapsed meanwhile: this is a new booking after all, under the limits.
    await checkUnpaidLimits(deps, draft.retryOf.payment?.client_hash ?? null);
  }
  const inserted = await insertDraftAndRead(deps, draft, { public_token_hash: await sha256Hex(token) });
  const link = bookingPageLink(siteOrigin, inserted.id, token);
  // A booking that pays waits for its payment, and its answer carries the checkout (payments/checkout.ts).
  const row = draft.payment ? await openCheckout(deps, inserted, visitorReturnPages(link)) : inserted;
  const booking = await followed(deps, "created", { row, changed: true }, { link });
  return { booking, token };
}

/**
 * The visitor's own booking of the same time still waiting for its payment, answered again with
 * its checkout and a new token (the old page is gone; the old token no longer opens it).
 */
async function retryPending(deps: Deps, pending: Booking, token: string, siteOrigin: string) {
  const [reopened] = await deps.db
    .update(bookings)
    .set({ public_token_hash: await sha256Hex(token) })
    .where(and(bookingOfAccount(deps, pending.id), eq(bookings.state, "awaiting_payment")))
    .returning();
  if (!reopened) return null;
  const booking = await resumeCheckout(deps, reopened, visitorReturnPages(bookingPageLink(siteOrigin, pending.id, token)), { newPages: true });
  return { booking, token };
}

/** Takes one try from the booking's budget, or answers 429 when the five are spent. */
async function takeCodeTry(deps: Deps, booking: Booking): Promise<void> {
  const [taken] = await deps.db
    .update(bookings)
    .set({ verify_attempts: sql`${bookings.verify_attempts} + 1` })
    .where(and(bookingOfAccount(deps, booking.id), lt(bookings.verify_attempts, MAX_CODE_TRIES)))
    .returning({ id: bookings.id });
  if (taken) return;
  const seconds = Math.max(1, Math.ceil(((booking.expires_at ?? deps.now) - deps.now) / 1000));
  throw new ApiError(429, { error: "Too many wrong codes: this booking can no longer be verified. Book again when it has expired." }, { "Retry-After": String(seconds) });
}

export async function verifyOnSite(deps: Deps, id: number, token: string | undefined, code: string | null | undefined, siteOrigin: string) {
  const booking = await bookingWithToken(deps, id, token);
  if (effectiveState(booking, deps.now) !== "awaiting_verification") throw stateError(booking, deps.now, "verified");
  if (!code) throw ApiError.invalid("verification_code", "can't be blank");
  // The try is counted before the comparison, so racing guesses cannot exceed the budget.
  await takeCodeTry(deps, booking);
  if (!booking.verification_code || !(await secretsEqual(code.trim(), booking.verification_code))) {
    throw ApiError.invalid("verification_code", "is invalid");
  }
  return followed(deps, "verified", transition(deps, id, "verify"), { link: bookingPageLink(siteOrigin, id, token!) });
}

/** The last moment a visitor may cancel: the account's cancellation_period before the start, else the start. */
export const cancellableUntil = (deps: Deps, booking: Booking): number => changeableUntil(deps, booking.booked_from);

/**
 * The last moment a visitor may change a booking that starts at `start` (cancel it, move it, or
 * move one there): the account's cancellation_period before it in the account's zone, else `start`.
 */
export function changeableUntil(deps: Pick<Deps, "account">, start: number): number {
  const period = deps.account.cancellation_period ? parsePeriod(deps.account.cancellation_period) : null;
  return period ? subtractPeriod(start, period, deps.account.time_zone) : start;
}

/** The account's switch for visitor moves: `allow_rescheduling`, or when unset, as `allow_cancellation`. */
export const visitorMayMove = (account: Deps["account"]) => account.allow_rescheduling ?? account.allow_cancellation;

/** "Monday, 7 January 2030, 10:00 (Europe/Oslo)": an instant as a refusal names it, in the account's words. */
export function deadlineText(deps: Pick<Deps, "account">, at: number): string {
  const { account } = deps;
  return `${slotTimeTexts(at, offsetMsAt(at, account.time_zone), localeOf(account.locale)).local} (${account.time_zone})`;
}

export async function cancelOnSite(deps: Deps, id: number, token: string | undefined, siteOrigin: string) {
  const booking = await bookingWithToken(deps, id, token);
  const { account } = deps;
  if (!account.allow_cancellation) {
    throw ApiError.invalid("state", `can't be cancelled online: contact ${account.name} to cancel`);
  }
  const until = cancellableUntil(deps, booking);
  if (deps.now > until) throw ApiError.invalid("state", `could be cancelled online until ${deadlineText(deps, until)}`);
  return followed(deps, "cancelled", transition(deps, id, "cancel"), { link: bookingPageLink(siteOrigin, id, token!) });
}

/** The visitor's way back to the checkout of their booking still waiting for its payment. */
export async function checkoutOnSite(deps: Deps, id: number, token: string | undefined, siteOrigin: string): Promise<Booking> {
  const booking = await bookingWithToken(deps, id, token);
  return resumeCheckout(deps, booking, visitorReturnPages(bookingPageLink(siteOrigin, id, token!)));
}
