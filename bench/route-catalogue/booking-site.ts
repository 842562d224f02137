// The booking site's operations (`https://<subdomain>…`, no key): the page and its assets, the
// widget's reads and a visitor's writes, each opened by the token or secret its create answered.
import { addDays } from "../../src/domain/time";
import { fullChairHour, phoneOf, sentCodes, stockOf, visitorBooking, waitlistBody } from "./shop";
import type { Kind, RouteEntry, Shop, Wire } from "./types";

type Method = Wire["method"];

function op<P = undefined>(method: Method, template: string, entry: Omit<RouteEntry<P>, "name" | "surface" | "operation" | "kind"> & { kind?: Kind }): RouteEntry<P> {
  return {
    name: `${method} https://<subdomain>${template}`,
    surface: "site",
    operation: `${method} ${template}`,
    kind: entry.kind ?? (method === "GET" ? "read" : "write"),
    ...entry,
  };
}

const fixed = (method: Method, template: string, path: (s: Shop) => string, headers?: (s: Shop) => Record<string, string>) =>
  op(method, template, { request: (s) => s.site(method, path(s), method === "GET" ? undefined : {}, headers?.(s)) });

const bookingToken = (booking: { token: string }) => ({ "x-booking-token": booking.token });
const holdBody = (s: Shop) => {
  const slot = s.nextSlot();
  return { slot_hold: { service_id: s.ids.cut, booked_from: slot.from, booked_to: slot.to } };
};
/** A place in the line of a full chair hour, and the token that opens it. */
const joined = async (s: Shop) => {
  const full = await fullChairHour(s);
  const made = await s.must(s.site("POST", "/waitlist", waitlistBody(s, full.slot)));
  return { id: made.waitlist_entry.id as number, token: made.waitlist_token as string, filler: full.booking };
};

export const siteEntries: RouteEntry[] = [
  fixed("GET", "/", () => "/"),
  fixed("GET", "/booking-page.js", () => "/booking-page.js"),
  fixed("GET", "/booking-page.css", () => "/booking-page.css"),
  fixed("GET", "/widget.js", () => "/widget.js"),
  fixed("GET", "/services", () => "/services"),
  fixed("GET", "/services/{id}", (s) => `/services/${s.ids.cut}`),
  fixed("GET", "/services/{id}/slots", (s) => `/services/${s.ids.cut}/slots?from=${s.firstDay}&to=${addDays(s.firstDay, 6)}`),
  fixed("GET", "/services/{id}/next_available_date", (s) => `/services/${s.ids.cut}/next_available_date?from=${s.firstDay}`),
  fixed("GET", "/services/{id}/available_dates", (s) => `/services/${s.ids.cut}/available_dates?from=${s.firstDay}&to=${addDays(s.firstDay, 30)}`),
  op("POST", "/bookings", {
    request: (s) => {
      const slot = s.nextSlot();
      const n = s.next();
      return s.site("POST", "/bookings", {
        booking: { service_id: s.ids.cut, booked_from: slot.from, booked_to: slot.to, person_attributes: { name: `Visitor ${n}`, email: `site${n}@example.com` } },
      });
    },
  }),
  fixed(
    "GET",
    "/bookings/{id}",
    (s) => `/bookings/${s.ids.siteBooking.id}`,
    (s) => bookingToken(s.ids.siteBooking),
  ),
  op("PUT", "/bookings/{id}/verify_code", {
    // The code the visitor was e-mailed, as the private API shows it.
    prepare: async (s) => {
      const booking = await visitorBooking(s);
      const { verification_code: code } = (await s.must(s.api("GET", `/bookings/${booking.id}`))).booking;
      return { ...booking, code: code as string };
    },
    request: (s, booking) => s.site("PUT", `/bookings/${booking.id}/verify_code`, { verification_code: booking.code }, bookingToken(booking)),
  }),
  op("PUT", "/bookings/{id}/cancel", {
    prepare: (s) => visitorBooking(s),
    request: (s, booking) => s.site("PUT", `/bookings/${booking.id}/cancel`, {}, bookingToken(booking)),
  }),
  op("PUT", "/bookings/{id}/move", {
    // The visitor's booking moves to the next free slot of the same service.
    prepare: (s) => visitorBooking(s),
    request: (s, booking) => {
      const slot = s.nextSlot();
      return s.site("PUT", `/bookings/${booking.id}/move`, { booking: { booked_from: slot.from, booked_to: slot.to } }, bookingToken(booking));
    },
  }),
  fixed(
    "GET",
    "/bookings/{id}/export",
    (s) => `/bookings/${s.ids.siteBooking.id}/export`,
    (s) => bookingToken(s.ids.siteBooking),
  ),
  fixed(
    "POST",
    "/bookings/{id}/checkout",
    (s) => `/bookings/${s.ids.sitePaidBooking.id}/checkout`,
    (s) => bookingToken(s.ids.sitePaidBooking),
  ),
  op("POST", "/slots/holds", {
    request: (s) => s.site("POST", "/slots/holds", holdBody(s)),
    // A visitor may hold 3 times at once: each is released again.
    cleanup: async (s, reply) => {
      const { slot_hold: hold, hold_secret: secret } = JSON.parse(reply.text);
      await s.must(s.site("DELETE", `/slots/holds/${hold.id}`, undefined, { "x-hold-secret": secret }));
    },
  }),
  fixed(
    "GET",
    "/slots/holds/{id}",
    (s) => `/slots/holds/${s.ids.siteHold.id}`,
    (s) => ({ "x-hold-secret": s.ids.siteHold.secret }),
  ),
  op("DELETE", "/slots/holds/{id}", {
    prepare: async (s) => {
      const made = await s.must(s.site("POST", "/slots/holds", holdBody(s)));
      return { id: made.slot_hold.id as number, secret: made.hold_secret as string };
    },
    request: (s, hold) => s.site("DELETE", `/slots/holds/${hold.id}`, undefined, { "x-hold-secret": hold.secret }),
  }),
  op("POST", "/waitlist", {
    prepare: async (s) => (await fullChairHour(s)).slot,
    request: (s, slot) => s.site("POST", "/waitlist", waitlistBody(s, slot)),
    // Left again: every booking change walks the account's lines (route-catalogue/private-api.ts).
    cleanup: async (s, reply) => {
      const { waitlist_entry: entry, waitlist_token: token } = JSON.parse(reply.text);
      await s.must(s.site("DELETE", `/waitlist/${entry.id}`, undefined, { "x-waitlist-token": token }));
    },
  }),
  fixed(
    "GET",
    "/waitlist/{id}",
    (s) => `/waitlist/${s.ids.siteWaitlistEntry.id}`,
    (s) => ({ "x-waitlist-token": s.ids.siteWaitlistEntry.token }),
  ),
  op("DELETE", "/waitlist/{id}", {
    prepare: joined,
    request: (s, place) => s.site("DELETE", `/waitlist/${place.id}`, undefined, { "x-waitlist-token": place.token }),
  }),
  op("POST", "/waitlist/{id}/accept", {
    // The seat frees: the first in line is offered it at once.
    prepare: async (s) => {
      const place = await joined(s);
      await s.must(s.api("PUT", `/bookings/${place.filler}/cancel`, {}));
      return place;
    },
    request: (s, place) => s.site("POST", `/waitlist/${place.id}/accept`, {}, { "x-waitlist-token": place.token }),
  }),
  op("POST", "/people/perishable_token/send", { request: (s) => s.site("POST", "/people/perishable_token/send", { person: { phone_number: phoneOf(s.next()) } }) }),
  op("POST", "/people/perishable_token/verify", {
    prepare: stockOf("site codes", (s) => sentCodes(s, "site", 5)),
    request: (s, { phone, code }) => s.site("POST", "/people/perishable_token/verify", { perishable_token: code, person: { phone_number: phone } }),
  }),
  fixed("GET", "/calendar/{file}", (s) => s.ids.annexFeedFile),
  fixed("GET", "/calendar/bookings/{file}", (s) => s.ids.bookingFile),
];
