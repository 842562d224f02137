// One object per resource (and per event) through which every write that takes capacity
// passes, one at a time. The input gate does not cover awaits on D1, so the lock is explicit.
import { DurableObject } from "cloudflare:workers";
import type { SqlStatement } from "../db/sql-statement";
import { DIRECTORY_SHARD, shardD1 } from "../db/shards";
import type { Env } from "../env";

type SqlRow = Record<string, string | number | null>;

export interface GuardedBatch {
  /** The shard holding the guarded rows (db/shards.ts); DB when absent (callers before shards). */
  shard?: string;
  /** Run in one D1 batch. The first statement (`appliedBy`) is the guarded write: it must change one row. */
  statements: SqlStatement[];
  /**
   * Run every statement in one D1 batch, all or nothing. The follow-ups then run whether or not
   * the first changed a row, so each must carry its own condition (e.g. "bookings that differ
   * from their event"). Without it, follow-ups run in a second batch only after the first applied.
   */
  atomic?: boolean;
  /**
   * With `atomic`: which statement is the guarded write (0 when absent). Statements before it must
   * carry the same condition, so they change rows exactly when it does (a create's new person).
   */
  appliedBy?: number;
}

export interface GuardedResult {
  applied: boolean;
  /** Rows returned by each statement (e.g. `RETURNING *` of the guarded write). */
  rows: SqlRow[][];
  /** D1 bookmark after the write: the caller's later reads continue from it (read replicas). */
  bookmark: string | null;
  /** The shard written, whose database the bookmark belongs to. */
  shard: string;
  /**
   * The batch failed (nothing written): its error's message, answered rather than thrown, since a
   * rejection out of the object is reported as its uncaught exception; the client throws it again
   * (guard-client.ts). A create's new person whose identifier another request took meanwhile is one.
   */
  failure?: string;
}

export class CapacityGuard extends DurableObject<Env> {
  #tail: Promise<unknown> = Promise.resolve();

  apply(batch: GuardedBatch): Promise<GuardedResult> {
    const shard = batch.shard ?? DIRECTORY_SHARD;
    const run = this.#tail.then(async () => ({ ...(await applyBatch(shardD1(this.env, shard), batch)), shard }));
    this.#tail = run.catch(() => undefined);
    return run.catch((error: unknown): GuardedResult =>
      ({ applied: false, rows: [], bookmark: null, shard, failure: error instanceof Error ? error.message : String(error) }));
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
  const first = await db.prepare(guarded.sql).bind(...guarded.params).run();
  if (!changedItsRow(first)) return { applied: false, rows: [first.results as SqlRow[]], bookmark: db.getBookmark() };
  // Follow-up writes (e.g. moving an event's bookings) only run when the guard let the write in.
  const others = rest.length ? await db.batch(rest.map((s) => db.prepare(s.sql).bind(...s.params))) : [];
  return { applied: true, rows: [first.results as SqlRow[], ...others.map((r) => r.results as SqlRow[])], bookmark: db.getBookmark() };
}

/** One object per resource or event of a shard: ids are unique within a shard, not across shards. */
export const guardKey = (shard: string, scope: { kind: "resource" | "event"; id: number }) => `${shard}:${scope.kind}:${scope.id}`;
