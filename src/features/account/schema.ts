// Account (client) attributes as they may be written, by the operator on create and by the
// account itself through PUT /client. Operator-only fields are not here.
import * as z from "zod";
import { getCountries } from "libphonenumber-js";
import { boolean, date, integer, LONG_TEXT, nullableInteger, optionalText, requiredText, text, timeZone } from "../../http/fields";
import { HOLIDAY_YEARS } from "../../domain/holiday-years";
import { parsePeriod } from "../../domain/periods";
import { MAX_HOLD_MINUTES } from "../holds/limits";
import { PAYMENT_WINDOW_MAX, PAYMENT_WINDOW_MIN } from "../payments/limits";

const LOCALES = ["en", "sv", "nb"] as const;
const COUNTRIES = new Set<string>(getCountries());
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const email = () => text().refine((s) => EMAIL.test(s), "is not a valid email address");
export const countryCode = () =>
  text()
    .transform((s) => s.trim().toUpperCase())
    .refine((s) => COUNTRIES.has(s), "is not an ISO 3166-1 alpha-2 country code");
/** Optional and clearable: null or a form's empty value removes the currency. */
const currency = () =>
  z
    .union([text(), z.null()])
    .transform((s) => (s === null || s.trim() === "" ? null : s.trim().toUpperCase()))
    .refine((s) => s === null || (/^[A-Z]{3}$/.test(s) && currencyCodes().has(s)), "is not an ISO 4217 currency code")
    .optional();
const period = () =>
  z
    .union([text(), z.null()])
    .transform((s) => (s === null || s.trim() === "" ? null : s.trim()))
    .refine((s) => s === null || parsePeriod(s) !== null, "is not a period such as '2 hours', '+3 days' or '1 month'")
    .optional();

let currencies: Set<string> | undefined;
function currencyCodes(): Set<string> {
  currencies ??= new Set(Intl.supportedValuesOf("currency"));
  return currencies;
}

const liquid = () => optionalText(LONG_TEXT);

/** Ten years: longer than any retention a shop is asked to keep, and short enough to stay a date. */
const RETENTION_DAYS_MAX = 3650;

export const accountAttributes = {
  subdomain: text(63)
    .transform((s) => s.toLowerCase())
    .refine((s) => SUBDOMAIN.test(s), "may contain only letters, digits and hyphens"),
  name: requiredText(),
  email: email(),
  time_zone: timeZone(),
  country_code: countryCode(),
  template: integer({ min: 1, max: 100 }),
  locale: z.enum(LOCALES),
  currency: currency(),
  gateway_analytics: optionalText(),
  css_url: optionalText(2000),
  address: optionalText(1000),
  phone_number: optionalText(),
  footer: optionalText(LONG_TEXT),
  payment_provider: optionalText(),
  gateway_merchant_id: optionalText(),
  gateway_merchant_key: optionalText(),
  logo: optionalText(2000),
  service_template: optionalText(LONG_TEXT),
  verification_method: integer({ min: 0, max: 2 }),
  verification_methods: optionalText(),
  email_notification: boolean(),
  sms_notification: boolean(),
  confirm_manually: boolean(),
  public_access: boolean(),
  reminder_sms: boolean(),
  closed_for_holidays: boolean(),
  allow_cancellation: boolean(),
  // Visitor moves on the booking site; null (the default): as allow_cancellation.
  allow_rescheduling: z.union([boolean(), z.null()]).optional(),
  // Slot holds on the booking site (docs/decisions/holds.md).
  slot_holds_enabled: boolean(),
  slot_hold_minutes: integer({ min: 1, max: MAX_HOLD_MINUTES }),
  buffers_within_opening_hours: boolean(),
  waitlist_enabled: boolean(),
  waitlist_offer_minutes: integer({ min: 1, max: 1440 }),
  // Paid bookings (docs/decisions/payments.md): minutes a seat waits for its payment, and the refund policy.
  payment_window_minutes: integer({ min: PAYMENT_WINDOW_MIN, max: PAYMENT_WINDOW_MAX }),
  refund_until_hours: nullableInteger({ min: 0, max: 87_600 }),
  // Retention in days (docs/decisions/personal-data.md); null keeps everything as long as before.
  retention_days_after_last_booking: nullableInteger({ min: 1, max: RETENTION_DAYS_MAX }),
  message_body_retention_days: nullableInteger({ min: 1, max: RETENTION_DAYS_MAX }),
  delivery_payload_retention_days: nullableInteger({ min: 1, max: RETENTION_DAYS_MAX }),
  mail_notification_recipient: z
    .union([email(), z.null(), z.literal("")])
    .transform((v) => v || null)
    .optional(),
  settings: z
    .union([z.record(z.string(), z.unknown()), z.null(), z.literal("")], { error: "must be an object of named settings" })
    .transform((v) => v || null)
    .optional(),
  interval_rounding: integer({ min: 1, max: 1440 }),
  slot_generation_type: integer({ min: 1, max: 2 }),
  future_bookable_period: period(),
  first_bookable_period: period(),
  cancellation_period: period(),
  new_user_text: liquid(),
  new_booking_text: liquid(),
  booking_form: liquid(),
  person_form: liquid(),
  resource_form: liquid(),
  service_form: liquid(),
  event_form: liquid(),
  appointment_form: liquid(),
  category_form: liquid(),
  sms_verification: liquid(),
  sms_confirmation: liquid(),
  sms_modification: liquid(),
  sms_cancellation: liquid(),
  sms_reminder: liquid(),
  mail_verification: liquid(),
  mail_confirmation: liquid(),
  mail_modification: liquid(),
  mail_cancellation: liquid(),
  mail_verification_subject: optionalText(),
  mail_confirmation_subject: optionalText(),
  mail_modification_subject: optionalText(),
  mail_cancellation_subject: optionalText(),
};

/** Every attribute optional: what PUT /client accepts (plus `remove_logo`). */
export const accountUpdate = z.object(accountAttributes).partial().extend({ remove_logo: boolean().optional() });

export type AccountUpdate = z.output<typeof accountUpdate>;

export const updateClientBody = z.object({ client: accountUpdate });

/** A holiday range end: empty means "use the default", and the year must be one the data covers. */
const holidayDate = () =>
  z
    .union([date(), z.literal("")])
    .transform((s) => s || undefined)
    // A pipe, so a date that failed to parse gets one message, not two.
    .pipe(z.string().refine(inHolidayYears, `must be between ${HOLIDAY_YEARS.min}-01-01 and ${HOLIDAY_YEARS.max}-12-31`).optional())
    .optional();

const inHolidayYears = (s: string) => Number(s.slice(0, 4)) >= HOLIDAY_YEARS.min && Number(s.slice(0, 4)) <= HOLIDAY_YEARS.max;

export const holidaysQuery = z.object({ from: holidayDate(), to: holidayDate() });
export type HolidaysQuery = z.output<typeof holidaysQuery>;
