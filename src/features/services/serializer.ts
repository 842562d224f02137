// Service output; `price` stays a decimal string ("450.0"), `booking_type_id` mirrors booking_type.
import type { Service } from "../../db/schema";
import { customDataOut } from "../../http/custom-data";
import { timestampsOut } from "../../http/serialize";

/** Decimal text as the original service printed it: at least one decimal (`450` → `450.0`). */
const priceOut = (price: string | null) => (price === null ? null : price.includes(".") ? price : `${price}.0`);

/** What a booking pays online (docs/decisions/payments.md); a service that asks nothing answers as it always did. */
const paymentOut = ({ payment, deposit }: Service) => (payment === "none" ? {} : { payment, ...(payment === "deposit" ? { deposit: priceOut(deposit) } : {}) });

export function toServiceJson(service: Service, timeZone: string) {
  const { account_id: _account, custom_data, price, payment: _payment, deposit: _deposit, created_at: _c, updated_at: _u, ...rest } = service;
  return {
    ...rest,
    booking_type_id: service.booking_type === "attendance" ? 2 : 1,
    price: priceOut(price),
    ...paymentOut(service),
    custom_data: customDataOut(custom_data, timeZone),
    ...timestampsOut(service, timeZone),
  };
}

/**
 * What the public booking site may see: no message templates, and no buffers (how long the shop
 * cleans up is its own business; the slots it offers already allow for them: docs/decisions/buffers.md).
 */
export function toPublicServiceJson(service: Service, timeZone: string) {
  const { mail_verification, mail_confirmation, sms_verification, sms_confirmation, sms_reminder, buffer_before, buffer_after, ...visible } = toServiceJson(
    service,
    timeZone,
  );
  return visible;
}
