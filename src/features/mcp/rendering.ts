// A booking as the REST routes answer it: the private API's whole booking, the booking site's public one.
import type { Booking } from "../../db/schema";
import type { Deps } from "../../env";
import { toBookingJson, toPublicBookingJson } from "../bookings/serializer";
import { loadRelated } from "../bookings/service";

const viewOf = (deps: Deps, extended: boolean) => ({ timeZone: deps.account.time_zone, now: deps.now, extended });

export async function bookingJson(deps: Deps, booking: Booking, extended = false) {
  return toBookingJson(booking, await loadRelated(deps, [booking]), viewOf(deps, extended));
}

export async function publicBookingJson(deps: Deps, booking: Booking) {
  return toPublicBookingJson(booking, await loadRelated(deps, [booking]), viewOf(deps, false));
}
