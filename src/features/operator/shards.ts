// Where accounts live: choosing a new account's shard, a shard's readiness, its id range, and
// moving an account between shards (docs/scaling.md).
import { eq, sql } from "drizzle-orm";
import { deleteAccountRows, insertStatements, runInBatches, type Row } from "../../db/account-rows";
import { dataTables } from "../../db/data-tables";
import { directoryDb } from "../../db/directory";
import { accounts, type Account } from "../../db/schema";
import { appliedMigrations, DIRECTORY_SHARD, idRangeOf, isShardName, shardD1, shardIndex, shardNames } from "../../db/shards";
import type { Env } from "../../env";
import { evictAccount } from "../../http/account-cache";
import { ApiError } from "../../http/errors";

/** The shards that take new accounts when the operator names none: PLACEMENT_SHARDS, else all. */
function placementShards(env: Env): string[] {
  const listed = env.PLACEMENT_SHARDS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return listed?.length ? listed.filter((s) => isShardName(env, s)) : shardNames(env);
}

/** The least-loaded shard by account count; a tie goes to the lowest-numbered shard. */
export function leastLoaded(candidates: string[], counts: Map<string, number>): string {
  return [...candidates].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || shardIndex(a) - shardIndex(b))[0];
}

/** A shard takes accounts once it has every migration the directory has. */
async function isReady(env: Env, shard: string): Promise<boolean> {
  if (shard === DIRECTORY_SHARD) return true;
  try {
    const [own, directory] = await Promise.all([appliedMigrations(shardD1(env, shard)), appliedMigrations(shardD1(env, DIRECTORY_SHARD))]);
    return own >= 0 && own >= directory;
  } catch {
    return false; // a shard that does not answer takes no new accounts
  }
}

const unknownShard = (env: Env) => ApiError.invalid("shard", `is not a shard of this deployment (${shardNames(env).join(", ")})`);

/** The operator's choice, checked; else the least-loaded ready shard of the placement list. */
export async function chooseShard(env: Env, requested: string | undefined): Promise<string> {
  if (requested !== undefined) {
    if (!isShardName(env, requested)) throw unknownShard(env);
    if (!(await isReady(env, requested))) throw ApiError.invalid("shard", "is not migrated yet: apply drizzle/ to it first");
    return requested;
  }
  const ready = [];
  for (const shard of placementShards(env)) if (await isReady(env, shard)) ready.push(shard);
  if (ready.length === 0) return DIRECTORY_SHARD;
  const rows = await directoryDb(env).select({ shard: accounts.shard, n: sql<number>`count(*)` }).from(accounts).groupBy(accounts.shard);
  return leastLoaded(ready, new Map(rows.map((r) => [r.shard, r.n])));
}

/**
 * Shard n allocates ids above n × ID_RANGE, so an account moved between shards keeps its ids
 * without meeting another account's. Idempotent: raises each counter to the range start only.
 * A database that refuses writes to sqlite_sequence keeps ids per shard from 1: nothing breaks,
 * a move then finds clashes more often and refuses them (docs/scaling.md), so this only logs.
 */
export async function claimIdRange(env: Env, shard: string): Promise<void> {
  const { start } = idRangeOf(shard);
  if (start === 0) return;
  const d1 = shardD1(env, shard);
  await d1
    .batch(
      dataTables
        .filter((t) => t.autoIncrement)
        .flatMap((t) => [
          d1.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)").bind(t.name, start, t.name),
          d1.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?").bind(start, t.name, start),
        ]),
    )
    .catch((error) => console.error(JSON.stringify({ shard, error: `id range not claimed: ${String(error)}` })));
}

/** The table's written columns, not `*`: a generated column (bookings' occupied span) cannot be inserted. */
async function exportRows(d1: D1Database, accountId: number): Promise<Map<string, Row[]>> {
  const results = await d1.batch(
    dataTables.map((t) => d1.prepare(`SELECT ${t.columns.join(", ")} FROM ${t.name} WHERE account_id = ? ORDER BY ${t.orderBy}`).bind(accountId)),
  );
  return new Map(dataTables.map((t, i) => [t.name, (results[i].results ?? []) as Row[]]));
}

/** Ids of the account's rows that the target already uses for another account's rows. */
async function idClashes(target: D1Database, exported: Map<string, Row[]>): Promise<string[]> {
  const clashes: string[] = [];
  for (const table of dataTables.filter((t) => t.autoIncrement)) {
    const ids = (exported.get(table.name) ?? []).map((r) => Number(r.id));
    if (ids.length === 0) continue;
    const found = await target
      .prepare(`SELECT id FROM ${table.name} WHERE id IN (SELECT value FROM json_each(?)) LIMIT 5`)
      .bind(JSON.stringify(ids))
      .all<{ id: number }>();
    for (const row of found.results) clashes.push(`${table.name} ${row.id}`);
  }
  return clashes;
}

/** Background work still to run for the account: it names the old shard, so a move waits for it. */
async function pendingWork(d1: D1Database, accountId: number): Promise<string[]> {
  const [collections, messages, deliveries] = await d1.batch<{ n: number }>([
    d1.prepare("SELECT count(*) AS n FROM recurring_collections WHERE account_id = ? AND status = 'pending'").bind(accountId),
    d1.prepare("SELECT count(*) AS n FROM messages WHERE account_id = ? AND status IN ('queued', 'sending')").bind(accountId),
    d1.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = ? AND state = 'pending'").bind(accountId),
  ]);
  return [
    collections.results[0].n ? `${collections.results[0].n} recurring collections being created` : "",
    messages.results[0].n ? `${messages.results[0].n} messages being sent` : "",
    deliveries.results[0].n ? `${deliveries.results[0].n} web hook deliveries pending` : "",
  ].filter(Boolean);
}

export interface MoveReport {
  from: string;
  to: string;
  /** Rows copied, by table. */
  rows: Record<string, number>;
}

/**
 * Export, import, switch, clean up. The account must be frozen first (api_enabled and
 * public_access false for longer than the account cache lives), so nothing writes to the old
 * shard between the export and the switch; a failure before the switch leaves the old shard
 * authoritative and removes the partial copy.
 */
export async function moveAccount(env: Env, accountId: number, target: string, now: number): Promise<{ account: Account; report: MoveReport }> {
  const directory = directoryDb(env);
  const account = await directory.query.accounts.findFirst({ where: eq(accounts.id, accountId) });
  if (!account) throw ApiError.notFound("account");
  if (!isShardName(env, target)) throw unknownShard(env);
  if (target === account.shard) throw ApiError.invalid("shard", `is already the account's shard`);
  if (account.api_enabled || account.public_access) {
    throw ApiError.invalid("base", "freeze the account first: set api_enabled and public_access to false, wait 30 seconds (the account cache), then move");
  }
  if (!(await isReady(env, target))) throw ApiError.invalid("shard", "is not migrated yet: apply drizzle/ to it first");
  const source = shardD1(env, account.shard);
  const destination = shardD1(env, target);
  const pending = await pendingWork(source, accountId);
  if (pending.length) throw new ApiError(409, { error: `The account still has background work on its shard: ${pending.join(", ")}. Move it once that is done.` });

  const exported = await exportRows(source, accountId);
  await claimIdRange(env, target);
  // A copy left by an earlier failed move is not the account's data: the old shard is.
  await deleteAccountRows(destination, accountId);
  const clashes = await idClashes(destination, exported);
  if (clashes.length) throw new ApiError(409, { error: `The target shard already uses some of the account's ids (${clashes.join(", ")}); nothing was moved.` });
  try {
    await runInBatches(
      destination,
      dataTables.flatMap((t) => insertStatements(destination, t.name, exported.get(t.name) ?? [])),
    );
  } catch (error) {
    await deleteAccountRows(destination, accountId);
    throw error;
  }
  const [moved] = await directory.update(accounts).set({ shard: target, updated_at: now }).where(eq(accounts.id, accountId)).returning();
  evictAccount(accountId);
  await deleteAccountRows(source, accountId);
  const rows = Object.fromEntries([...exported].filter(([, r]) => r.length).map(([name, r]) => [name, r.length]));
  return { account: moved, report: { from: account.shard, to: target, rows } };
}
