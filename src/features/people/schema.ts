// Person input (POST/PUT /people, merge, and a booking's `person_attributes`) and the people list query.
import * as z from "zod";
import { syncCursor } from "../../db/sync-order";
import { customData, date, dateTime, integer, LONG_TEXT, nullableDate, nullableInteger, optionalText, page, text } from "../../http/fields";
import { countryCode } from "../account/schema";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Identifying text: trimmed, and blank counts as absent so it cannot satisfy "at least one of". */
const trimmed = () => z.union([text(), z.null()]).transform((s) => (s === null || s.trim() === "" ? null : s.trim()));
const identifier = () => trimmed().optional();

/** Emails compare case-insensitively, so they are stored trimmed and lowercased. */
const personEmail = () =>
  trimmed()
    .transform((s) => s?.toLowerCase() ?? null)
    .refine((s) => s === null || EMAIL.test(s), "is not a valid email address")
    .optional();

/**
 * Phone characters only; whether the digits make a number in the account's country is the
 * service's check (identity.ts), since the schema does not know the account.
 */
const phone = () =>
  trimmed()
    .refine((s) => s === null || /^\+?[\d\s()./-]*\d[\d\s()./-]*$/.test(s), "is not a valid phone number")
    .optional();

/** Every attribute optional: on create the "at least one identifier" rule is checked by the service. */
export const personAttributes = z.object({
  name: identifier(),
  email: personEmail(),
  phone_number: phone(),
  // Deprecated alias of phone_number (spec: Person); phone_number wins when both are sent.
  phonenumber: phone(),
  external_id: optionalText(),
  custom_data: customData(),
  date_of_birth: nullableDate(),
  national_id_no: identifier(),
  street: optionalText(),
  city: optionalText(),
  postal_code: optionalText(),
  state: optionalText(),
  country_code: z
    .union([countryCode(), z.null(), z.literal("")])
    .transform((v) => v || null)
    .optional(),
  notes: optionalText(LONG_TEXT),
  parent_id: nullableInteger({ min: 1 }),
});

export type PersonInput = z.output<typeof personAttributes>;

export const personBody = z.object({ person: personAttributes });
/** Merge takes an optional `person` that updates the kept person. */
export const mergeBody = z.object({ person: personAttributes.optional() });
export const mergeQuery = z.object({ merge_person_id: integer({ min: 1 }) });

export const peopleQuery = z.object({
  search: text().optional(),
  email: text().optional(),
  phone_number: text().optional(),
  external_id: text().optional(),
  name: text().optional(),
  date_of_birth: date().optional(),
  national_id_no: text().optional(),
  since: dateTime().optional(),
  page: page(),
  cursor: syncCursor().optional(),
});

export type PeopleQuery = z.output<typeof peopleQuery>;
export const pageQuery = z.object({ page: page() });
