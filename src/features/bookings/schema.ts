// Booking input: POST/PUT /bookings with their extra parameters, the actions' bodies and the list query.
import * as z from "zod";
import { BOOKING_STATES } from "../../domain/booking-states";
import { syncCursor } from "../../db/sync-order";
import {
  boolean,
  customData,
  date,
  dateTime,
  idOrIds,
  integer,
  LONG_TEXT,
  nullableDateTime,
  nullableInteger,
  optionalText,
  requiredText,
  page,
  text,
} from "../../http/fields";

const flag = () => boolean().optional();

/**
 * `person_attributes` is checked by person-link.ts, not here: its errors take the spec's nested
 * shape (`{person: [...], person_attributes: {field: [...]}}`), which a flat zod path cannot give.
 */
const looseObject = () => z.record(z.string(), z.unknown()).optional();

const attributes = {
  service_id: nullableInteger({ min: 1 }),
  event_id: nullableInteger({ min: 1 }),
  resource_id: nullableInteger({ min: 1 }),
  person_id: nullableInteger({ min: 1 }),
  booked_from: dateTime().optional(),
  booked_to: dateTime().optional(),
  title: optionalText(),
  notes: optionalText(LONG_TEXT),
  reminder_at: nullableDateTime(),
  expires_at: nullableDateTime(),
  paid_at: nullableDateTime(),
  external_id: optionalText(),
  gateway_order_number: optionalText(),
  custom_data: customData(),
  count: integer({ min: 1, max: 100_000 }).optional(),
  status: optionalText(),
  person_attributes: looseObject(),
};

/**
 * Who may set each attribute on the booking site (docs/decisions/payments.md, "Every way in"): a
 * visitor chooses their time and says who they are (and may leave a title, notes, custom data and
 * a status, stored for the shop and never shown back). What records money (`paid_at`,
 * `gateway_order_number`), the integrator's own key (`external_id`, which names a booking in its
 * lookups), a stored person (`person_id`), the lapse of an unverified booking (`expires_at`) and
 * when an SMS reminder goes (`reminder_at`: the account's setting decides) are the product's or
 * the shop's, and are ignored there: the create goes on as if they were not sent. Exhaustive, so
 * a new attribute must be placed.
 */
export const SITE_ATTRIBUTES: Record<keyof typeof attributes, "visitor" | "shop"> = {
  service_id: "visitor",
  event_id: "visitor",
  resource_id: "visitor",
  booked_from: "visitor",
  booked_to: "visitor",
  title: "visitor",
  notes: "visitor",
  custom_data: "visitor",
  count: "visitor",
  person_attributes: "visitor",
  status: "visitor",
  person_id: "shop",
  expires_at: "shop",
  reminder_at: "shop",
  paid_at: "shop",
  external_id: "shop",
  gateway_order_number: "shop",
};

/** The booking attributes a visitor sent, without those only the product or the shop may set. */
export function visitorAttributes<T extends Record<string, unknown>>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([name]) => SITE_ATTRIBUTES[name as keyof typeof attributes] !== "shop")) as T;
}

/** Message parameters: kept on the booking for delivery, never acted on here. */
export const CREATE_MESSAGE_FLAGS = [
  "add_messages",
  "verification_send_email",
  "verification_send_sms",
  "confirmation_send_email",
  "confirmation_send_sms",
  "notification_send_email",
  "notification_send_sms",
] as const;
export const UPDATE_MESSAGE_FLAGS = ["modification_send_email", "modification_send_sms"] as const;
const ACTION_MESSAGE_FLAGS = [
  "confirmation_send_email",
  "confirmation_send_sms",
  "notification_send_email",
  "notification_send_sms",
  "decline_send_email",
  "decline_send_sms",
  "cancellation_send_email",
  "cancellation_send_sms",
] as const;

const flags = <K extends string>(names: readonly K[]) => Object.fromEntries(names.map((n) => [n, flag()])) as { [P in K]: ReturnType<typeof flag> };

const bookingInput = z.object({ ...attributes, public_booking: flag() });

/** Where a payer returns from the checkout: an http(s) address of the integrator's own. */
const returnUrl = () =>
  z
    .string()
    .max(2000)
    .url("is not an http or https address")
    .refine((u) => /^https?:\/\//i.test(u), "is not an http or https address");

export const createBookingBody = z.object({
  booking: bookingInput,
  // The secret a slot hold answered (features/holds): the booking takes over the held seats.
  hold_secret: optionalText().meta({
    description:
      "The hold_secret POST /slots/holds answered: the booking takes over the hold's seats (same service, times or event, resource; count up to the hold's), and nothing can refuse it for capacity. A lapsed hold's secret is ignored.",
  }),
  confirm: flag(),
  ignore_capacity: flag(),
  add_reminder_sms: flag(),
  extended: flag(),
  // Paid bookings on the private API (docs/decisions/payments.md); the booking site always checks out.
  checkout: z
    .union([flag(), z.object({ success_url: returnUrl(), cancel_url: returnUrl() })])
    .optional()
    .meta({
      description:
        "For a service that takes payment: the booking waits as awaiting_payment, and the answer's payment carries a checkout_url for exactly this booking. true, or the pages the payer returns to (default: the booking site).",
    }),
  ...flags(CREATE_MESSAGE_FLAGS),
});

export const updateBookingBody = z.object({
  booking: z.object(attributes),
  ignore_capacity: flag(),
  add_reminder_sms: flag(),
  extended: flag(),
  ...flags(UPDATE_MESSAGE_FLAGS),
});

export const actionBody = z.object({ extended: flag(), ...flags(ACTION_MESSAGE_FLAGS) });

export const verifyCodeBody = actionBody.extend({
  verification_code: z.union([text(20), z.null()]).optional(),
});

/** `{status: "..."}` or `{booking: {status: "..."}}`; the top-level one wins when both are sent. */
export const statusBody = z
  .object({ status: optionalText(), booking: z.object({ status: optionalText() }).optional(), extended: flag() })
  .transform((b) => ({ status: b.status !== undefined ? b.status : b.booking?.status, extended: b.extended }))
  .refine((b) => b.status !== undefined, { message: "can't be blank", path: ["status"] });

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).max(100)]).transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[]);

export const listQuery = z.object({
  service_id: idOrIds().optional(),
  event_id: idOrIds().optional(),
  resource_id: idOrIds().optional(),
  person_id: idOrIds().optional(),
  external_id: text().optional(),
  start: dateTime().optional(),
  end: dateTime().optional(),
  since: dateTime().optional(),
  from: date().optional(),
  collection_id: text(64).optional(),
  state: oneOrMany(z.enum(BOOKING_STATES)).optional(),
  status: oneOrMany(text()).optional(),
  extended: flag(),
  order: z.enum(["booked_from_desc", "booked_from_asc"]).optional(),
  page: page(),
  cursor: syncCursor().optional(),
});

export const showQuery = z.object({ extended: flag() });

export type CreateBookingBody = z.output<typeof createBookingBody>;
export type UpdateBookingBody = z.output<typeof updateBookingBody>;
export type ListQuery = z.output<typeof listQuery>;

/** The booking site's verify_code: the code only, no message flags (a visitor does not choose them). */
export const siteVerifyCodeBody = z.object({
  verification_code: z.union([text(20), z.null()]).optional(),
});

/** POST /bookings/{id}/checkout on the private API: the pages the payer returns to (default: the booking site). */
export const checkoutBody = z.object({
  checkout: z.object({ success_url: returnUrl(), cancel_url: returnUrl() }).optional(),
  extended: flag(),
});

/** POST /bookings/{id}/payment: a payment taken elsewhere; its amount is the booking's own. */
export const recordPaymentBody = z.object({
  payment: z.object({ reference: requiredText().meta({ description: "What identifies the payment in your books (a receipt or terminal reference)." }) }),
  extended: flag(),
});

/**
 * The booking site's move (PUT /bookings/{id}/move): the new time of the booking's own service, or
 * for an event booking another event of that service; a hold's secret takes the held seats.
 */
export const siteMoveBody = z.object({
  booking: z
    .object({
      booked_from: attributes.booked_from,
      booked_to: attributes.booked_to,
      event_id: attributes.event_id.meta({ description: "For an event booking: the event of the same service it moves to (instead of booked_from and booked_to)." }),
    })
    .default({}),
  hold_secret: optionalText().meta({
    description: "The hold_secret POST /slots/holds answered for the new time: the move takes over the hold's seats. A lapsed hold's secret is ignored.",
  }),
});

export type SiteMoveBody = z.output<typeof siteMoveBody>;
