// Service input: POST/PUT /services. `booking_type_id` is the deprecated numeric alias.
import * as z from "zod";
import { boolean, customData, integer, LONG_TEXT, nullableInteger, optionalText, requiredText, text } from "../../http/fields";
import { MAX_BUFFER_MINUTES } from "../../domain/buffers";

export const BOOKING_TYPES = ["appointment", "attendance"] as const;
export type BookingType = (typeof BOOKING_TYPES)[number];
export const BOOKING_TYPE_IDS: Record<number, BookingType> = { 1: "appointment", 2: "attendance" };

/** Price as a decimal string; numbers and strings alike, never through a float on the way out. */
const price = () =>
  z
    .union([text(32), z.null()])
    .transform((v, ctx) => {
      if (v === null || v.trim() === "") return null;
      const s = v.trim();
      if (!/^\d{1,12}(\.\d{1,4})?$/.test(s)) {
        ctx.addIssue({ code: "custom", message: "is not a number" });
        return z.NEVER;
      }
      return s;
    })
    .optional();

const liquid = () => optionalText(LONG_TEXT);

const attributes = {
  title: requiredText(),
  description: optionalText(LONG_TEXT),
  booking_capacity: nullableInteger({ min: 1, max: 100_000 }),
  day_booking_specify_time: boolean().optional(),
  has_day_booking: boolean().optional(),
  interval: integer({ min: 1, max: 1440 }).optional(),
  max_slots: integer({ min: 1, max: 1000 }).optional(),
  price: price(),
  // Paid bookings (docs/decisions/payments.md): what a booking of this service pays online.
  payment: z.enum(["none", "full", "deposit"]).optional(),
  deposit: price(),
  same_day: boolean().optional(),
  template: optionalText(LONG_TEXT),
  interval_rounding: nullableInteger({ min: 1, max: 1440 }),
  // Minutes held before and after each booking (docs/decisions/buffers.md).
  buffer_before: integer({ min: 0, max: MAX_BUFFER_MINUTES }).optional(),
  buffer_after: integer({ min: 0, max: MAX_BUFFER_MINUTES }).optional(),
  booking_type: z.enum(BOOKING_TYPES).optional(),
  booking_type_id: integer({ min: 1, max: 2 }).optional(),
  custom_data: customData(),
  booking_form: liquid(),
  mail_verification: liquid(),
  mail_confirmation: liquid(),
  sms_verification: liquid(),
  sms_confirmation: liquid(),
  sms_reminder: liquid(),
};

const serviceInput = z.object(attributes);
export const createServiceBody = z.object({ service: serviceInput });
export const updateServiceBody = z.object({ service: serviceInput.partial() });

export type ServiceInput = z.output<typeof serviceInput>;
export type ServiceUpdate = Partial<ServiceInput>;
