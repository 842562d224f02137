// What a write that takes capacity hands its capacity guard and gets back, and the interface the
// features reach the guards through (deps.capacityGuard). The guards themselves are Durable Objects
// (durable-objects/capacity-guard.ts, guard-client.ts); their contract lives down here because
// env.ts, which describes every binding and the features' deps, needs it.
import type { SqlStatement } from "./sql-statement";

export type SqlRow = Record<string, string | number | null>;

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

export interface GuardScope {
  kind: "resource" | "event";
  id: number;
}

export interface CapacityGuard {
  /** Runs the batch with no other guarded write of the same scope in between. */
  apply(scope: GuardScope, batch: GuardedBatch): Promise<GuardedResult>;
}
