// One object per resource (and per event) through which every write that takes capacity
// passes, one at a time. The input gate does not cover awaits on D1, so the lock is explicit.
import { DurableObject } from "cloudflare:workers";
import type { GuardedBatch, GuardedResult, SqlRow } from "../db/guarded-batch";
import { DIRECTORY_SHARD, shardD1 } from "../db/shards";
import type { CapacityGuardObject, Env } from "../env";

export class CapacityGuard extends DurableObject<Env> implements CapacityGuardObject {
  #tail: Promise<unknown> = Promise.resolve();

  apply(batch: GuardedBatch): Promise<GuardedResult> {
    const shard = batch.shard ?? DIRECTORY_SHARD;
    const run = this.#tail.then(async () => ({ ...(await applyBatch(shardD1(this.env, shard), batch)), shard }));
    this.#tail = run.catch(() => undefined);
    return run.catch(
      (error: unknown): GuardedResult => ({ applied: false, rows: [], bookmark: null, shard, failure: error instanceof Error ? error.message : String(error) }),
    );
  }
}

/**
 * D1 counts rows that triggers rewrite in `changes` (drizzle/0002: updated_at kept in commit
 * order), so a guarded write that changed its one row can report two.
 */
const changedItsRow = (result: D1Result) => result.meta.changes >= 1;

async function applyBatch(binding: D1Database, { statements, atomic, appliedBy = 0 }: GuardedBatch): Promise<Omit<GuardedResult, "shard">> {
  // Its own session on the primary, so the write's bookmark can be handed back to the request.
  const db = binding.withSession("first-primary");
  if (atomic) {
    const results = await db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)));
    return { applied: changedItsRow(results[appliedBy]), rows: results.map((r) => r.results as SqlRow[]), bookmark: db.getBookmark() };
  }
  const [guarded, ...rest] = statements;
  const first = await db
    .prepare(guarded.sql)
    .bind(...guarded.params)
    .run();
  if (!changedItsRow(first)) return { applied: false, rows: [first.results as SqlRow[]], bookmark: db.getBookmark() };
  // Follow-up writes (e.g. moving an event's bookings) only run when the guard let the write in.
  const others = rest.length ? await db.batch(rest.map((s) => db.prepare(s.sql).bind(...s.params))) : [];
  return { applied: true, rows: [first.results as SqlRow[], ...others.map((r) => r.results as SqlRow[])], bookmark: db.getBookmark() };
}

/** One object per resource or event of a shard: ids are unique within a shard, not across shards. */
export const guardKey = (shard: string, scope: { kind: "resource" | "event"; id: number }) => `${shard}:${scope.kind}:${scope.id}`;
