// The private API's operations (`/api/v1`, the shop's key) and the reference routes on the API
// host, one entry each. Writes that consume their target prepare a fresh one per request.
import { addDays } from "../../src/domain/time";
import { confirmedBooking, fullChairHour, phoneOf, sentCodes, settled, stockOf, unconfirmedBooking, unpaidBooking, unverifiedBooking, waitlistBody } from "./shop";
import { deliveryEventEntries } from "./delivery-events";
import type { Kind, RouteEntry, Shop, Wire } from "./types";

type Method = Wire["method"];

/** An entry of the private API: its name is the path template under /api/v1. */
function op<P = undefined>(method: Method, template: string, entry: Omit<RouteEntry<P>, "name" | "surface" | "operation" | "kind"> & { kind?: Kind }): RouteEntry<P> {
  const name = `${method} /api/v1${template}`;
  return { name, surface: "private", operation: name, kind: entry.kind ?? (method === "GET" ? "read" : "write"), ...entry };
}

/** A read or a repeatable write of a fixed path. */
const fixed = (method: Method, template: string, path: (s: Shop) => string, json?: (s: Shop) => unknown) =>
  op(method, template, { request: (s) => s.api(method, path(s), json?.(s)) });

const range = (s: Shop, days: number) => `from=${s.firstDay}&to=${addDays(s.firstDay, days)}`;
const LISTINGS = ["", "/all", "/recent", "/unconfirmed", "/upcoming", "/visible"];

const account: RouteEntry[] = [
  fixed("GET", "/client", () => "/client"),
  // The account's own name: the only setting no other entry reads.
  fixed(
    "PUT",
    "/client",
    () => "/client",
    (s) => ({ client: { name: `Routes shop ${s.next()}` } }),
  ),
  fixed("GET", "/client/webhook_secret", () => "/client/webhook_secret"),
  fixed("POST", "/client/webhook_secret/rotate", () => "/client/webhook_secret/rotate"),
  fixed("GET", "/client/holidays", () => "/client/holidays?from=2027-01-01&to=2027-12-31"),
  fixed("GET", "/client/users", () => "/client/users"),
  fixed("GET", "/client/users/{id}", (s) => `/client/users/${s.ids.userLink}`),
  fixed(
    "POST",
    "/client/users",
    () => "/client/users",
    (s) => {
      const n = s.next();
      return { user: { name: `Staff ${n}`, email: `staff${n}@example.com` }, role: "staff" };
    },
  ),
  fixed("POST", "/client/stripe_onboarding", () => "/client/stripe_onboarding"),
];

const services: RouteEntry[] = [
  fixed("GET", "/services", () => "/services"),
  fixed("GET", "/services/appointments", () => "/services/appointments"),
  fixed("GET", "/services/attendances", () => "/services/attendances"),
  fixed("GET", "/services/{id}", (s) => `/services/${s.ids.cut}`),
  fixed(
    "POST",
    "/services",
    () => "/services",
    (s) => ({ service: { title: `Service ${s.next()}` } }),
  ),
  fixed(
    "PUT",
    "/services/{id}",
    (s) => `/services/${s.ids.cut}`,
    (s) => ({ service: { description: `Described ${s.next()}` } }),
  ),
  op("DELETE", "/services/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/services", { service: { title: `Doomed ${s.next()}` } }))).service.id as number,
    request: (s, id) => s.api("DELETE", `/services/${id}`),
  }),
  fixed("GET", "/services/{id}/slots", (s) => `/services/${s.ids.cut}/slots?${range(s, 6)}`),
  fixed("GET", "/services/{id}/next_available_date", (s) => `/services/${s.ids.cut}/next_available_date?from=${s.firstDay}`),
  fixed("GET", "/services/{id}/available_dates", (s) => `/services/${s.ids.cut}/available_dates?${range(s, 30)}`),
];

const newService = async (s: Shop) => (await s.must(s.api("POST", "/services", { service: { title: `Linked ${s.next()}` } }))).service.id as number;

const catalogueObjects: RouteEntry[] = [
  fixed("GET", "/providers", () => "/providers"),
  fixed("GET", "/providers/{id}", (s) => `/providers/${s.ids.provider}`),
  op("POST", "/providers", {
    prepare: newService,
    request: (s, service) => s.api("POST", "/providers", { provider: { resource_id: s.ids.annex, service_id: service } }),
  }),
  op("DELETE", "/providers/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/providers", { provider: { resource_id: s.ids.annex, service_id: await newService(s) } }))).provider.id as number,
    request: (s, id) => s.api("DELETE", `/providers/${id}`),
  }),
  fixed("GET", "/categories", () => "/categories"),
  fixed("GET", "/categories/{id}", (s) => `/categories/${s.ids.category}`),
  fixed("GET", "/categories/{id}/services", (s) => `/categories/${s.ids.category}/services`),
  fixed(
    "POST",
    "/categories",
    () => "/categories",
    (s) => ({ category: { title: `Category ${s.next()}`, service_id_list: [s.ids.cut] } }),
  ),
  fixed(
    "PUT",
    "/categories/{id}",
    (s) => `/categories/${s.ids.category}`,
    (s) => ({ category: { title: `Hair ${s.next()}` } }),
  ),
  op("DELETE", "/categories/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/categories", { category: { title: `Doomed ${s.next()}` } }))).category.id as number,
    request: (s, id) => s.api("DELETE", `/categories/${id}`),
  }),
];

const newPerson = async (s: Shop) => {
  const n = s.next();
  return (await s.must(s.api("POST", "/people", { person: { name: `Person ${n}`, email: `person${n}@example.com` } }))).person.id as number;
};

const people: RouteEntry[] = [
  fixed("GET", "/people", () => "/people"),
  fixed("GET", "/people/all", () => "/people/all"),
  fixed("GET", "/people/{id}", (s) => `/people/${s.ids.kari}`),
  ...LISTINGS.map((listing) => fixed("GET", `/people/{id}/bookings${listing}`, (s) => `/people/${s.ids.kari}/bookings${listing}`)),
  fixed("GET", "/people/{id}/children", (s) => `/people/${s.ids.kari}/children`),
  fixed(
    "POST",
    "/people",
    () => "/people",
    (s) => {
      const n = s.next();
      return { person: { name: `New ${n}`, email: `new${n}@example.com` } };
    },
  ),
  fixed(
    "PUT",
    "/people/{id}",
    (s) => `/people/${s.ids.kari}`,
    (s) => ({ person: { city: `Oslo ${s.next()}` } }),
  ),
  op("DELETE", "/people/{id}", { prepare: newPerson, request: (s, id) => s.api("DELETE", `/people/${id}`) }),
  op("PUT", "/people/{id}/undelete", {
    prepare: async (s) => {
      const id = await newPerson(s);
      await s.must(s.api("DELETE", `/people/${id}`));
      return id;
    },
    request: (s, id) => s.api("PUT", `/people/${id}/undelete`),
  }),
  fixed("GET", "/people/{id}/export", (s) => `/people/${s.ids.kari}/export`),
  // Each erasure takes a person of its own, so every sample erases one (the shop's Kari stays).
  op("POST", "/people/{id}/erase", { prepare: newPerson, request: (s, id) => s.api("POST", `/people/${id}/erase`) }),
  op("POST", "/people/{id}/merge", {
    prepare: async (s) => ({ kept: await newPerson(s), merged: await newPerson(s) }),
    request: (s, { kept, merged }) => s.api("POST", `/people/${kept}/merge?merge_person_id=${merged}`),
  }),
  fixed(
    "POST",
    "/people/perishable_token/send",
    () => "/people/perishable_token/send",
    (s) => ({ person: { phone_number: phoneOf(s.next()) } }),
  ),
  op("POST", "/people/perishable_token/verify", {
    // One wait on the message queue for a batch of codes, not one per request.
    prepare: stockOf("private codes", (s) => sentCodes(s, "api", 5)),
    request: (s, { phone, code }) => s.api("POST", "/people/perishable_token/verify", { perishable_token: code, person: { phone_number: phone } }),
  }),
];

const resources: RouteEntry[] = [
  fixed("GET", "/resources", () => "/resources"),
  fixed("GET", "/resources/{id}", (s) => `/resources/${s.ids.room}`),
  fixed(
    "POST",
    "/resources",
    () => "/resources",
    (s) => ({ resource: { title: `Resource ${s.next()}` } }),
  ),
  fixed(
    "PUT",
    "/resources/{id}",
    (s) => `/resources/${s.ids.annex}`,
    (s) => ({ resource: { description: `Described ${s.next()}` } }),
  ),
  op("DELETE", "/resources/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/resources", { resource: { title: `Doomed ${s.next()}` } }))).resource.id as number,
    request: (s, id) => s.api("DELETE", `/resources/${id}`),
  }),
  fixed("GET", "/resources/{id}/opening_hours", (s) => `/resources/${s.ids.room}/opening_hours?${range(s, 6)}`),
  fixed("GET", "/resources/{id}/exception_dates", (s) => `/resources/${s.ids.annex}/exception_dates`),
  ...(["POST", "PUT"] as const).map((method) =>
    fixed(
      method,
      "/resources/{id}/exception_dates",
      (s) => `/resources/${s.ids.annex}/exception_dates`,
      (s) => ({
        resource_exception_dates: [{ exception_date: addDays(s.firstDay, 400 + (s.next() % 300)), opening_hours: ["09:00", "12:00"] }],
      }),
    ),
  ),
  fixed("GET", "/resources/{id}/exception_dates/{date}", (s) => `/resources/${s.ids.annex}/exception_dates/${s.ids.exceptionDate}`),
  ...(["POST", "PUT"] as const).map((method) =>
    fixed(
      method,
      "/resources/{id}/exception_dates/{date}",
      (s) => `/resources/${s.ids.annex}/exception_dates/${s.ids.exceptionDate}`,
      (s) => ({ resource_exception_date: { opening_hours: ["09:00", `1${s.next() % 10}:00`] } }),
    ),
  ),
  op("DELETE", "/resources/{id}/exception_dates/{date}", {
    prepare: async (s) => {
      const date = addDays(s.firstDay, 200 + (s.next() % 90));
      await s.must(s.api("PUT", `/resources/${s.ids.annex}/exception_dates/${date}`, { resource_exception_date: { opening_hours: null } }));
      return date;
    },
    request: (s, date) => s.api("DELETE", `/resources/${s.ids.annex}/exception_dates/${date}`),
  }),
];

const holdBody = (s: Shop) => {
  const slot = s.nextSlot();
  return { slot_hold: { service_id: s.ids.cut, booked_from: slot.from, booked_to: slot.to } };
};

const holdsAndWaitlist: RouteEntry[] = [
  op("POST", "/slots/holds", {
    request: (s) => s.api("POST", "/slots/holds", holdBody(s)),
    // At most 50 live holds per account: each is released again.
    cleanup: async (s, reply) => void (await s.must(s.api("DELETE", `/slots/holds/${JSON.parse(reply.text).slot_hold.id}`))),
  }),
  fixed("GET", "/slots/holds/{id}", (s) => `/slots/holds/${s.ids.hold}`),
  op("DELETE", "/slots/holds/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/slots/holds", holdBody(s)))).slot_hold.id as number,
    request: (s, id) => s.api("DELETE", `/slots/holds/${id}`),
  }),
  fixed("GET", "/waitlist", (s) => `/waitlist?service_id=${s.ids.trim}`),
  op("POST", "/waitlist", {
    prepare: async (s) => (await fullChairHour(s)).slot,
    request: (s, slot) => s.api("POST", "/waitlist", waitlistBody(s, slot)),
    // Every booking change walks the account's lines (waitlist/offers.ts), two waits a line: each
    // place is left again, so no later entry's count depends on how often this one was asked.
    cleanup: async (s, reply) => void (await s.must(s.api("DELETE", `/waitlist/${JSON.parse(reply.text).waitlist_entry.id}`))),
  }),
  fixed("GET", "/waitlist/{id}", (s) => `/waitlist/${s.ids.waitlistEntry}`),
  op("DELETE", "/waitlist/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/waitlist", waitlistBody(s, (await fullChairHour(s)).slot)))).waitlist_entry.id as number,
    request: (s, id) => s.api("DELETE", `/waitlist/${id}`),
  }),
];

const recurringBody = (s: Shop) => {
  const slot = s.nextSlot();
  return { booking: { resource_id: s.ids.room, booked_from: slot.from, booked_to: slot.to, title: `Weekly ${s.next()}` }, recurring: { rrule: "FREQ=WEEKLY;COUNT=2" } };
};

const bookings: RouteEntry[] = [
  fixed("GET", "/bookings/recurring/{collection_id}", (s) => `/bookings/recurring/${s.ids.bookingCollection}`),
  fixed("GET", "/bookings/recurring/{collection_id}/status", (s) => `/bookings/recurring/${s.ids.bookingCollection}/status`),
  op("DELETE", "/bookings/recurring/{collection_id}", {
    // Collections whose items the queue has made, as one is when it is deleted; made three at a time, the wait shared.
    prepare: stockOf("collections", async (s) => {
      const made: string[] = [];
      for (let i = 0; i < 3; i++) made.push((await s.must(s.api("POST", "/bookings/recurring", recurringBody(s)))).collection_id);
      for (const id of made) await settled(s, "bookings", id);
      return made;
    }),
    request: (s, id) => s.api("DELETE", `/bookings/recurring/${id}`),
  }),
  ...LISTINGS.map((listing) => fixed("GET", `/bookings${listing}`, () => `/bookings${listing}`)),
  fixed("GET", "/bookings/find_by/external_id/{external_id}", (s) => `/bookings/find_by/external_id/${s.ids.externalId}`),
  fixed("GET", "/bookings/{id}", (s) => `/bookings/${s.ids.booking}`),
  fixed(
    "POST",
    "/bookings",
    () => "/bookings",
    (s) => {
      const slot = s.nextSlot();
      return { booking: { resource_id: s.ids.room, service_id: s.ids.cut, booked_from: slot.from, booked_to: slot.to, person_id: s.ids.kari } };
    },
  ),
  fixed(
    "PUT",
    "/bookings/{id}",
    (s) => `/bookings/${s.ids.booking}`,
    (s) => ({ booking: { title: `Titled ${s.next()}` } }),
  ),
  op("PUT", "/bookings/{id}/verify", { prepare: async (s) => (await unverifiedBooking(s)).id, request: (s, id) => s.api("PUT", `/bookings/${id}/verify`, {}) }),
  op("PUT", "/bookings/{id}/confirm", { prepare: unconfirmedBooking, request: (s, id) => s.api("PUT", `/bookings/${id}/confirm`, {}) }),
  op("PUT", "/bookings/{id}/decline", { prepare: unconfirmedBooking, request: (s, id) => s.api("PUT", `/bookings/${id}/decline`, {}) }),
  op("PUT", "/bookings/{id}/cancel", { prepare: confirmedBooking, request: (s, id) => s.api("PUT", `/bookings/${id}/cancel`, {}) }),
  op("PUT", "/bookings/{id}/verify_code", {
    prepare: unverifiedBooking,
    request: (s, booking) => s.api("PUT", `/bookings/${booking.id}/verify_code`, { verification_code: booking.verification_code }),
  }),
  fixed(
    "PUT",
    "/bookings/{id}/status",
    (s) => `/bookings/${s.ids.booking}/status`,
    (s) => ({ status: `noted ${s.next()}` }),
  ),
  op("DELETE", "/bookings/{id}", { prepare: confirmedBooking, request: (s, id) => s.api("DELETE", `/bookings/${id}`, {}) }),
  fixed(
    "POST",
    "/bookings/{id}/checkout",
    (s) => `/bookings/${s.ids.paidBooking}/checkout`,
    () => ({}),
  ),
  op("POST", "/bookings/{id}/payment", {
    prepare: async (s) => (await unpaidBooking(s)).id,
    request: (s, id) => s.api("POST", `/bookings/${id}/payment`, { payment: { reference: `till-${s.next()}` } }),
  }),
];

const eventBody = (s: Shop, hour: number) => {
  const day = addDays(s.firstDay, 2 + (s.next() % 60));
  return {
    event: {
      resource_id: s.ids.hall,
      service_id: s.ids.yoga,
      capacity: 10,
      starts_at: `${day} ${String(hour).padStart(2, "0")}:00`,
      ends_at: `${day} ${String(hour + 1).padStart(2, "0")}:00`,
      title: "Pilates",
    },
  };
};

const events: RouteEntry[] = [
  fixed("GET", "/events/recurring/{collection_id}", (s) => `/events/recurring/${s.ids.eventCollection}`),
  fixed("GET", "/events/recurring/{collection_id}/status", (s) => `/events/recurring/${s.ids.eventCollection}/status`),
  fixed("GET", "/events/{id}/bookings", (s) => `/events/${s.ids.event}/bookings`),
  fixed("GET", "/events", () => "/events"),
  fixed("GET", "/events/{id}", (s) => `/events/${s.ids.event}`),
  fixed(
    "POST",
    "/events",
    () => "/events",
    (s) => eventBody(s, 7),
  ),
  fixed(
    "PUT",
    "/events/{id}",
    (s) => `/events/${s.ids.event}`,
    (s) => ({ event: { title: `Yoga ${s.next()}` } }),
  ),
  op("DELETE", "/events/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/events", eventBody(s, 21)))).event.id as number,
    request: (s, id) => s.api("DELETE", `/events/${id}`),
  }),
];

const webHookBody = (s: Shop) => ({ web_hook: { target_url: `https://hooks.example.com/${s.next()}`, event: "booking.*", active: false } });

const integrations: RouteEntry[] = [
  fixed("GET", "/web_hooks", () => "/web_hooks"),
  fixed("GET", "/web_hooks/{id}", (s) => `/web_hooks/${s.ids.webHook}`),
  fixed("POST", "/web_hooks", () => "/web_hooks", webHookBody),
  fixed(
    "PUT",
    "/web_hooks/{id}",
    (s) => `/web_hooks/${s.ids.webHook}`,
    () => ({ web_hook: { event: "booking.*" } }),
  ),
  op("DELETE", "/web_hooks/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/web_hooks", webHookBody(s)))).web_hook.id as number,
    request: (s, id) => s.api("DELETE", `/web_hooks/${id}`),
  }),
  fixed("GET", "/web_hooks/{id}/deliveries", (s) => `/web_hooks/${s.ids.webHook}/deliveries`),
  fixed("POST", "/web_hooks/{id}/deliveries/{delivery_id}/redeliver", (s) => `/web_hooks/${s.ids.webHook}/deliveries/${s.ids.delivery}/redeliver`),
  fixed("GET", "/messages", () => "/messages"),
  fixed("GET", "/messages/{id}", (s) => `/messages/${s.ids.message}`),
  fixed("GET", "/calendar_feeds", () => "/calendar_feeds"),
  // The account's own feed: rotating it ends no URL another entry reads.
  fixed(
    "POST",
    "/calendar_feeds",
    () => "/calendar_feeds",
    () => ({}),
  ),
  op("DELETE", "/calendar_feeds/{id}", {
    prepare: async (s) => (await s.must(s.api("POST", "/calendar_feeds", { calendar_feed: { resource_id: s.ids.hall } }))).calendar_feed.id as number,
    request: (s, id) => s.api("DELETE", `/calendar_feeds/${id}`),
  }),
  fixed("GET", "/calendar_subscriptions", () => "/calendar_subscriptions"),
  op("POST", "/calendar_subscriptions", {
    request: (s) => s.api("POST", "/calendar_subscriptions", { calendar_subscription: { resource_id: s.ids.hall, url: s.ids.roomFeedUrl, name: `Room ${s.next()}` } }),
    // A resource takes a few subscriptions only: each is ended again.
    cleanup: async (s, reply) => void (await s.must(s.api("DELETE", `/calendar_subscriptions/${JSON.parse(reply.text).calendar_subscription.id}`))),
  }),
  fixed("GET", "/calendar_subscriptions/conflicts", () => "/calendar_subscriptions/conflicts"),
  fixed("GET", "/calendar_subscriptions/{id}", (s) => `/calendar_subscriptions/${s.ids.subscription}`),
  op("DELETE", "/calendar_subscriptions/{id}", {
    prepare: async (s) =>
      (await s.must(s.api("POST", "/calendar_subscriptions", { calendar_subscription: { resource_id: s.ids.chair, url: s.ids.roomFeedUrl } }))).calendar_subscription
        .id as number,
    request: (s, id) => s.api("DELETE", `/calendar_subscriptions/${id}`),
  }),
];

/** Routes on the API host without the key: the document, its page, the icon, the health check, the payment provider's events. */
const reference: RouteEntry[] = [
  ...["/api/v1/openapi.json", "/api/v1/docs", "/api/v1/docs.css", "/favicon.ico", "/health"].map(
    (path): RouteEntry => ({
      name: `GET ${path}`,
      surface: "private",
      operation: `GET ${path}`,
      kind: "read",
      request: (s) => s.root("GET", path),
    }),
  ),
  {
    name: "POST /api/v1/payments/stripe/events",
    surface: "private",
    operation: "POST /api/v1/payments/stripe/events",
    kind: "write",
    // A paid checkout: the stand-in answers the signed checkout.session.completed it made, which confirms the booking.
    prepare: async (s) => s.stripe("POST", `/_test/sessions/${(await unpaidBooking(s)).session}/pay`) as Promise<{ event: string; signature: string }>,
    request: (s, { event, signature }) =>
      s.root("POST", "/api/v1/payments/stripe/events", event, {
        "content-type": "application/json",
        "stripe-signature": signature,
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      }),
  },
];

/**
 * Last: the queue's consumer makes each collection's items after the answer, and its writes bump
 * the listing version while later entries run, so a cached list read would meet a stale answer by chance.
 */
const recurrences: RouteEntry[] = [
  fixed("POST", "/bookings/recurring", () => "/bookings/recurring", recurringBody),
  fixed(
    "POST",
    "/events/recurring",
    () => "/events/recurring",
    (s) => ({ ...eventBody(s, 20), recurrence: { rrule: "FREQ=WEEKLY;COUNT=2" } }),
  ),
];

export const privateEntries: RouteEntry[] = [
  ...account,
  ...services,
  ...catalogueObjects,
  ...people,
  ...resources,
  ...holdsAndWaitlist,
  ...bookings,
  ...events,
  ...integrations,
  ...reference,
  ...deliveryEventEntries,
  ...recurrences,
];
