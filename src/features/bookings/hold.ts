// `expires_at` as input (spec: Booking, "time after which an unverified booking expires"): an
// integrator may shorten or extend the hold of a booking awaiting verification. The cron sweep and
// the read-time expiry both read the stored column, so whatever is kept here is what they use.
import type { Booking } from "../../db/schema";
import { effectiveState } from "../../domain/booking-states";
import type { Deps } from "../../env";
import type { ErrorCollector } from "../../http/errors";
import { instantOf } from "./references";
import { VERIFICATION_TTL_MS } from "./verification";

const ONLY_AWAITING = "can only be set on a booking awaiting verification";
const IN_FUTURE = "must be in the future";
const BLANK = "can't be blank: a booking awaiting verification expires";

/**
 * The hold of a new booking: the given time when it starts awaiting verification, else the
 * default 20 minutes (docs/decisions/bookings.md). On a booking that needs no verification a time is refused
 * rather than ignored, so an integrator learns it had no effect; `null` is "not given".
 */
export function holdOnCreate(deps: Deps, errors: ErrorCollector, text: string | null | undefined, awaitsVerification: boolean): number | null {
  const given = instantOf(deps, errors, "expires_at", text);
  if (given === undefined || given === null) return awaitsVerification ? deps.now + VERIFICATION_TTL_MS : null;
  if (!awaitsVerification) errors.add("expires_at", ONLY_AWAITING);
  else if (given <= deps.now) errors.add("expires_at", IN_FUTURE);
  return awaitsVerification ? given : null;
}

const sameSecond = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.floor(a / 1000) === Math.floor(b / 1000));

/**
 * A new hold for an existing booking, or undefined to leave it. Clients PUT back the whole object
 * they read, so the value the booking already has (to the second, as output shows it) is no
 * change whatever the state; any other value needs a booking still awaiting verification.
 */
export function holdOnUpdate(deps: Deps, errors: ErrorCollector, booking: Booking, text: string | null | undefined): number | undefined {
  const given = instantOf(deps, errors, "expires_at", text);
  const unreadable = typeof text === "string" && given === null; // instantOf has named it
  if (given === undefined || unreadable || sameSecond(given, booking.expires_at)) return undefined;
  if (effectiveState(booking, deps.now) !== "awaiting_verification") errors.add("expires_at", ONLY_AWAITING);
  else if (given === null) errors.add("expires_at", BLANK);
  else if (given <= deps.now) errors.add("expires_at", IN_FUTURE);
  return given ?? undefined;
}
