// `npm run bench -- --rtt N`: what a visitor far from the database waits. Every D1 call and every
// Durable Object call of a request waits N ms first, added by wrapping the bindings in the bench
// entry only (bench/floor-worker.ts); the app itself is unchanged. A capacity guard's own D1 write
// is not delayed again: the object is placed next to the database, one hop away from the Worker.
import { shardNames } from "../src/db/shards";
import type { Env } from "../src/env";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function delayedStatement(statement: D1PreparedStatement, ms: number): D1PreparedStatement {
  return {
    inner: statement,
    bind: (...values: unknown[]) => delayedStatement(statement.bind(...values), ms),
    first: async (column?: string) => { await pause(ms); return column === undefined ? statement.first() : statement.first(column); },
    run: async () => { await pause(ms); return statement.run(); },
    all: async () => { await pause(ms); return statement.all(); },
    raw: async (options?: { columnNames?: boolean }) => { await pause(ms); return statement.raw(options as { columnNames: true }); },
  } as unknown as D1PreparedStatement;
}

const unwrap = (s: D1PreparedStatement) => ((s as unknown as { inner?: D1PreparedStatement }).inner ?? s);

function delayedSession<T extends D1Database | D1DatabaseSession>(d1: T, ms: number): T {
  const wrapped: Record<string, unknown> = {
    prepare: (query: string) => delayedStatement(d1.prepare(query), ms),
    batch: async (statements: D1PreparedStatement[]) => { await pause(ms); return d1.batch(statements.map(unwrap)); },
  };
  if ("getBookmark" in d1) wrapped.getBookmark = () => (d1 as D1DatabaseSession).getBookmark();
  if ("withSession" in d1) {
    const db = d1 as D1Database;
    wrapped.withSession = (constraint?: string) => delayedSession(db.withSession(constraint), ms);
    wrapped.exec = async (query: string) => { await pause(ms); return db.exec(query); };
    wrapped.dump = () => db.dump();
  }
  return wrapped as unknown as T;
}

function delayedNamespace<T extends DurableObjectNamespace<any>>(namespace: T, ms: number): T {
  const delayedStub = (stub: object) => new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function" || property === "then") return value;
      return async (...args: unknown[]) => { await pause(ms); return Reflect.apply(value, target, args); };
    },
  });
  return new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getByName") return (...args: unknown[]) => delayedStub(Reflect.apply(value, target, args));
      return value.bind(target);
    },
  });
}

const delayed = new WeakMap<Env, Env>();

/** The bindings with `BENCH_RTT_MS` of delay per call; the same object per env, so caches keyed on it hold. */
export function withRtt(env: Env & { BENCH_RTT_MS?: string }): Env {
  const ms = Number(env.BENCH_RTT_MS ?? 0);
  if (!(ms > 0)) return env;
  let wrapped = delayed.get(env);
  if (!wrapped) {
    wrapped = {
      ...env,
      ...Object.fromEntries(shardNames(env).map((shard) => [shard, delayedSession((env as unknown as Record<string, D1Database>)[shard], ms)])),
      CAPACITY_GUARD: delayedNamespace(env.CAPACITY_GUARD, ms),
      RATE_LIMITER: delayedNamespace(env.RATE_LIMITER, ms),
    };
    delayed.set(env, wrapped);
  }
  return wrapped;
}
