// Who a person is: phone normalisation, the "at least one identifier" and uniqueness rules,
// parent checks, and matching by national id, phone, email (shared with bookings' person_attributes).
import { and, eq, notInArray, or, sql, type SQL } from "drizzle-orm";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { people, type Person } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import type { PersonInput } from "./schema";

export type AttributeErrors = Record<string, string[]>;

/** Columns a person input writes; `phone_e164` follows `phone_number`. */
export type PersonValues = Partial<Omit<Person, "id" | "account_id" | "active" | "provider" | "uid" | "created_at" | "updated_at">>;

const TAKEN = "has already been taken";
const UNIQUE_COLUMNS = { email: "email", phone_e164: "phone_number", national_id_no: "national_id_no" } as const;

/**
 * E.164 of a number, reading numbers without a country prefix in the account's country (NOTES:
 * Output shapes). Only the length is checked (`isPossible`): numbering plans change faster than
 * the metadata, and SMS verification is where a number must really be valid.
 */
export function phoneE164(text: string, defaultCountry: string): string | null {
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode);
  return parsed?.isPossible() ? parsed.number : null;
}

/** Input attributes as columns; absent attributes stay absent so an update leaves them alone. */
export function personValues(input: PersonInput, defaultCountry: string): { values: PersonValues; errors: AttributeErrors } {
  const { phonenumber, phone_number, ...rest } = input;
  const values: PersonValues = { ...rest };
  const errors: AttributeErrors = {};
  const phone = phone_number !== undefined ? phone_number : phonenumber;
  if (phone === null) Object.assign(values, { phone_number: null, phone_e164: null });
  if (typeof phone === "string") {
    const e164 = phoneE164(phone, defaultCountry);
    if (e164 === null) errors.phone_number = ["is not a valid phone number"];
    Object.assign(values, { phone_number: phone, phone_e164: e164 });
  }
  return { values, errors };
}

/** The rules a person must satisfy as it would be saved; `self` is its id when it exists. */
export async function validatePerson(
  deps: Deps,
  person: PersonValues,
  opts: { self?: number; checkParent?: boolean; ignore?: number[] } = {},
): Promise<AttributeErrors> {
  const errors: AttributeErrors = {};
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  if (!person.name && !person.email && !person.national_id_no && !person.phone_number) {
    add("base", "Name, email, national id number or phone number must be given");
  }
  if (opts.checkParent && person.parent_id != null) {
    const problem = await parentProblem(deps, person.parent_id, opts.self);
    if (problem) add("parent_id", problem);
  }
  const exclude = [...(opts.self ? [opts.self] : []), ...(opts.ignore ?? [])];
  for (const attribute of await validatePersonUniqueness(deps, person, exclude)) add(attribute, TAKEN);
  return errors;
}

/** Attributes whose value another person of the account already holds (inactive people included). */
export async function validatePersonUniqueness(
  { db, account }: Deps,
  person: Pick<PersonValues, "email" | "phone_e164" | "national_id_no">,
  exclude: number[] = [],
): Promise<string[]> {
  const clauses: SQL[] = [];
  if (person.email) clauses.push(eq(people.email, person.email));
  if (person.phone_e164) clauses.push(eq(people.phone_e164, person.phone_e164));
  if (person.national_id_no) clauses.push(eq(people.national_id_no, person.national_id_no));
  if (clauses.length === 0) return [];
  const conditions = [eq(people.account_id, account.id), or(...clauses)];
  if (exclude.length > 0) conditions.push(notInArray(people.id, exclude));
  const holders = await db
    .select({ email: people.email, phone_e164: people.phone_e164, national_id_no: people.national_id_no })
    .from(people)
    .where(and(...conditions));
  const taken = new Set<string>();
  for (const holder of holders) {
    for (const [column, attribute] of Object.entries(UNIQUE_COLUMNS) as [keyof typeof UNIQUE_COLUMNS, string][]) {
      if (person[column] && holder[column] === person[column]) taken.add(attribute);
    }
  }
  return [...taken];
}

const MAX_ANCESTRY = 100;

/** Why `parentId` cannot be the parent of `self`, or null: unknown, foreign, itself or a cycle. */
async function parentProblem({ db, account }: Deps, parentId: number, self?: number): Promise<string | null> {
  if (parentId === self) return "can't be the person itself";
  // One query walks up from the proposed parent: an empty walk means no such person here, and
  // meeting `self` on the way means the link would make a loop.
  const ancestry = await db.all<{ id: number }>(sql`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM ${people} WHERE id = ${parentId} AND account_id = ${account.id}
      UNION ALL
      SELECT p.id, p.parent_id, up.depth + 1 FROM ${people} p JOIN up ON p.id = up.parent_id
      WHERE p.account_id = ${account.id} AND up.depth < ${MAX_ANCESTRY}
    ) SELECT id FROM up`);
  if (ancestry.length === 0) return "is not a person of this account";
  if (self !== undefined && ancestry.some((row) => row.id === self)) return "can't be one of the person's own children";
  return null;
}

/**
 * The account's person that `input` names, trying national id, then phone, then email (spec:
 * Bookings, create); inactive people count because their identifiers are still taken.
 */
export async function findMatchingPerson({ db, account }: Deps, input: PersonInput): Promise<Person | undefined> {
  const phone = input.phone_number ?? input.phonenumber;
  const keys: [keyof typeof UNIQUE_COLUMNS, string | null | undefined][] = [
    ["national_id_no", input.national_id_no],
    ["phone_e164", phone ? phoneE164(phone, account.country_code) : null],
    ["email", input.email],
  ];
  const clauses = keys.filter(([, value]) => value).map(([column, value]) => eq(people[column], value!));
  if (clauses.length === 0) return undefined;
  const candidates = await db.select().from(people).where(and(eq(people.account_id, account.id), or(...clauses)));
  for (const [column, value] of keys) {
    const match = value ? candidates.find((p) => p[column] === value) : undefined;
    if (match) return match;
  }
  return undefined;
}

/**
 * A UNIQUE violation that slipped past the checks (two requests racing) as the 400 the checks
 * would have given; anything else is rethrown.
 */
export function rethrowUniqueViolation(error: unknown): never {
  const text = [error, (error as { cause?: unknown })?.cause].map((e) => (e instanceof Error ? e.message : "")).join(" ");
  if (/UNIQUE constraint failed/i.test(text)) {
    const fields: AttributeErrors = {};
    for (const [column, attribute] of Object.entries(UNIQUE_COLUMNS)) {
      if (text.includes(`people.${column}`)) fields[attribute] = [TAKEN];
    }
    throw new ApiError(400, Object.keys(fields).length > 0 ? fields : { base: [TAKEN] });
  }
  throw error;
}
