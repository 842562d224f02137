// Person output: `phonenumber` repeats phone_number (deprecated alias) and phone_number_formatted
// is the stored E.164; account_id, phone_e164, the national id's hash and the login provider/uid
// stay inside. The national id is answered as it was given: opened here from its sealed form.
import { openNationalId, type NationalIdKeys } from "../../db/national-id";
import type { Person } from "../../db/schema";
import { customDataOut } from "../../http/custom-data";
import { timestampsOut } from "../../http/serialize";

/** The columns the output shows: what a list reads of each person. */
export const PERSON_OUT_COLUMNS = [
  "id",
  "name",
  "email",
  "phone_number",
  "phone_e164",
  "external_id",
  "custom_data",
  "date_of_birth",
  "national_id_no",
  "street",
  "city",
  "postal_code",
  "state",
  "country_code",
  "notes",
  "parent_id",
  "active",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof Person)[];

export type PersonOut = Pick<Person, (typeof PERSON_OUT_COLUMNS)[number]>;

/** `keys`: the Worker's national id key ring (`nationalIdKeys(env)`), null when it has none. */
export function toPersonJson(person: PersonOut, timeZone: string, keys: NationalIdKeys | null) {
  return {
    id: person.id,
    name: person.name,
    email: person.email,
    phone_number: person.phone_number,
    phonenumber: person.phone_number,
    phone_number_formatted: person.phone_e164,
    external_id: person.external_id,
    custom_data: customDataOut(person.custom_data, timeZone),
    date_of_birth: person.date_of_birth,
    national_id_no: openNationalId(keys, person.national_id_no),
    street: person.street,
    city: person.city,
    postal_code: person.postal_code,
    state: person.state,
    country_code: person.country_code,
    notes: person.notes,
    parent_id: person.parent_id,
    active: person.active,
    ...timestampsOut(person, timeZone),
  };
}
