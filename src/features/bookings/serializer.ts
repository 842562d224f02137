// Booking output: every spec field in the account zone, state and active as a reader must see
// them, related objects in brief (or in full with `extended`); the public site sees less.
import type { NationalIdKeys } from "../../db/national-id";
import type { Booking, Event, Person, Resource, Service } from "../../db/schema";
import { effectiveState, isActive } from "../../domain/booking-states";
import { formatInstant, formatNullableInstant } from "../../domain/time";
import { customDataOut } from "../../http/custom-data";
import { timestampsOut } from "../../http/serialize";
import { toEventJson } from "../events/serializer";
import { toPersonJson, type PersonOut } from "../people/serializer";
import { toResourceJson } from "../resources/serializer";
import { toServiceJson } from "../services/serializer";
import { paymentOut, publicPaymentOut } from "../payments/serializer";

export interface Related {
  people: Map<number, Person>;
  resources: Map<number, Resource>;
  services: Map<number, Service>;
  events: Map<number, Event>;
  /** Seats each event's active bookings hold, for the extended event's `availability`. */
  booked: Map<number, number>;
}

/** The relations as the output needs them: people only with the columns it shows. */
export type ListedRelated = Omit<Related, "people"> & { people: Map<number, PersonOut> };

/** The columns the output shows (`active` is derived from the state): what a list reads of each booking. */
export const LISTED_BOOKING_COLUMNS = [
  "id",
  "service_id",
  "event_id",
  "resource_id",
  "person_id",
  "booked_from",
  "booked_to",
  "expires_at",
  "title",
  "notes",
  "reminder_at",
  "reminded_at",
  "paid_at",
  "external_id",
  "gateway_order_number",
  "custom_data",
  "state",
  "count",
  "collection_id",
  "status",
  "verification_code",
  "payment",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof Booking)[];

export type ListedBooking = Pick<Booking, (typeof LISTED_BOOKING_COLUMNS)[number]>;

interface View {
  timeZone: string;
  now: number;
  extended: boolean;
  /** The national id key ring (`nationalIdKeys(env)`): the person's number is answered opened. */
  keys: NationalIdKeys | null;
}

const brief = (row: { id: number; title: string | null } | undefined) => (row ? { id: row.id, title: row.title } : null);

/**
 * Each related row's output built once per row object and form: a page of 750 bookings shows each
 * of its people, resources and services many times (the same object, which JSON.stringify writes
 * out each time).
 */
const outputs = new WeakMap<object, Map<string, unknown>>();

function once<T>(row: object, form: string, build: () => T): T {
  let forms = outputs.get(row);
  if (!forms) {
    forms = new Map();
    outputs.set(row, forms);
  }
  if (!forms.has(form)) forms.set(form, build());
  return forms.get(form) as T;
}

const briefOnce = (row: { id: number; title: string | null } | undefined) => (row ? once(row, "brief", () => brief(row)) : null);

function relatedOut(booking: ListedBooking, related: ListedRelated, { timeZone, extended, keys }: View) {
  const resource = related.resources.get(booking.resource_id);
  const service = booking.service_id === null ? undefined : related.services.get(booking.service_id);
  const event = booking.event_id === null ? undefined : related.events.get(booking.event_id);
  const person = booking.person_id === null ? undefined : related.people.get(booking.person_id);
  return {
    person: person ? once(person, `person ${timeZone}`, () => toPersonJson(person, timeZone, keys)) : null,
    resource: extended && resource ? once(resource, `full ${timeZone}`, () => toResourceJson(resource, timeZone)) : briefOnce(resource),
    service: extended && service ? once(service, `full ${timeZone}`, () => toServiceJson(service, timeZone)) : briefOnce(service),
    ...(booking.event_id === null
      ? {}
      : {
          event: extended && event ? once(event, `full ${timeZone}`, () => toEventJson(event, related.booked.get(event.id) ?? 0, timeZone)) : briefOnce(event),
        }),
  };
}

/** Private API output; `verification_code` appears here and nowhere else (docs/decisions/bookings.md). */
export function toBookingJson(booking: ListedBooking, related: ListedRelated, view: View) {
  const tz = view.timeZone;
  return {
    id: booking.id,
    service_id: booking.service_id,
    event_id: booking.event_id,
    resource_id: booking.resource_id,
    person_id: booking.person_id,
    booked_from: formatInstant(booking.booked_from, tz),
    booked_to: formatInstant(booking.booked_to, tz),
    expires_at: formatNullableInstant(booking.expires_at, tz),
    title: booking.title,
    notes: booking.notes,
    reminder_at: formatNullableInstant(booking.reminder_at, tz),
    reminded_at: formatNullableInstant(booking.reminded_at, tz),
    paid_at: formatNullableInstant(booking.paid_at, tz),
    external_id: booking.external_id,
    gateway_order_number: booking.gateway_order_number,
    custom_data: customDataOut(booking.custom_data, tz),
    state: effectiveState(booking, view.now),
    active: isActive(booking, view.now),
    count: booking.count,
    collection_id: booking.collection_id,
    status: booking.status,
    verification_code: booking.verification_code,
    // Who created or changed a booking is not recorded yet; the keys exist so clients can rely on them.
    created_by: null,
    updated_by: null,
    created_at: formatInstant(booking.created_at, tz),
    updated_at: formatInstant(booking.updated_at, tz),
    ...paymentOut(booking, tz, view.now),
    ...relatedOut(booking, related, view),
  };
}

/**
 * What the booking site answers: the booking's times and state, never the code, the person's
 * stored data (a matched person may hold more than the visitor typed) or back-office fields.
 */
export function toPublicBookingJson(booking: ListedBooking, related: ListedRelated, view: View) {
  const tz = view.timeZone;
  const { resource, service, ...rest } = relatedOut(booking, related, { ...view, extended: false });
  return {
    id: booking.id,
    service_id: booking.service_id,
    event_id: booking.event_id,
    resource_id: booking.resource_id,
    // The visitor's own person, created or matched for this booking, so a widget can book again
    // or verify a phone as them; only its id, and only in this answer.
    person_id: booking.person_id,
    booked_from: formatInstant(booking.booked_from, tz),
    booked_to: formatInstant(booking.booked_to, tz),
    expires_at: formatNullableInstant(booking.expires_at, tz),
    title: booking.title,
    state: effectiveState(booking, view.now),
    active: isActive(booking, view.now),
    count: booking.count,
    ...timestampsOut(booking, tz),
    ...publicPaymentOut(booking, view.now),
    resource,
    service,
    ...("event" in rest ? { event: rest.event } : {}),
  };
}
