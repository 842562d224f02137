// People: create, update, soft delete and undelete, merge, and the listings. Identity rules
// live in identity.ts so bookings' person_attributes apply the same ones.
import { and, eq, ne } from "drizzle-orm";
import { nationalIdKeys } from "../../config";
import { withOpenNationalId } from "../../db/national-id";
import { bookings, people, type Person } from "../../db/schema";
import type { Deps } from "../../env";
import { afterPersonChange } from "./effects";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { found } from "../../http/serialize";
import { personValues, rethrowUniqueViolation, storedValues, validatePerson, type AttributeErrors, type PersonValues } from "./identity";
import { pageOfPeople, peopleFilters } from "./queries";
import type { PeopleQuery, PersonInput } from "./schema";

export { findMatchingPerson } from "./identity";

const throwIfAny = (errors: AttributeErrors) => {
  if (Object.keys(errors).length > 0) throw new ApiError(400, errors);
};

const own = (deps: Deps, id: number) => and(eq(people.id, id), eq(people.account_id, deps.account.id));

export function listPeople(deps: Deps, query: PeopleQuery, request: PageRequest, opts: { includeInactive?: boolean } = {}) {
  const conditions = peopleFilters(deps, query);
  if (!opts.includeInactive) conditions.push(eq(people.active, true));
  return pageOfPeople(deps, conditions, request, { sync: query.since !== undefined });
}

/** Active people whose parent is `id`; the parent itself may be deactivated. Whether it is the account's is read in the page's batch. */
export async function listChildren(deps: Deps, id: number, request: PageRequest) {
  const parent = deps.db.select({ id: people.id }).from(people).where(own(deps, id)).limit(1);
  const {
    extra: [parentRow],
    ...page
  } = await pageOfPeople(deps, [eq(people.parent_id, id), eq(people.active, true)], request, { also: [parent] });
  if ((parentRow as unknown[]).length === 0) throw ApiError.notFound("person");
  return page;
}

export function getPerson({ db, account }: Deps, id: number): Promise<Person> {
  return found(db.query.people.findFirst({ where: and(eq(people.id, id), eq(people.account_id, account.id)) }), "person");
}

/** An erased person stays erased (docs/decisions/personal-data.md): new data on it would escape a later erasure, which answers already_erased. */
function refuseErased(person: Person): Person {
  if (person.erased_at !== null) throw ApiError.invalid("base", "can't be changed: the person was erased");
  return person;
}

/** Input checked against every rule, as the columns to write; throws the 400 otherwise. */
async function checkedValues(deps: Deps, input: PersonInput, existing?: Person, ignore: number[] = []): Promise<PersonValues> {
  const { values, errors } = personValues(input, deps.account.country_code);
  throwIfAny(errors);
  const merged = { ...existing, ...values };
  const parentChanged = values.parent_id !== undefined && values.parent_id !== existing?.parent_id;
  throwIfAny(await validatePerson(deps, merged, { self: existing?.id, checkParent: parentChanged, ignore }));
  return values;
}

export async function createPerson(deps: Deps, input: PersonInput): Promise<Person> {
  const values = await checkedValues(deps, input);
  const [row] = await deps.db
    .insert(people)
    .values({ ...storedValues(nationalIdKeys(deps.env), deps.account.id, values), account_id: deps.account.id, created_at: deps.now, updated_at: deps.now })
    .returning()
    .catch(rethrowUniqueViolation);
  return afterPersonChange(deps, "created", row);
}

export async function updatePerson(deps: Deps, id: number, input: PersonInput): Promise<Person> {
  const values = await checkedValues(deps, input, refuseErased(await getPerson(deps, id)));
  const [row] = await deps.db
    .update(people)
    .set({ ...storedValues(nationalIdKeys(deps.env), deps.account.id, values), updated_at: deps.now })
    .where(own(deps, id))
    .returning()
    .catch(rethrowUniqueViolation);
  return afterPersonChange(deps, "modified", row);
}

/** Deactivates or reactivates; asking for the state a person is already in changes nothing. */
export async function setPersonActive(deps: Deps, id: number, active: boolean): Promise<Person> {
  const person = await getPerson(deps, id);
  if (person.active === active) return person;
  if (active) refuseErased(person);
  const [row] = await deps.db.update(people).set({ active, updated_at: deps.now }).where(own(deps, id)).returning();
  return afterPersonChange(deps, active ? "modified" : "deleted", row);
}

/**
 * Moves the bookings and children of `mergedId` to `id`, deactivates the merged person and
 * applies `input` to the kept one, all in one batch. Identifiers the kept person takes over
 * from the merged one are cleared on the merged person first, so the unique indexes allow it.
 */
export async function mergePeople(deps: Deps, id: number, mergedId: number, input: PersonInput = {}): Promise<Person> {
  const kept = refuseErased(await getPerson(deps, id));
  if (mergedId === id) throw ApiError.invalid("merge_person_id", "can't be the person merged into");
  const keys = nationalIdKeys(deps.env);
  const stored = await deps.db.query.people.findFirst({ where: own(deps, mergedId) });
  // Opened, so its number compares with the input's; it is never written back.
  const merged = stored && withOpenNationalId(keys, stored);
  if (!merged) throw ApiError.invalid("merge_person_id", "is not a person of this account");
  if (input.parent_id === mergedId) throw ApiError.invalid("parent_id", "can't be the person being merged");
  const values = await checkedValues(deps, input, kept, [mergedId]);

  const released: Partial<Person> = {};
  if (values.email && values.email === merged.email) released.email = null;
  if (values.phone_e164 && values.phone_e164 === merged.phone_e164) Object.assign(released, { phone_number: null, phone_e164: null });
  if (values.national_id_no && values.national_id_no === merged.national_id_no) Object.assign(released, { national_id_no: null, national_id_hash: null });

  const { db, account, now } = deps;
  const [, , , updated] = await db
    .batch([
      db
        .update(people)
        .set({ ...released, active: false, updated_at: now })
        .where(own(deps, mergedId)),
      db
        .update(bookings)
        .set({ person_id: id, updated_at: now })
        .where(and(eq(bookings.account_id, account.id), eq(bookings.person_id, mergedId))),
      db
        .update(people)
        .set({ parent_id: id, updated_at: now })
        .where(and(eq(people.account_id, account.id), eq(people.parent_id, mergedId), ne(people.id, id))),
      db
        .update(people)
        .set({ ...storedValues(keys, account.id, values), updated_at: now })
        .where(own(deps, id))
        .returning(),
    ])
    .catch(rethrowUniqueViolation);
  // The merged person is gone from the caller's view; the kept one changed.
  await afterPersonChange(deps, "deleted", { ...merged, ...released, active: false, updated_at: now });
  return afterPersonChange(deps, "modified", updated[0]);
}
