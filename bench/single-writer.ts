// `BENCH_D1_WRITE_MS=N` (the shards suite): each shard's database takes one write at a time, and
// each write (a statement or a batch that changes rows) holds it for N ms, as D1's single writer
// does in production. Local D1 is SQLite in this process, where a write costs a fraction of a
// millisecond and the CPU is the bottleneck long before the writer is; this makes the writer the
// limit again, per database, so what a second shard buys shows. Bench entry only (floor-worker.ts).
import { shardNames } from "../src/db/shards";
import type { Env } from "../src/env";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const WRITE = /^\s*(insert|update|delete|replace)\b/i;

/** One lock per shard, shared by the Worker and its Durable Objects (one isolate under wrangler dev). */
const tails = new Map<string, Promise<unknown>>();

function oneAtATime<T>(shard: string, ms: number, work: () => Promise<T>): Promise<T> {
  const run = (tails.get(shard) ?? Promise.resolve()).then(async () => {
    await pause(ms);
    return work();
  });
  tails.set(
    shard,
    run.catch(() => undefined),
  );
  return run;
}

interface Writer {
  shard: string;
  ms: number;
}

function statement(inner: D1PreparedStatement, sql: string, w: Writer): D1PreparedStatement {
  const gate = <T>(work: () => Promise<T>) => (WRITE.test(sql) ? oneAtATime(w.shard, w.ms, work) : work());
  return {
    inner,
    sql,
    bind: (...values: unknown[]) => statement(inner.bind(...values), sql, w),
    first: (column?: string) => gate(() => (column === undefined ? inner.first() : inner.first(column))),
    run: () => gate(() => inner.run()),
    all: () => gate(() => inner.all()),
    raw: (options?: { columnNames?: boolean }) => gate(() => inner.raw(options as { columnNames: true })),
  } as unknown as D1PreparedStatement;
}

type Wrapped = { inner?: D1PreparedStatement; sql?: string };

function database<T extends D1Database | D1DatabaseSession>(d1: T, w: Writer): T {
  const wrapped: Record<string, unknown> = {
    prepare: (query: string) => statement(d1.prepare(query), query, w),
    batch: (statements: D1PreparedStatement[]) => {
      const inner = statements.map((s) => (s as unknown as Wrapped).inner ?? s);
      const writes = statements.some((s) => WRITE.test((s as unknown as Wrapped).sql ?? ""));
      return writes ? oneAtATime(w.shard, w.ms, () => d1.batch(inner)) : d1.batch(inner);
    },
  };
  if ("getBookmark" in d1) wrapped.getBookmark = () => (d1 as D1DatabaseSession).getBookmark();
  if ("withSession" in d1) {
    const db = d1 as D1Database;
    wrapped.withSession = (constraint?: string) => database(db.withSession(constraint), w);
    wrapped.exec = (query: string) => db.exec(query);
    wrapped.dump = () => db.dump();
  }
  return wrapped as unknown as T;
}

const wrappedEnvs = new WeakMap<object, Env>();

/** The shards' bindings behind a single writer of `BENCH_D1_WRITE_MS` per write; env itself when unset. */
export function withSingleWriter<E extends Env & { BENCH_D1_WRITE_MS?: string }>(env: E): E {
  const ms = Number(env.BENCH_D1_WRITE_MS ?? 0);
  if (!(ms > 0)) return env;
  let wrapped = wrappedEnvs.get(env);
  if (!wrapped) {
    const raw = env as unknown as Record<string, D1Database>;
    wrapped = { ...env, ...Object.fromEntries(shardNames(env).map((shard) => [shard, database(raw[shard], { shard, ms })])) };
    wrappedEnvs.set(env, wrapped);
  }
  return wrapped as E;
}
