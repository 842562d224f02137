// The numbers of paid bookings (docs/decisions/payments.md), in one place for the schemas, the
// create and the sweep.

/** The account's payment window: how long a seat waits for its payment. */
export const PAYMENT_WINDOW_MIN = 5;
export const PAYMENT_WINDOW_MAX = 120;

/** Unpaid bookings one visitor's address may have waiting on one booking site at once. */
export const MAX_UNPAID_PER_VISITOR = 3;
/** Unpaid bookings one booking site may have waiting at once, whoever made them. */
export const MAX_UNPAID_PER_ACCOUNT = 200;

/** A payment still pending this long after its booking is read back from the provider (a lost event). */
export const RECONCILE_AFTER_MS = 3 * 60_000;
/** The "complete your payment" reminder goes once, this long after the booking, if still unpaid. */
export const REMINDER_AFTER_MS = 5 * 60_000;
