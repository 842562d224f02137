// A booking as the REST routes answer it without `extended`: the private API's whole booking, the
// booking site's public one, each with its resource, service and event in brief.
import { nationalIdKeys } from "../../config";
import type { Booking } from "../../db/schema";
import type { Deps } from "../../env";
import { toBookingJson, toPublicBookingJson } from "../bookings/serializer";
import { loadRelated } from "../bookings/service";

const viewOf = (deps: Deps) => ({ timeZone: deps.account.time_zone, now: deps.now, extended: false, keys: nationalIdKeys(deps.env) });

export async function bookingJson(deps: Deps, booking: Booking) {
  return toBookingJson(booking, await loadRelated(deps, [booking]), viewOf(deps));
}

export async function publicBookingJson(deps: Deps, booking: Booking) {
  return toPublicBookingJson(booking, await loadRelated(deps, [booking]), viewOf(deps));
}
