// The booking actions (verify, verify_code, confirm, decline, cancel, delete) and `status`, each a
// compare-and-swap on the state it read, so of two racing actions exactly one takes effect.
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { bookings, type Booking } from "../../db/schema";
import type { Written } from "../../db/written";
import { ACTIVE_STATES, effectiveState, nextState, type BookingAction } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { secretsEqual } from "../../http/secrets";
import { bookingOfAccount, getBooking, writeWithRelated } from "./queries";

const DONE: Record<Exclude<BookingAction, "expire">, string> = {
  verify: "verified",
  confirm: "confirmed",
  decline: "declined",
  cancel: "cancelled",
  delete: "deleted",
};

/** 400 on `state`, naming the state the booking is in now. */
export const stateError = (booking: Booking, now: number, verb: string) => ApiError.invalid("state", `is ${effectiveState(booking, now)}: the booking can't be ${verb}`);

export async function transition(
  deps: Deps,
  id: number,
  action: Exclude<BookingAction, "expire">,
  flags: Record<string, boolean | undefined> = {},
): Promise<Written<Booking>> {
  const booking = await getBooking(deps, id);
  const to = nextState(action, effectiveState(booking, deps.now), { confirmManually: deps.account.confirm_manually });
  if (to === null) throw stateError(booking, deps.now, DONE[action]);
  // Deleting a deleted booking changes nothing, not even updated_at.
  if (action === "delete" && booking.state === "deleted") return { row: booking, changed: false };

  const given = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as Record<string, boolean>;
  const verified = action === "verify" ? { expires_at: null, verification_code: null } : {};
  const conditions = [bookingOfAccount(deps, id), eq(bookings.state, booking.state)];
  // A code must not verify a booking that expired between the read and this write.
  if (action === "verify") conditions.push(or(isNull(bookings.expires_at), gt(bookings.expires_at, deps.now))!);
  const row = await writeWithRelated(
    deps,
    id,
    deps.db
      .update(bookings)
      .set({
        state: to,
        active: ACTIVE_STATES.has(to),
        ...verified,
        ...(Object.keys(given).length > 0 ? { message_flags: { ...booking.message_flags, ...given } } : {}),
        updated_at: deps.now,
      })
      .where(and(...conditions))
      .returning(),
  );
  if (!row) throw stateError(await getBooking(deps, id), deps.now, DONE[action]);
  return { row, changed: true };
}

/** verify_code: the code must match (compared in constant time) before the verify transition. */
export async function verifyWithCode(deps: Deps, id: number, code: string | null | undefined, flags: Record<string, boolean | undefined>): Promise<Written<Booking>> {
  const booking = await getBooking(deps, id);
  if (effectiveState(booking, deps.now) !== "awaiting_verification") throw stateError(booking, deps.now, DONE.verify);
  if (!code) throw ApiError.invalid("verification_code", "can't be blank");
  if (!booking.verification_code || !(await secretsEqual(code.trim(), booking.verification_code))) {
    throw ApiError.invalid("verification_code", "is invalid");
  }
  return transition(deps, id, "verify", flags);
}

/** `status` is the account's own label: any text, in any state, no transition rules. */
export async function setStatus(deps: Deps, id: number, status: string | null): Promise<Written<Booking>> {
  // One round trip: the write finds the booking (scoped to the account) or it is a 404.
  const row = await writeWithRelated(deps, id, deps.db.update(bookings).set({ status, updated_at: deps.now }).where(bookingOfAccount(deps, id)).returning());
  if (!row) throw ApiError.notFound("booking");
  return { row, changed: true };
}
