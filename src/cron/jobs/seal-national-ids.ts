// Cron: national id numbers not under the current key of PERSONAL_DATA_KEYS are sealed and hashed
// again: plain text from before encryption (a migration cannot encrypt) and numbers sealed under an
// older key after a rotation. A bounded batch per shard and run; a shard with nothing to do costs
// the one select (docs/decisions/personal-data.md, "National identity numbers").
import { nationalIdKeys } from "../../config";
import { openNationalId, sealNationalId, type NationalIdKeys } from "../../db/national-id";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";

/** Rows per shard and run: one select and one update, each well inside a cron invocation's limits. */
const NATIONAL_IDS_PER_RUN = 500;

const COLUMNS = "id, account_id, national_id_no, national_id_hash";

/**
 * What is left to do, on the two partial indexes of migration 0026: plain numbers (hash null), and
 * for each older key of the ring the range of values it sealed (`v1:<id>:` up to `v1:<id>;`, the
 * character after `:`). Values under a key no longer in the ring cannot be opened and are left
 * alone rather than read again every minute.
 */
function pendingStatement(d1: D1Database, keys: NationalIdKeys, limit: number): D1PreparedStatement {
  const older = keys.all.filter((key) => key !== keys.current);
  const selects = [
    `SELECT ${COLUMNS} FROM people INDEXED BY people_account_national_id_plain WHERE national_id_hash IS NULL AND national_id_no IS NOT NULL`,
    ...older.map(
      () => `SELECT ${COLUMNS} FROM people INDEXED BY people_national_id_sealed WHERE national_id_hash IS NOT NULL AND national_id_no >= ? AND national_id_no < ?`,
    ),
  ];
  return d1.prepare(`${selects.join(" UNION ALL ")} LIMIT ?`).bind(...older.flatMap((key) => [`v1:${key.id}:`, `v1:${key.id};`]), limit);
}

/**
 * One statement for the whole batch: each row changes only if it still holds the value that was
 * read (a person updated meanwhile keeps its new number), and `OR IGNORE` leaves a row whose hash
 * another person of the account already holds (two plain copies of one number) as it is, counted.
 */
const UPDATE = `UPDATE OR IGNORE people SET national_id_no = json_extract(s.value, '$[2]'), national_id_hash = json_extract(s.value, '$[3]')
  FROM json_each(?) AS s
  WHERE people.id = json_extract(s.value, '$[0]') AND people.national_id_no = json_extract(s.value, '$[1]')
  RETURNING people.id`;

type Pending = { id: number; account_id: number; national_id_no: string; national_id_hash: string | null };

export async function sealNationalIds(env: Env, _now: number, shard: string, limit = NATIONAL_IDS_PER_RUN): Promise<void> {
  const keys = nationalIdKeys(env);
  // Without keys the Worker keeps numbers plain (a local run without .dev.vars): nothing to seal.
  if (!keys) return;
  const d1 = shardD1(env, shard);
  const { results } = await pendingStatement(d1, keys, limit).all<Pending>();
  if (results.length === 0) return;
  const rows: [number, string, string, string][] = [];
  for (const row of results) {
    const plain = row.national_id_hash === null ? row.national_id_no : openNationalId(keys, row.national_id_no);
    if (plain === null) continue;
    const sealed = sealNationalId(keys, row.account_id, plain);
    rows.push([row.id, row.national_id_no, sealed.national_id_no, sealed.national_id_hash]);
  }
  // RETURNING counts the rows themselves (D1's `changes` would add the version triggers' writes).
  const sealed = rows.length === 0 ? 0 : (await d1.prepare(UPDATE).bind(JSON.stringify(rows)).all()).results.length;
  console.log(JSON.stringify({ cron: "seal-national-ids", shard, key: keys.current.id, found: results.length, sealed, left: results.length - sealed }));
}
