// Who a person is: phone normalisation, the "at least one identifier" and uniqueness rules,
// parent checks, and matching by national id, phone, email (shared with bookings' person_attributes).
import { and, eq, inArray, isNull, notInArray, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { nationalIdKeys } from "../../config";
import { nationalIdHashes, normalisedNationalId, sealNationalId, withOpenNationalId, type NationalIdKeys } from "../../db/national-id";
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
 * E.164 of a number, reading numbers without a country prefix in the account's country (docs/decisions/people.md). Only the length is checked (`isPossible`): numbering plans change faster than
 * the metadata, and SMS verification is where a number must really be valid.
 */
export function phoneE164(text: string, defaultCountry: string): string | null {
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode);
  return parsed?.isPossible() ? parsed.number : null;
}

/**
 * Stored rows that hold `plain` as their national id: by keyed hash under every key of the ring
 * (a rotation in progress), or as plain text not sealed yet (db/national-id.ts). Without keys, by value as before.
 */
export function nationalIdIs(keys: NationalIdKeys | null, accountId: number, plain: string): SQL {
  const value = normalisedNationalId(plain);
  const stillPlain = and(isNull(people.national_id_hash), eq(people.national_id_no, value))!;
  return keys ? or(inArray(people.national_id_hash, nationalIdHashes(keys, accountId, value)), stillPlain)! : eq(people.national_id_no, value);
}

/**
 * Person values as they are written: a national id sealed with its hash beside it, or plain with no
 * hash when the Worker has no keys (so a stale hash never outlives its number). Other columns as given.
 */
export function storedValues<V extends { national_id_no?: string | null }>(
  keys: NationalIdKeys | null,
  accountId: number,
  values: V,
): V & { national_id_hash?: string | null } {
  if (values.national_id_no === undefined) return values;
  if (!values.national_id_no) return { ...values, national_id_hash: null };
  return { ...values, ...(keys ? sealNationalId(keys, accountId, values.national_id_no) : { national_id_hash: null }) };
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
export async function validatePerson(deps: Deps, person: PersonValues, opts: { self?: number; checkParent?: boolean; ignore?: number[] } = {}): Promise<AttributeErrors> {
  const parent = opts.checkParent && person.parent_id != null ? await parentProblem(deps, person.parent_id, opts.self) : null;
  const exclude = [...(opts.self ? [opts.self] : []), ...(opts.ignore ?? [])];
  return personProblems(person, { parent, taken: await validatePersonUniqueness(deps, person, exclude) });
}

/** `validatePerson` from what its reads found: the parent's problem (null: none or not checked) and the taken attributes. */
export function personProblems(person: PersonValues, found: { parent: string | null; taken: string[] }): AttributeErrors {
  const errors: AttributeErrors = {};
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  if (!person.name && !person.email && !person.national_id_no && !person.phone_number) {
    add("base", "Name, email, national id number or phone number must be given");
  }
  if (found.parent) add("parent_id", found.parent);
  for (const attribute of found.taken) add(attribute, TAKEN);
  return errors;
}

type UniqueValues = Pick<PersonValues, "email" | "phone_e164" | "national_id_no">;
type Holder = Pick<Person, "id" | "email" | "phone_e164" | "national_id_no">;

/** Attributes whose value another person of the account already holds (inactive people included). */
async function validatePersonUniqueness({ db, account, env }: Deps, person: UniqueValues, exclude: number[] = []): Promise<string[]> {
  const keys = nationalIdKeys(env);
  const clauses: SQL[] = [];
  if (person.email) clauses.push(eq(people.email, person.email));
  if (person.phone_e164) clauses.push(eq(people.phone_e164, person.phone_e164));
  if (person.national_id_no) clauses.push(nationalIdIs(keys, account.id, person.national_id_no));
  if (clauses.length === 0) return [];
  const conditions = [eq(people.account_id, account.id), or(...clauses)];
  if (exclude.length > 0) conditions.push(notInArray(people.id, exclude));
  const holders = await db
    .select({ id: people.id, email: people.email, phone_e164: people.phone_e164, national_id_no: people.national_id_no })
    .from(people)
    .where(and(...conditions));
  return takenAmong(
    holders.map((holder) => withOpenNationalId(keys, holder)),
    person,
    exclude,
  );
}

/** The uniqueness rule over rows already read, their national ids opened: `holders` may hold anyone, the excluded included. */
export function takenAmong(holders: Holder[], person: UniqueValues, exclude: number[] = []): string[] {
  const taken = new Set<string>();
  for (const holder of holders) {
    if (exclude.includes(holder.id)) continue;
    for (const [column, attribute] of Object.entries(UNIQUE_COLUMNS) as [keyof typeof UNIQUE_COLUMNS, string][]) {
      if (person[column] && holder[column] === person[column]) taken.add(attribute);
    }
  }
  return [...taken];
}

const MAX_ANCESTRY = 100;

/**
 * One query walking up from the proposed parent, within the account: an empty walk means no such
 * person here, and meeting the person itself on the way means the link would make a loop. The
 * ids may be values or placeholders (a statement rendered once, bookings/person-link.ts).
 */
export const ancestryQuery = (parentId: SQLWrapper | number, accountId: SQLWrapper | number) => sql`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM ${people} WHERE id = ${parentId} AND account_id = ${accountId}
      UNION ALL
      SELECT p.id, p.parent_id, up.depth + 1 FROM ${people} p JOIN up ON p.id = up.parent_id
      WHERE p.account_id = ${accountId} AND up.depth < ${MAX_ANCESTRY}
    ) SELECT id FROM up`;

/** Why `parentId` cannot be the parent of `self`, or null: unknown, foreign, itself or a cycle. */
async function parentProblem({ db, account }: Deps, parentId: number, self?: number): Promise<string | null> {
  if (parentId === self) return "can't be the person itself";
  return parentProblemIn(await db.all<{ id: number }>(ancestryQuery(parentId, account.id)), self);
}

/** The parent rule over the ancestry `ancestryQuery` read (the parent is not the person itself). */
export function parentProblemIn(ancestry: { id: number }[], self?: number): string | null {
  if (ancestry.length === 0) return "is not a person of this account";
  if (self !== undefined && ancestry.some((row) => row.id === self)) return "can't be one of the person's own children";
  return null;
}

type MatchKeys = [keyof typeof UNIQUE_COLUMNS, string | null | undefined][];

/** What a person input is matched by, in the spec's order (Bookings, create): national id, phone, email. */
export function matchKeys(input: PersonInput, countryCode: string): MatchKeys {
  const phone = input.phone_number ?? input.phonenumber;
  return [
    ["national_id_no", input.national_id_no],
    ["phone_e164", phone ? phoneE164(phone, countryCode) : null],
    ["email", input.email],
  ];
}

/**
 * The account's person that `input` names, trying national id, then phone, then email (spec:
 * Bookings, create); inactive people count because their identifiers are still taken.
 */
export async function findMatchingPerson({ db, account, env }: Deps, input: PersonInput): Promise<Person | undefined> {
  const ring = nationalIdKeys(env);
  const keys = matchKeys(input, account.country_code);
  const clauses = keys
    .filter(([, value]) => value)
    .map(([column, value]) => (column === "national_id_no" ? nationalIdIs(ring, account.id, value!) : eq(people[column], value!)));
  if (clauses.length === 0) return undefined;
  const candidates = await db
    .select()
    .from(people)
    .where(and(eq(people.account_id, account.id), or(...clauses)));
  return matchAmong(
    candidates.map((p) => withOpenNationalId(ring, p)),
    keys,
  );
}

/** The match among rows already read, their national ids opened (`candidates` may hold more than the keys' holders). */
export function matchAmong(candidates: Person[], keys: MatchKeys): Person | undefined {
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
    // A sealed number's uniqueness is its hash's (people_account_national_id_hash).
    if (text.includes("people.national_id_hash")) fields.national_id_no = [TAKEN];
    throw new ApiError(400, Object.keys(fields).length > 0 ? fields : { base: [TAKEN] });
  }
  throw error;
}
