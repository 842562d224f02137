// What the serializers answer, as zod schemas: the OpenAPI document's response objects. Objects
// are closed (no unknown keys), so a field a serializer adds or drops fails the contract tests.
import * as z from "zod";
import { BOOKING_STATES } from "../domain/booking-states";
import { MAX_BUFFER_MINUTES } from "../domain/buffers";
import { MAX_HOLD_MINUTES } from "../features/holds/limits";
import { WEEKDAYS } from "../domain/opening-hours";
import { CHANNELS, MESSAGE_KINDS } from "../features/messages/kinds";
import { PAYMENT_STATUSES } from "../features/payments/booking-payment";
import { PAYMENT_WINDOW_MAX, PAYMENT_WINDOW_MIN } from "../features/payments/limits";
import { BOOKING_TYPES } from "../features/services/schema";
import { ROLES } from "../features/users/schema";

const id = z.number().int().min(1);
const count = z.number().int().min(0);
const nullableText = z.string().nullable();
/** Every instant goes out with the account's offset and seconds (docs/decisions/conventions.md). */
const instant = z.string().meta({ format: "date-time", examples: ["2020-01-27T14:00:00+01:00"] });
const nullableInstant = instant.nullable();
const calendarDate = z.string().meta({ format: "date", examples: ["2020-01-27"] });
const hours = z
  .array(z.string())
  .nullable()
  .meta({ description: "`hh:mm` pairs (open, close), several for breaks; null is closed.", examples: [["09:00", "12:00", "13:00", "17:00"]] });
const customData = z.record(z.string(), z.unknown()).nullable().meta({
  description: "Flat key/value pairs; null until set. Values that look boolean come back as booleans, keys ending in `_at` as datetimes.",
});
const timestamps = { created_at: instant, updated_at: instant };
const nullableTexts = <K extends string>(...keys: K[]) => Object.fromEntries(keys.map((k) => [k, nullableText])) as { [P in K]: typeof nullableText };

/** Retention (docs/decisions/personal-data.md): answered once one of them is set, null keeping everything as before. */
const retentionSettings = () => {
  const days = (description: string) => z.number().int().min(1).max(3650).nullable().optional().meta({ description });
  return {
    retention_days_after_last_booking: days(
      "Days after a person's last booking ends (or, with no booking, after the person last changed) until the hourly retention pass erases them as POST /people/{id}/erase does; null: never.",
    ),
    message_body_retention_days: days("Days a settled message keeps its recipient, subject and body; null: for ever."),
    delivery_payload_retention_days: days("Days a settled web hook delivery keeps its payload (after that: the event, the object and its id); null: for ever."),
  };
};

/** The operator's view of an account: where its data lives too. */
export const OperatorAccount = z.lazy(() =>
  Account.extend({
    shard: z.string().meta({ description: "The D1 binding holding the account's data (DB, DB_SHARD_1, …)." }),
    closed_at: z.string().nullable().meta({ description: "When the account was closed (DELETE); null while it is open." }),
    delete_at: z.string().nullable().meta({ description: "When the cron begins deleting a closed account; until then POST …/restore opens it again." }),
  }),
);

export const Account = z.object({
  id,
  subdomain: z.string(),
  name: z.string(),
  email: z.string(),
  time_zone: z.string(),
  country_code: z.string(),
  template: z.number().int(),
  locale: z.string(),
  verification_method: z.number().int().min(0).max(2),
  email_notification: z.boolean(),
  sms_notification: z.boolean(),
  confirm_manually: z.boolean(),
  public_access: z.boolean(),
  reminder_sms: z.boolean(),
  closed_for_holidays: z.boolean(),
  allow_cancellation: z.boolean(),
  allow_rescheduling: z.boolean().nullable().meta({
    description:
      "A visitor may move their own booking to another time of its service on the booking site (PUT /bookings/{id}/move, with its booking token), under the cancellation_period as a cancel. null (the default): as allow_cancellation.",
  }),
  slot_holds_enabled: z.boolean().meta({
    description:
      "The booking page and widget hold a picked time while the visitor fills in the form, and the booking site's POST /slots/holds answers (403 otherwise). The private API's holds work either way.",
  }),
  slot_hold_minutes: z
    .number()
    .int()
    .min(1)
    .max(MAX_HOLD_MINUTES)
    .meta({ description: "How long a slot hold lives, in minutes (default 5, at most 15); it cannot be extended." }),
  buffers_within_opening_hours: z.boolean().meta({
    description:
      "Services' buffers must fall inside opening hours too (slots and public bookings). Off (the default): a buffer may reach into closed hours, e.g. the clean-up after the day's last appointment.",
  }),
  waitlist_enabled: z.boolean().meta({ description: "Visitors may join the waitlist of a full time on the booking site (docs/decisions/waitlist.md)." }),
  waitlist_offer_minutes: z.number().int().min(1).max(1440).meta({ description: "How long a seat offered to the first in line is held for them (default 30)." }),
  payment_window_minutes: z.number().int().min(PAYMENT_WINDOW_MIN).max(PAYMENT_WINDOW_MAX).optional().meta({
    description:
      'Paid bookings (answered once payment_provider is "stripe"): how long a booking\'s seat waits for its payment (default 15); then the seat is free again.',
  }),
  refund_until_hours: z.number().int().min(0).max(87_600).nullable().optional().meta({
    description:
      "Paid bookings: a cancel this many hours or more before the start is refunded in full, a later one not at all (default 24); null refunds every cancel in full. A decline or delete by the shop is always refunded in full.",
  }),
  ...retentionSettings(),
  stripe_account_id: z.string().nullable().optional().meta({ description: "Paid bookings: the shop's connected Stripe account (acct_…), where its payments go." }),
  settings: z.record(z.string(), z.unknown()).nullable(),
  interval_rounding: z.number().int(),
  slot_generation_type: z.number().int(),
  api_enabled: z.boolean(),
  billing_status: z.enum(["ok", "unpaid"]),
  ...nullableTexts(
    "currency",
    "gateway_analytics",
    "css_url",
    "address",
    "phone_number",
    "footer",
    "payment_provider",
    "gateway_merchant_id",
    "logo",
    "service_template",
    "verification_methods",
    "mail_notification_recipient",
    "future_bookable_period",
    "first_bookable_period",
    "cancellation_period",
    "new_user_text",
    "new_booking_text",
    "booking_form",
    "person_form",
    "resource_form",
    "service_form",
    "event_form",
    "appointment_form",
    "category_form",
    "sms_verification",
    "sms_confirmation",
    "sms_modification",
    "sms_cancellation",
    "sms_reminder",
    "mail_verification",
    "mail_confirmation",
    "mail_modification",
    "mail_cancellation",
    "mail_verification_subject",
    "mail_confirmation_subject",
    "mail_modification_subject",
    "mail_cancellation_subject",
  ),
  ...timestamps,
});

export const Holiday = z.object({ date: calendarDate, name: z.string() });

export const Resource = z.object({
  id,
  title: z.string(),
  description: nullableText,
  active: z.boolean(),
  capacity: z.number().int().min(1),
  ...Object.fromEntries(WEEKDAYS.map((day) => [`opening_hours_${day}`, hours])),
  ...Object.fromEntries(
    WEEKDAYS.flatMap((_, n) => [
      [`open_${n}`, nullableText.meta({ deprecated: true })],
      [`close_${n}`, nullableText.meta({ deprecated: true })],
    ]),
  ),
  custom_data: customData,
  ...timestamps,
});

export const ResourceExceptionDate = z.object({ resource_id: id, exception_date: calendarDate, opening_hours: hours, ...timestamps });
export const ResourceOpeningHours = z.object({ date: calendarDate, opening_hours: hours });

/** The private API's only: the booking site's service leaves them out (services/serializer.ts). */
const serviceBuffers = {
  buffer_before: z.number().int().min(0).max(MAX_BUFFER_MINUTES).meta({
    description:
      "Minutes the resource is held before each booking of this service (preparation). A booking keeps the buffers it was made with; its booked_from and booked_to stay the customer's times.",
  }),
  buffer_after: z.number().int().min(0).max(MAX_BUFFER_MINUTES).meta({
    description: "Minutes the resource is held after each booking of this service (clean-up); may reach into closed hours.",
  }),
};
const serviceFields = {
  id,
  title: z.string(),
  description: nullableText,
  active: z.boolean(),
  booking_capacity: z.number().int().nullable(),
  day_booking_specify_time: z.boolean(),
  has_day_booking: z.boolean(),
  interval: z.number().int(),
  max_slots: z.number().int(),
  price: z
    .string()
    .nullable()
    .meta({ examples: ["450.0"] }),
  payment: z.enum(["full", "deposit"]).optional().meta({
    description:
      "Answered only for a service that takes payment online: a booking pays its price × count (full) or its deposit × count, in the account's currency (docs/decisions/payments.md).",
  }),
  deposit: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Per seat, when payment is deposit.", examples: ["100.0"] }),
  same_day: z.boolean(),
  template: nullableText,
  interval_rounding: z.number().int().nullable(),
  booking_type: z.enum(BOOKING_TYPES),
  booking_type_id: z.union([z.literal(1), z.literal(2)]).meta({ deprecated: true }),
  custom_data: customData,
  booking_form: nullableText,
  ...timestamps,
};
export const Service = z.object({
  ...serviceFields,
  ...serviceBuffers,
  ...nullableTexts("mail_verification", "mail_confirmation", "sms_verification", "sms_confirmation", "sms_reminder"),
});
/** The booking site's service: no message templates. */
export const PublicService = z.object(serviceFields);

export const Provider = z.object({ id, resource_id: id, service_id: id, active: z.boolean(), ...timestamps });

export const Category = z.object({
  id,
  title: z.string(),
  parent_id: id.nullable(),
  custom_data: customData,
  service_id_list: z.array(id),
  ...timestamps,
});

const publicPersonFields = {
  id,
  name: nullableText,
  email: nullableText,
  phone_number: nullableText,
  phonenumber: nullableText.meta({ deprecated: true, description: "Alias of phone_number." }),
  phone_number_formatted: nullableText.meta({ description: "E.164." }),
  date_of_birth: calendarDate.nullable(),
  ...nullableTexts("street", "city", "postal_code", "state", "country_code"),
  parent_id: id.nullable(),
  active: z.boolean(),
  ...timestamps,
};
export const Person = z.object({
  ...publicPersonFields,
  external_id: nullableText,
  custom_data: customData,
  national_id_no: nullableText,
  notes: nullableText,
});
/** A visitor who proved their number on the booking site sees no back-office fields. */
export const PublicPerson = z.object(publicPersonFields);

export const Event = z.object({
  id,
  resource_id: id,
  service_id: id,
  published: z.boolean(),
  capacity: z.number().int(),
  starts_at: instant,
  ends_at: instant,
  title: nullableText,
  description: nullableText,
  collection_id: nullableText,
  active: z.boolean(),
  availability: count.meta({ description: "Capacity minus the count of the event's active bookings." }),
  custom_data: customData,
  ...timestamps,
});

const Brief = z.object({ id, title: nullableText });

const money = z.string().meta({ description: "A decimal in the currency's digits.", examples: ["450.00"] });
const paymentStatus = z.enum(PAYMENT_STATUSES);
const checkoutUrl = z.string().nullable().meta({ description: "The checkout page, while the booking waits for its payment; null otherwise." });
/** A paid booking's payment: present only on bookings that pay (docs/decisions/payments.md). */
export const BookingPayment = z.object({
  provider: z.string(),
  kind: z.enum(["full", "deposit", "external"]),
  amount: money,
  currency: z.string(),
  status: paymentStatus,
  amount_refunded: money,
  checkout_url: checkoutUrl,
  checkout_session_id: nullableText,
  payment_intent_id: nullableText,
  refund_id: nullableText,
  reference: nullableText.meta({ description: "A payment taken elsewhere, as the integrator recorded it." }),
  paid_at: nullableInstant,
});
export const PublicBookingPayment = z.object({ amount: money, currency: z.string(), status: paymentStatus, amount_refunded: money, checkout_url: checkoutUrl });

const bookingCore = {
  id,
  service_id: id.nullable(),
  event_id: id.nullable(),
  resource_id: id,
  booked_from: instant,
  booked_to: instant,
  expires_at: nullableInstant,
  title: nullableText,
  state: z.enum(BOOKING_STATES),
  active: z.boolean(),
  count: z.number().int().min(1),
  ...timestamps,
};
export const Booking = z.object({
  ...bookingCore,
  person_id: id.nullable(),
  notes: nullableText,
  reminder_at: nullableInstant,
  reminded_at: nullableInstant,
  paid_at: nullableInstant,
  external_id: nullableText,
  gateway_order_number: nullableText,
  custom_data: customData,
  collection_id: nullableText,
  status: nullableText,
  verification_code: nullableText,
  payment: BookingPayment.optional(),
  created_by: z.null(),
  updated_by: z.null(),
  person: Person.nullable(),
  resource: z.union([Brief, Resource]).nullable().meta({ description: "`{id, title}`, or the whole resource with `extended=true`." }),
  service: z.union([Brief, Service]).nullable().meta({ description: "`{id, title}`, or the whole service with `extended=true`." }),
  event: z.union([Brief, Event]).nullable().optional().meta({ description: "Event bookings only: `{id, title}`, or the whole event with `extended=true`." }),
});
/** The booking site's answer: no code, person data or back-office fields. */
export const PublicBooking = z.object({
  ...bookingCore,
  person_id: id
    .nullable()
    .meta({ description: "The visitor's own person, created or matched for this booking; only in the booking site's answers about the visitor's own booking." }),
  payment: PublicBookingPayment.optional(),
  resource: Brief.nullable(),
  service: Brief.nullable(),
  event: Brief.nullable().optional(),
});

export const WaitlistEntry = z.object({
  id,
  service_id: id,
  resource_id: id.nullable(),
  event_id: id.nullable(),
  booked_from: instant,
  booked_to: instant,
  count: count.meta({ description: "Seats waited for." }),
  state: z.enum(["waiting", "offered", "accepted", "expired", "left"]),
  offer_expires_at: instant.nullable().meta({ description: "While offered: until when the seat is held for this entry." }),
  booking_id: id.nullable().meta({ description: "The booking an accepted offer became." }),
  person_attributes: z.record(z.string(), z.unknown()),
  created_at: instant,
  updated_at: instant,
});

export const SlotHold = z.object({
  id,
  service_id: id,
  resource_id: id.nullable().meta({ description: "The resource whose capacity is held; for an event, the event's." }),
  event_id: id.nullable(),
  booked_from: instant,
  booked_to: instant,
  count: count.meta({ description: "Seats held." }),
  expires_at: instant.meta({ description: "When the hold lapses by itself (slot_hold_minutes after it was made); it cannot be extended." }),
  ended: z.enum(["released", "converted", "expired"]).nullable().meta({ description: "Null while the hold is live." }),
  booking_id: id.nullable().meta({ description: "The booking that took the hold over, once converted." }),
  created_at: instant,
});

export const Slot = z.object({
  timestamp: instant,
  timestamp_end: instant,
  formatted_timestamp: z.string().meta({ examples: ["Friday, 24 January 2020, 09:00"] }),
  formatted_timestamp_end: z.string(),
  free: count,
  available_resources: z.array(id),
  maximum_capacity: count,
});

export const RecurringCollection = z.object({
  id: z.string(),
  kind: z.enum(["booking", "event"]),
  status: z.enum(["pending", "completed", "failed", "deleted"]),
  rrule: nullableText,
  rdate: nullableText,
  exdate: nullableText,
  occurrences: count,
  processed: count,
  created: count,
  skipped: z.array(
    z.object({
      booked_from: instant.optional(),
      booked_to: instant.optional(),
      starts_at: instant.optional(),
      ends_at: instant.optional(),
      errors: z.record(z.string(), z.unknown()).meta({ description: "The 400 body a single create would have answered." }),
    }),
  ),
  ...timestamps,
});

export const UserLink = z.object({
  id,
  user_id: id,
  role: z.enum(ROLES),
  ...timestamps,
  user: z.object({
    id,
    name: z.string(),
    email: z.string(),
    phone_number: nullableText,
    phonenumber: nullableText.meta({ deprecated: true }),
    ...timestamps,
  }),
});

export const WebHook = z.object({ id, target_url: z.string(), event: z.string(), active: z.boolean(), ...timestamps });

export const WebhookDelivery = z.object({
  id,
  web_hook_id: id,
  event: z.string(),
  idempotency_id: z.string(),
  state: z.enum(["pending", "delivered", "failed"]),
  attempt_count: count,
  attempts: z.array(z.object({ attempt: z.number().int(), status_code: z.number().int().nullable(), duration_ms: count, error: nullableText, created_at: instant })),
  payload: z.unknown().meta({ description: "The body that was (or will be) posted: see the webhooks of this document." }),
  ...timestamps,
});

export const Message = z.object({
  id,
  booking_id: id.nullable(),
  person_id: id.nullable(),
  kind: z.enum(MESSAGE_KINDS),
  channel: z.enum(CHANNELS),
  recipient: z.string(),
  subject: nullableText,
  body: z.string(),
  status: z.enum(["queued", "sending", "sent", "failed", "delivered", "bounced", "complained", "undelivered"]).meta({
    description:
      "queued → sending → sent, or failed: refused by an SMS cap, refused for good by the receiving server or API (SMTP: a 5xx to the recipient; Resend: a request it calls invalid), sent to a recipient refused as undeliverable, or retries exhausted. After sent, what the provider's delivery events said (Resend, Twilio): delivered, then bounced or complained (e-mail) or undelivered (SMS); a status only moves further, whatever order the events come in.",
  }),
  provider: nullableText.meta({
    description:
      'Who delivered it (or last tried): "sink" (stored only), "http", "smtp", "resend" or "twilio" (the deployment\'s MESSAGE_PROVIDER, or SMS_PROVIDER for an SMS).',
  }),
  error: nullableText.meta({
    description:
      'Why the last attempt failed, e.g. "SMTP RCPT TO: 550 5.1.1 …" (the stage and the server\'s reply) or "Resend 429 rate_limit_exceeded: …"; null once sent.',
  }),
  sent_at: nullableInstant,
  ...timestamps,
});

export const UndeliverableRecipient = z.object({
  channel: z.enum(CHANNELS),
  recipient: z.string().meta({ description: "The address or E.164 number, as messages were sent to it." }),
  reason: z.enum(["bounced", "complained", "undelivered"]).meta({
    description: "A hard bounce (or a server's 5.1.x refusal of the address), a complaint (marked as spam), or a number the SMS provider cannot reach for good.",
  }),
  detail: nullableText.meta({ description: "The provider's words, e.g. the bounce's type and message or Twilio's error code." }),
  message_id: id.nullable().meta({ description: "The message that came back." }),
  created_at: instant,
});

export const CalendarFeed = z.object({
  id,
  resource_id: id.nullable().meta({ description: "The resource whose bookings the feed shows; null: every booking and event of the account." }),
  created_at: instant,
  url: z
    .string()
    .optional()
    .meta({ description: "The secret subscription URL (`https://<subdomain>.<root>/calendar/cal_….ics`): only in the answer that created it; stored as a hash." }),
});

export const CalendarSubscription = z.object({
  id,
  resource_id: id.meta({ description: "The resource the calendar's busy times take (all of its capacity)." }),
  name: z.string().nullable(),
  url_hint: z.string().meta({ description: "The address's host and last characters: the address itself is a secret." }),
  url: z.string().optional().meta({ description: "The calendar's address (webcal:// answered as https://): only in the answer that created it." }),
  status: z
    .enum(["pending", "ok", "failing"])
    .meta({ description: "pending: not fetched yet; ok: the last fetch was good; failing: fetches fail since the last good one, whose busy times are kept." }),
  events_read: z.number().int().min(0).meta({ description: "Events the last good fetch read (moved and cancelled occurrences included)." }),
  busy_count: z.number().int().min(0).meta({ description: "Busy intervals stored from it, overlapping ones merged." }),
  last_fetched_at: instant.nullable(),
  last_success_at: instant.nullable(),
  last_error: z.string().nullable(),
  last_error_at: instant.nullable(),
  failures: z.number().int().min(0).meta({ description: "Failed fetches since the last good one." }),
  next_fetch_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});

export const CalendarConflict = z.object({
  booking_id: id,
  resource_id: id,
  subscription_id: id.meta({ description: "The subscription whose busy time the booking overlaps." }),
  booked_from: instant,
  booked_to: instant,
  busy_from: instant,
  busy_to: instant,
});

export const PerishableToken = z.object({ phone_number: z.string(), expires_at: instant });
