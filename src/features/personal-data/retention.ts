// The retention pass (docs/decisions/personal-data.md): on one shard, people whose last booking
// ended longer ago than their account keeps them are erased as POST /people/{id}/erase erases,
// and settled messages and web hook deliveries older than the account keeps them lose their
// personal text. Bounded per run; what is left is taken by the next run.
import { and, eq, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { openDb } from "../../db/client";
import { directoryDb } from "../../db/directory";
import { PERSONAL_DATA } from "../../db/personal-data";
import { fromDriverRow, rawBatch } from "../../db/raw-batch";
import { accounts, people, type Account, type Person } from "../../db/schema";
import { shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import { nationalIdKeys } from "../../config";
import { toPersonJson } from "../people/serializer";
import { emitEvent } from "../webhooks/emit";
import { eraseEverywhere } from "./erase";

const DAY_MS = 86_400_000;
/**
 * People erased per shard and run: each erasure is two or more D1 batches of its own. The pass
 * costs one scan of the limited accounts' people whatever it erases (npm run bench --
 * personal-data), so a run erases a hundred rather than a few: a backlog of thousands drains in a day.
 */
export const PEOPLE_PER_RUN = 100;
/** Messages, and deliveries, cleared per account and run: one bounded statement each. */
const ROWS_PER_RUN = 1000;

const cutoff = (now: number, days: number | null) => (days === null ? null : now - days * DAY_MS);

/** The registry's overwrite of a table, so retention clears exactly what erasure clears. */
function overwriteOf(table: string) {
  const erasure = PERSONAL_DATA.find((t) => t.table === table)?.erasure;
  if (erasure?.kind !== "overwrite") throw new Error(`${table} has no overwrite in the registry`);
  const sets = Object.entries(erasure.set).map(([column, to]) => sql.raw(`${column} = ${to}`));
  return { sets: sql.join(sets, sql`, `), left: sql.raw(erasure.left) };
}

const MESSAGES = overwriteOf("messages");
const DELIVERIES = overwriteOf("webhook_deliveries");

/** People of the account whose last activity (their last booking's end, else their row's last change) is before `before`. */
const duePeople = (accountId: number, before: number) =>
  sql`SELECT * FROM people AS p WHERE p.account_id = ${accountId} AND p.erased_at IS NULL
    AND COALESCE((SELECT MAX(booked_to) FROM bookings AS b WHERE b.account_id = ${accountId} AND b.person_id = p.id), p.updated_at) < ${before}
    ORDER BY p.id LIMIT ${PEOPLE_PER_RUN}`;

// Settled rows only: a message still to be sent, or a delivery still being tried, keeps its text.
const purgeMessages = (accountId: number, before: number, now: number) =>
  sql`UPDATE messages SET ${MESSAGES.sets}, updated_at = ${now} WHERE rowid IN (SELECT rowid FROM messages
    WHERE account_id = ${accountId} AND created_at < ${before} AND status NOT IN ('queued', 'sending') AND (${MESSAGES.left}) LIMIT ${ROWS_PER_RUN}) RETURNING 1 AS n`;

const purgeDeliveries = (accountId: number, before: number, now: number) =>
  sql`UPDATE webhook_deliveries SET ${DELIVERIES.sets}, updated_at = ${now} WHERE rowid IN (SELECT rowid FROM webhook_deliveries
    WHERE account_id = ${accountId} AND created_at < ${before} AND state <> 'pending' AND (${DELIVERIES.left}) LIMIT ${ROWS_PER_RUN}) RETURNING 1 AS n`;

interface Done {
  people_erased: number;
  message_bodies: number;
  delivery_payloads: number;
}

/**
 * One run on one shard. The directory says which of the shard's accounts keep data for a limited
 * time: a shard where none does costs that one read. The rest is one batch of bounded statements
 * (the people due, and the purges), then one erasure per person due.
 */
export async function applyRetention(env: Env, now: number, shard: string): Promise<void> {
  const limited = await directoryDb(env)
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.shard, shard),
        or(isNotNull(accounts.retention_days_after_last_booking), isNotNull(accounts.message_body_retention_days), isNotNull(accounts.delivery_payload_retention_days)),
      ),
    );
  if (limited.length === 0) return;
  const db = openDb(shardD1(env, shard));

  const statements: { account: Account; kind: keyof Done; statement: SQL }[] = [];
  for (const account of limited) {
    const lastActive = cutoff(now, account.retention_days_after_last_booking);
    const bodies = cutoff(now, account.message_body_retention_days);
    const payloads = cutoff(now, account.delivery_payload_retention_days);
    if (lastActive !== null) statements.push({ account, kind: "people_erased", statement: duePeople(account.id, lastActive) });
    if (bodies !== null) statements.push({ account, kind: "message_bodies", statement: purgeMessages(account.id, bodies, now) });
    if (payloads !== null) statements.push({ account, kind: "delivery_payloads", statement: purgeDeliveries(account.id, payloads, now) });
  }
  const results = await rawBatch(
    db,
    statements.map((s) => s.statement),
  );

  const done = new Map<number, Done>();
  const tally = (account: Account) => {
    let d = done.get(account.id);
    if (!d) done.set(account.id, (d = { people_erased: 0, message_bodies: 0, delivery_payloads: 0 }));
    return d;
  };
  let budget = PEOPLE_PER_RUN;
  for (const [i, { account, kind }] of statements.entries()) {
    const rows = results[i];
    if (rows.length === 0) continue;
    if (kind !== "people_erased") {
      tally(account)[kind] += rows.length;
      continue;
    }
    for (const raw of rows.slice(0, budget)) {
      const person = fromDriverRow(people, raw) as Person;
      const { erased, after } = await eraseEverywhere(db, person, now);
      if (!erased) continue;
      budget -= 1;
      tally(account).people_erased += 1;
      await emitEvent(
        env,
        account,
        "person.erased",
        { kind: "person", id: person.id, json: toPersonJson(after, account.time_zone, nationalIdKeys(env)) },
        { via: "system" },
        now,
      );
    }
  }
  for (const [accountId, counts] of done) console.log(JSON.stringify({ cron: "retention", shard, account_id: accountId, ...counts }));
}
