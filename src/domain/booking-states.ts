// The booking state machine of the spec ("States and transitions"), as pure functions.
export const BOOKING_STATES = [
  "awaiting_verification",
  "awaiting_payment",
  "awaiting_confirmation",
  "confirmed",
  "declined",
  "cancelled",
  "deleted",
  "verification_expired",
] as const;
export type BookingState = (typeof BOOKING_STATES)[number];

/** States that hold capacity and read as `active: true`. */
export const ACTIVE_STATES: ReadonlySet<BookingState> = new Set(["awaiting_verification", "awaiting_payment", "awaiting_confirmation", "confirmed"]);

export type BookingAction = "verify" | "confirm" | "decline" | "cancel" | "delete" | "expire";

/**
 * A stored change as it is announced: webhook `booking.<change>` and the messages it calls for.
 * "paid" (a payment confirmed the booking: docs/decisions/payments.md) is announced as
 * `booking.modified`, with the messages a verification's confirmation calls for.
 */
export type BookingChange = "created" | "modified" | "verified" | "confirmed" | "declined" | "cancelled" | "deleted" | "paid";

interface Timed {
  state: string;
  expires_at: number | null;
}

/** States that end by time alone at `expires_at`, and what they read as after it. */
const LAPSES_TO: Partial<Record<BookingState, BookingState>> = {
  awaiting_verification: "verification_expired",
  // An unpaid booking's payment window (docs/decisions/payments.md): the seat is free at its end.
  awaiting_payment: "cancelled",
};

/**
 * The state as a reader must see it: an unverified booking past `expires_at` is
 * `verification_expired` at once, and an unpaid one `cancelled`, whether or not the sweep has
 * persisted that yet.
 */
export function effectiveState(booking: Timed, now: number): BookingState {
  const state = booking.state as BookingState;
  const lapsed = LAPSES_TO[state];
  if (lapsed && booking.expires_at !== null && booking.expires_at <= now) return lapsed;
  return state;
}

/** A state that ends by time alone (`expires_at`), as the SQL of bookings/active-sql.ts reads it too. */
export const lapsesByTime = (state: string) => LAPSES_TO[state as BookingState] !== undefined;

export const isActive = (booking: Timed, now: number) => ACTIVE_STATES.has(effectiveState(booking, now));

/** Where a new booking starts (spec: the two "(new)" rows; `confirm=true` skips verification). */
export function initialState(opts: { confirm: boolean; verificationRequired: boolean; confirmManually: boolean }): BookingState {
  if (opts.confirm) return "confirmed";
  if (opts.verificationRequired) return "awaiting_verification";
  return opts.confirmManually ? "awaiting_confirmation" : "confirmed";
}

/**
 * The state an action leads to from `from`, or null when the transition table does not allow
 * it (the caller answers 400 on `state`). Decisions beyond the table: `cancel` is allowed from
 * every active state (a customer may withdraw a request not yet confirmed), `confirm` and
 * `decline` also settle `awaiting_payment`, and `delete` is allowed from any state.
 */
export function nextState(action: BookingAction, from: BookingState, opts: { confirmManually: boolean }): BookingState | null {
  switch (action) {
    case "verify":
      if (from !== "awaiting_verification") return null;
      return opts.confirmManually ? "awaiting_confirmation" : "confirmed";
    case "confirm":
      return from === "awaiting_confirmation" || from === "awaiting_payment" ? "confirmed" : null;
    case "decline":
      return from === "awaiting_confirmation" || from === "awaiting_payment" ? "declined" : null;
    case "cancel":
      return ACTIVE_STATES.has(from) ? "cancelled" : null;
    case "delete":
      return "deleted";
    case "expire":
      return from === "awaiting_verification" ? "verification_expired" : null;
  }
}
