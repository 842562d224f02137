// Booking verification (docs/decisions/bookings.md): who needs it, what the person must have for the
// account's method, the five-digit code and its 20-minute life.
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import type { Account } from "../../db/schema";
import { EMAIL_VERIFICATION, SMS_VERIFICATION } from "../../domain/verification-methods";
import type { PersonValues } from "../people/identity";
import { personError } from "./person-link";

export const VERIFICATION_TTL_MS = 20 * 60 * 1000;

export const verificationRequired = (account: Account, confirm: boolean) =>
  !confirm && (account.verification_method === SMS_VERIFICATION || account.verification_method === EMAIL_VERIFICATION);

/**
 * The attribute the method sends to must be there, also for an existing person (spec 2017-07-05);
 * an SMS number must be a real number in its country, not only the right length.
 */
export function checkVerificationContact(account: Account, person: PersonValues | null): void {
  if (account.verification_method === SMS_VERIFICATION) {
    const phone = person?.phone_number;
    if (!phone) throw personError(["needs a phone number for SMS verification"], { phone_number: ["can't be blank"] });
    if (!parsePhoneNumberFromString(phone, account.country_code as CountryCode)?.isValid()) {
      throw personError(["needs a phone number for SMS verification"], { phone_number: ["is not a valid phone number"] });
    }
  }
  if (account.verification_method === EMAIL_VERIFICATION && !person?.email) {
    throw personError(["needs an email address for email verification"], { email: ["can't be blank"] });
  }
}

/** Five digits, uniformly random: values past the largest multiple of 100000 are drawn again. */
export function newVerificationCode(): string {
  const limit = Math.floor(0x1_0000_0000 / 100_000) * 100_000;
  const buffer = new Uint32Array(1);
  do crypto.getRandomValues(buffer);
  while (buffer[0] >= limit);
  return String(buffer[0] % 100_000).padStart(5, "0");
}
