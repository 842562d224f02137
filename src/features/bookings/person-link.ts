// Which person a booking links to: `person_id`, or `person_attributes` matched (national id, then
// phone, then email) or created, with person errors in the spec's nested shape.
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect, unionAll, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { nationalIdKeys } from "../../config";
import { bindFixed, fixedStatement } from "../../db/fixed-statement";
import { everyColumn, jsonRow } from "../../db/json-row";
import { nationalIdHashes, withOpenNationalId, type NationalIdKeys } from "../../db/national-id";
import { people, type Person } from "../../db/schema";
import { toSqlRow, type SqlStatement } from "../../db/sql-statement";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import {
  ancestryQuery,
  matchAmong,
  matchKeys,
  parentProblemIn,
  personProblems,
  personValues,
  storedValues,
  takenAmong,
  type AttributeErrors,
  type PersonValues,
} from "../people/identity";
import { personAttributes } from "../people/schema";

export type PersonPlan = { kind: "none" } | { kind: "existing"; person: Person; fill: PersonValues } | { kind: "new"; values: PersonValues };

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

/** Attributes the person lacks: a match never overwrites what is already stored (docs/decisions/people.md). */
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

/**
 * The reads a person link needs, to run in a batch the caller already makes (a create's
 * references batch), and the plan decided from their results. Nothing is read or thrown before
 * `decide`, so the caller's own errors keep coming first; `decide` throws the person errors in
 * their order (attributes, `person_id`, then the new person's rules).
 */
export interface PersonLookup {
  /** Bound on the batch's handle; none when the plan needs no read. */
  reads(d1: D1Database): D1PreparedStatement[];
  /** The plan, from the results of `reads`' statements in their order. */
  decide(results: D1Result[]): PersonPlan;
}

// Rendered once per isolate (db/fixed-statement.ts). A null binding matches nothing (`= NULL`).
const qb = new QueryBuilder();
const accountId = sql.placeholder("accountId");
const personRow = jsonRow(people, everyColumn(people));
const personById = fixedStatement<"accountId" | "id">(() =>
  qb
    .select({ row: personRow.field.as("row") })
    .from(people)
    .where(and(eq(people.id, sql.placeholder("id")), eq(people.account_id, accountId))),
);
/**
 * Everyone holding one of the input's identifiers: the match's candidates and the uniqueness
 * rule's holders at once. One select per identifier, each on its unique index (an OR of four
 * terms, some bound to null, read more rows); a person holding two comes twice, which neither rule minds.
 * A national id is held by hash under any key of the ring (`nationalHashes`, a JSON array) or, not
 * sealed yet, as plain text (db/national-id.ts).
 */
const holdersWhere = (condition: ReturnType<typeof eq>) =>
  qb
    .select({ row: personRow.field.as("row") })
    .from(people)
    .where(and(eq(people.account_id, accountId), condition));
const holderOf = (column: SQLiteColumn, name: string) => holdersWhere(eq(column, sql.placeholder(name)));
const identifierHolders = fixedStatement<"accountId" | "nationalHashes" | "nationalId" | "matchPhone" | "phone" | "email">(() =>
  unionAll(
    holdersWhere(sql`${people.national_id_hash} IN (SELECT value FROM json_each(${sql.placeholder("nationalHashes")}))`),
    holdersWhere(and(isNull(people.national_id_hash), eq(people.national_id_no, sql.placeholder("nationalId")))!),
    holderOf(people.phone_e164, "matchPhone"),
    holderOf(people.phone_e164, "phone"),
    holderOf(people.email, "email"),
  ),
);
const dialect = new SQLiteSyncDialect();
const ancestry = fixedStatement<"accountId" | "parentId">(() => ({ toSQL: () => dialect.sqlToQuery(ancestryQuery(sql.placeholder("parentId"), accountId)) }));

/** The people a read found, their national ids opened for the identity rules' comparisons. */
const peopleIn = (keys: NationalIdKeys | null, result: D1Result | undefined): Person[] =>
  ((result?.results ?? []) as { row: string }[]).map((r) => withOpenNationalId(keys, personRow.decode(r.row)));

/** A lookup whose input is already known to be invalid: no reads, and `decide` throws why. */
const failing = (error: unknown): PersonLookup => ({
  reads: () => [],
  decide: () => {
    throw error;
  },
});

export function lookUpPerson(deps: Deps, input: { person_id?: number | null; person_attributes?: Record<string, unknown> }): PersonLookup {
  const { account } = deps;
  const ring = nationalIdKeys(deps.env);
  let attributes: ReturnType<typeof parseAttributes> | undefined;
  try {
    attributes = input.person_attributes ? parseAttributes(input.person_attributes) : undefined;
  } catch (error) {
    return failing(error);
  }
  const { values, errors } = attributes ? personValues(attributes, account.country_code) : { values: {} as PersonValues, errors: {} };
  if (Object.keys(errors).length > 0) return failing(personError(["is invalid"], errors));

  const personId = input.person_id || undefined;
  if (!personId && !attributes) return { reads: () => [], decide: () => ({ kind: "none" }) };
  const keys = attributes && !personId ? matchKeys(attributes, account.country_code) : [];
  const match = Object.fromEntries(keys) as Partial<Record<(typeof keys)[number][0], string | null | undefined>>;
  const holders = {
    accountId: account.id,
    nationalHashes: JSON.stringify(ring && values.national_id_no ? nationalIdHashes(ring, account.id, values.national_id_no) : []),
    nationalId: values.national_id_no || null,
    matchPhone: match.phone_e164 || null,
    phone: values.phone_e164 || null,
    email: values.email || null,
  };
  // The match's national id and email are the values' own; only the phone may differ (phone_number: null beside phonenumber).
  const readsHolders = Boolean(holders.nationalId || holders.matchPhone || holders.phone || holders.email);
  // Only a new person's parent is checked, and only when no one matches; read anyway, in the same batch.
  const readsParent = !personId && values.parent_id != null;
  return {
    reads(d1) {
      const statements: D1PreparedStatement[] = [];
      if (personId) statements.push(bindFixed(d1, personById, { accountId: account.id, id: personId }));
      if (readsHolders) statements.push(bindFixed(d1, identifierHolders, holders));
      if (readsParent) statements.push(bindFixed(d1, ancestry, { accountId: account.id, parentId: values.parent_id! }));
      return statements;
    },
    decide(results) {
      let at = 0;
      const byId = personId ? peopleIn(ring, results[at++])[0] : undefined;
      const known = readsHolders ? peopleIn(ring, results[at++]) : [];
      const parentRows = readsParent ? ((results[at++]?.results ?? []) as { id: number }[]) : [];
      if (personId && !byId) throw ApiError.invalid("person_id", "does not exist");
      const person = byId ?? matchAmong(known, keys);
      if (person) {
        const fill = emptyOnly(person, values);
        // A value another person already holds is left out rather than failing the booking.
        const taken = new Set(takenAmong(known, fill, [person.id]));
        if (taken.has("email")) delete fill.email;
        if (taken.has("phone_number")) {
          delete fill.phone_number;
          delete fill.phone_e164;
        }
        if (taken.has("national_id_no")) delete fill.national_id_no;
        return { kind: "existing", person, fill };
      }
      const parent = readsParent ? parentProblemIn(parentRows) : null;
      const problems = personProblems(values, { parent, taken: takenAmong(known, values) });
      if (Object.keys(problems).length > 0) throw personError(["is invalid"], problems);
      return { kind: "new", values };
    },
  };
}

/** The person as it will be once the plan is applied (what verification checks). */
export function plannedPerson(plan: PersonPlan): PersonValues | null {
  if (plan.kind === "none") return null;
  if (plan.kind === "new") return plan.values;
  return { ...plan.person, ...plan.fill };
}

export const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed/i.test(`${error} ${(error as { cause?: unknown })?.cause ?? ""}`);

/** The answer when another request took an identifier of the new person between the check and the insert. */
export const personTakenMeanwhile = () => personError(["is invalid"], { base: ["an identifier was taken by another person meanwhile; try again"] });

const PEOPLE_COLUMNS = getTableColumns(people);

/** The planned new person's row as a create or an update inserts it beside its booking (guarded-write.ts); undefined for any other plan. */
export function newPersonColumns({ account, now, env }: Pick<Deps, "account" | "now" | "env">, plan: PersonPlan): Record<string, unknown> | undefined {
  if (plan.kind !== "new") return undefined;
  // Only the table's columns, as Drizzle's insert would take them (the statement is raw SQL).
  const values = Object.entries(storedValues(nationalIdKeys(env), account.id, plan.values)).filter(([key]) => key in PEOPLE_COLUMNS);
  return { ...Object.fromEntries(values), account_id: account.id, created_at: now, updated_at: now };
}

/** The update filling a matched person's empty attributes, or none; run only once the booking exists. */
function personFillStatement({ db, account, now, env }: Deps, plan: PersonPlan) {
  if (plan.kind !== "existing" || Object.keys(plan.fill).length === 0) return undefined;
  return db
    .update(people)
    .set({ ...storedValues(nationalIdKeys(env), account.id, plan.fill), updated_at: now })
    .where(and(eq(people.id, plan.person.id), eq(people.account_id, account.id)));
}

/**
 * The fill as the statement right after an update's write in its batch (guarded-write.ts,
 * `runUpdate`): it changes the person only when that write changed the booking (`changes()` is
 * the last statement's own count; a trigger's writes do not count). `OR IGNORE` skips the fill
 * when another request took one of its identifiers meanwhile, as `applyPersonFill` does, rather
 * than undoing the booking's change with the batch.
 */
export function personFillAfterWrite({ account, now, env }: Pick<Deps, "account" | "now" | "env">, plan: PersonPlan): SqlStatement | undefined {
  if (plan.kind !== "existing" || Object.keys(plan.fill).length === 0) return undefined;
  const fill = storedValues(nationalIdKeys(env), account.id, plan.fill);
  const row = toSqlRow({ ...Object.fromEntries(Object.entries(fill).filter(([key]) => key in PEOPLE_COLUMNS)), updated_at: now });
  return {
    sql: `UPDATE OR IGNORE people SET ${Object.keys(row)
      .map((c) => `${c} = ?`)
      .join(", ")} WHERE id = ? AND account_id = ? AND changes() = 1`,
    params: [...Object.values(row), plan.person.id, account.id],
  };
}

/** Fills a matched person's empty attributes once the booking exists. */
export async function applyPersonFill(deps: Deps, plan: PersonPlan): Promise<void> {
  const fill = personFillStatement(deps, plan);
  if (!fill) return;
  try {
    await fill;
  } catch (error) {
    // The booking is made; an identifier another request took meanwhile only stays unfilled.
    if (!isUniqueViolation(error)) throw error;
  }
}
