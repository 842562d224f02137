// Bookings: the operations routes call. Each lives in its own module; this is their one door, and
// the place every change is followed by its effects (webhooks), so no path forgets them.
import type { Booking } from "../../db/schema";
import type { Written } from "../../db/written";
import type { BookingAction, BookingChange } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { createBooking as create } from "./create";
import { afterBookingChange } from "./effects";
import { setStatus as writeStatus, transition as writeTransition, verifyWithCode as writeVerifyWithCode } from "./transitions";
import { updateBooking as update } from "./update";

export { LISTINGS, type Listing, type Owner } from "./list";
export { getBookingByExternalId, getBookingWithRelated, loadRelated } from "./queries";

type ApiAction = Exclude<BookingAction, "expire">;

const CHANGE_OF: Record<ApiAction, BookingChange> = {
  verify: "verified",
  confirm: "confirmed",
  decline: "declined",
  cancel: "cancelled",
  delete: "deleted",
};

/** The one "write, then announce" door: the private API's operations and the booking site's. */
export async function followed(
  deps: Deps,
  change: BookingChange,
  write: Written<Booking> | Promise<Written<Booking>>,
  opts: { messages?: boolean; link?: string } = {},
): Promise<Booking> {
  const { row, changed } = await write;
  // A repeated action (deleting a deleted booking) writes nothing, and so announces nothing.
  return changed ? afterBookingChange(deps, change, row, undefined, opts) : row;
}

export const createBooking = (deps: Deps, body: Parameters<typeof create>[1]) => followed(deps, "created", create(deps, body));

export const updateBooking = (deps: Deps, id: number, body: Parameters<typeof update>[2]) => followed(deps, "modified", update(deps, id, body));

export const transition = (deps: Deps, id: number, action: ApiAction, flags: Parameters<typeof writeTransition>[3]) =>
  followed(deps, CHANGE_OF[action], writeTransition(deps, id, action, flags));

export const verifyWithCode = (deps: Deps, id: number, code: string | null | undefined, flags: Parameters<typeof writeVerifyWithCode>[3]) =>
  followed(deps, "verified", writeVerifyWithCode(deps, id, code, flags));

// `status` is the account's own label, nothing a customer is told about.
export const setStatus = (deps: Deps, id: number, status: string | null) => followed(deps, "modified", writeStatus(deps, id, status), { messages: false });
