// Which person a booking links to: `person_id`, or `person_attributes` matched (national id, then
// phone, then email) or created, with person errors in the spec's nested shape.
import { and, eq } from "drizzle-orm";
import { people, type Person } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import {
  findMatchingPerson, personValues, validatePerson, validatePersonUniqueness, type AttributeErrors, type PersonValues,
} from "../people/identity";
import { personAttributes } from "../people/schema";

export type PersonPlan =
  | { kind: "none" }
  | { kind: "existing"; person: Person; fill: PersonValues }
  | { kind: "new"; values: PersonValues };

/** Spec, Errors rule 2: `person` (messages) and `person_attributes` (per field); no `base`. */
export function personError(messages: string[], attributes: AttributeErrors = {}): ApiError {
  const { base, ...fields } = attributes;
  return new ApiError(400, { person: [...messages, ...(base ?? [])], person_attributes: fields });
}

function parseAttributes(raw: Record<string, unknown>) {
  const parsed = personAttributes.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fields: AttributeErrors = {};
  for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? "base")] ??= []).push(issue.message);
  throw personError(["is invalid"], fields);
}

/** Attributes the person lacks: a match never overwrites what is already stored (NOTES: People). */
function emptyOnly(person: Person, values: PersonValues): PersonValues {
  const fill: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const current = person[key as keyof Person];
    if (value !== null && value !== undefined && (current === null || current === "")) fill[key] = value;
  }
  // phone_number and its E.164 form travel together.
  if (fill.phone_number === undefined) delete fill.phone_e164;
  if (fill.phone_e164 === undefined) delete fill.phone_number;
  return fill as PersonValues;
}

/** Decides the link without writing anything, so a refused booking leaves people untouched. */
export async function planPerson(
  deps: Deps,
  input: { person_id?: number | null; person_attributes?: Record<string, unknown> },
): Promise<PersonPlan> {
  const attributes = input.person_attributes ? parseAttributes(input.person_attributes) : undefined;
  const { values, errors } = attributes ? personValues(attributes, deps.account.country_code) : { values: {}, errors: {} };
  if (Object.keys(errors).length > 0) throw personError(["is invalid"], errors);

  let person: Person | undefined;
  if (input.person_id) {
    person = await deps.db.query.people.findFirst({
      where: and(eq(people.id, input.person_id), eq(people.account_id, deps.account.id)),
    });
    if (!person) throw ApiError.invalid("person_id", "does not exist");
  } else if (attributes) {
    person = await findMatchingPerson(deps, attributes);
  } else {
    return { kind: "none" };
  }

  if (person) {
    const fill = emptyOnly(person, values);
    // A value another person already holds is left out rather than failing the booking.
    const taken = new Set(await validatePersonUniqueness(deps, fill, [person.id]));
    if (taken.has("email")) delete fill.email;
    if (taken.has("phone_number")) {
      delete fill.phone_number;
      delete fill.phone_e164;
    }
    if (taken.has("national_id_no")) delete fill.national_id_no;
    return { kind: "existing", person, fill };
  }
  const problems = await validatePerson(deps, values, { checkParent: values.parent_id != null });
  if (Object.keys(problems).length > 0) throw personError(["is invalid"], problems);
  return { kind: "new", values };
}

/** The person as it will be once the plan is applied (what verification checks). */
export function plannedPerson(plan: PersonPlan): PersonValues | null {
  if (plan.kind === "none") return null;
  if (plan.kind === "new") return plan.values;
  return { ...plan.person, ...plan.fill };
}

const isUniqueViolation = (error: unknown) =>
  /UNIQUE constraint failed/i.test(`${error} ${(error as { cause?: unknown })?.cause ?? ""}`);

/** Creates the planned new person; the booking needs its id. */
export async function createPlannedPerson({ db, account, now }: Deps, plan: PersonPlan): Promise<number | null> {
  if (plan.kind === "none") return null;
  if (plan.kind === "existing") return plan.person.id;
  try {
    const [row] = await db
      .insert(people)
      .values({ ...plan.values, account_id: account.id, created_at: now, updated_at: now })
      .returning({ id: people.id });
    return row.id;
  } catch (error) {
    // Another request took an identifier between the check and the insert.
    if (isUniqueViolation(error)) {
      throw personError(["is invalid"], { base: ["an identifier was taken by another person meanwhile; try again"] });
    }
    throw error;
  }
}

/** Undoes `createPlannedPerson` when the booking was refused: nothing references the new row yet. */
export async function discardPlannedPerson({ db, account }: Deps, plan: PersonPlan, id: number | null): Promise<void> {
  if (plan.kind !== "new" || id === null) return;
  await db.delete(people).where(and(eq(people.id, id), eq(people.account_id, account.id)));
}

/** Fills a matched person's empty attributes once the booking exists. */
export async function applyPersonFill({ db, account, now }: Deps, plan: PersonPlan): Promise<void> {
  if (plan.kind !== "existing" || Object.keys(plan.fill).length === 0) return;
  try {
    await db
      .update(people)
      .set({ ...plan.fill, updated_at: now })
      .where(and(eq(people.id, plan.person.id), eq(people.account_id, account.id)));
  } catch (error) {
    // The booking is made; an identifier another request took meanwhile only stays unfilled.
    if (!isUniqueViolation(error)) throw error;
  }
}
