// Erasing a person: every place the registry (db/personal-data.ts) names is overwritten or
// deleted in bounded rounds, then the person row itself, so a run that stops half-way leaves the
// person unerased and a second run finishes it (docs/decisions/personal-data.md).
import { sql, type SQL } from "drizzle-orm";
import { keysOf, PERSON_TABLES, type PersonKeys, type RegistryTable } from "../../db/personal-data";
import { people, type Person } from "../../db/schema";
import { fromDriverRow, rawBatch } from "../../db/raw-batch";
import type { Db } from "../../env";

/** Rows one statement touches per round: a person with many bookings takes several rounds, each small. */
const ROUND_ROWS = 500;

const hasUpdatedAt = (t: RegistryTable) => t.kept.includes("updated_at");

/** One round's statement for one table: the next ROUND_ROWS of the person's rows that still hold something. */
function sweep(t: RegistryTable, k: PersonKeys, now: number): SQL | null {
  if (!t.reach || t.table === "people") return null;
  const { erasure } = t;
  const table = sql.raw(t.table);
  if (erasure.kind === "delete") {
    return sql`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE account_id = ${k.account_id} AND (${t.reach(k)}) LIMIT ${ROUND_ROWS}) RETURNING 1 AS n`;
  }
  if (erasure.kind !== "overwrite") return null;
  const sets = Object.entries({ ...erasure.set, ...erasure.also }).map(([column, to]) => sql.raw(`${column} = ${to}`));
  if (hasUpdatedAt(t)) sets.push(sql`updated_at = ${now}`);
  return sql`UPDATE ${table} SET ${sql.join(sets, sql`, `)}
    WHERE rowid IN (SELECT rowid FROM ${table} WHERE account_id = ${k.account_id} AND (${t.reach(k)}) AND (${sql.raw(erasure.left)}) LIMIT ${ROUND_ROWS})
    RETURNING 1 AS n`;
}

/** Erases the person row; the batch's next statement reads it back for the answer. */
function erasePersonRow(k: PersonKeys, now: number): SQL {
  const registry = PERSON_TABLES.find((t) => t.table === "people")!;
  if (registry.erasure.kind !== "overwrite") throw new Error("people must be overwritten");
  const sets = Object.entries({ ...registry.erasure.set, ...registry.erasure.also }).map(([column, to]) => sql.raw(`${column} = ${to}`));
  return sql`UPDATE people SET ${sql.join(sets, sql`, `)}, erased_at = ${now}, updated_at = ${now}
    WHERE id = ${k.id} AND account_id = ${k.account_id} AND erased_at IS NULL RETURNING 1 AS n`;
}

export interface ErasureCounts {
  /** Rows overwritten or deleted, by table. */
  rows: Record<string, number>;
  /** Batches sent (each one D1 transaction). */
  rounds: number;
}

/** Rounds are bounded, and so is their number: a person this large is finished by running it again. */
const MAX_ROUNDS = 200;

/**
 * Erases everything the registry reaches of `person`, the person row last. Answers whether this
 * run erased the row (false: it had been erased before, by a run that raced this one).
 */
export async function eraseEverywhere(db: Db, person: Person, now: number): Promise<{ erased: boolean; after: Person; counts: ErasureCounts }> {
  const k = keysOf(person);
  const statements = PERSON_TABLES.map((t) => ({ table: t.table, statement: sweep(t, k, now) })).filter(
    (s): s is { table: string; statement: SQL } => s.statement !== null,
  );
  const counts: ErasureCounts = { rows: {}, rounds: 0 };
  let erased = false;
  let last = false;
  let after = person;
  while (counts.rounds < MAX_ROUNDS) {
    counts.rounds += 1;
    // The person row goes in the round that finds little left, in the same transaction as that
    // round's sweeps: from then on the triggers of drizzle/0025 blank what a racing write adds.
    const personRow = last ? [erasePersonRow(k, now), sql`SELECT * FROM people WHERE id = ${k.id} AND account_id = ${k.account_id}`] : [];
    const results = await rawBatch<{ n: number }>(db, [...statements.map((s) => s.statement), ...personRow]);
    let full = false;
    statements.forEach((s, i) => {
      const n = results[i].length;
      if (n > 0) counts.rows[s.table] = (counts.rows[s.table] ?? 0) + n;
      if (n >= ROUND_ROWS) full = true;
    });
    if (last) {
      // The loop ends here: the person row is read in every last round.
      erased = erased || results[statements.length].length > 0;
      if (erased) counts.rows.people = 1;
      after = fromDriverRow(people, results[statements.length + 1][0]) as Person;
      if (!full) return { erased, after, counts };
      continue;
    }
    if (!full) last = true;
  }
  throw new Error(`erasure of person ${k.id} did not finish in ${MAX_ROUNDS} rounds`);
}
