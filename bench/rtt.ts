// `npm run bench -- --rtt N [--near M]`: what a visitor far from the database waits. The Worker runs
// beside the visitor; D1 is N ms away, and so is each capacity guard and NearDatabase object, which
// a deployment creates beside its database (CAPACITY_GUARD_LOCATIONS), so their own D1 work costs M ms
// (default 2, a hop within one region). A rate limiter is created where its address or key is
// first seen, beside the Worker: M ms too. Added by wrapping the bindings in the bench entry only
// (bench/floor-worker.ts); the app itself is unchanged.
import { shardNames } from "../src/db/shards";
import type { Env } from "../src/env";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function delayedStatement(statement: D1PreparedStatement, ms: number): D1PreparedStatement {
  return {
    inner: statement,
    bind: (...values: unknown[]) => delayedStatement(statement.bind(...values), ms),
    first: async (column?: string) => {
      await pause(ms);
      return column === undefined ? statement.first() : statement.first(column);
    },
    run: async () => {
      await pause(ms);
      return statement.run();
    },
    all: async () => {
      await pause(ms);
      return statement.all();
    },
    raw: async (options?: { columnNames?: boolean }) => {
      await pause(ms);
      return statement.raw(options as { columnNames: true });
    },
  } as unknown as D1PreparedStatement;
}

const unwrap = (s: D1PreparedStatement) => (s as unknown as { inner?: D1PreparedStatement }).inner ?? s;

function delayedSession<T extends D1Database | D1DatabaseSession>(d1: T, ms: number): T {
  const wrapped: Record<string, unknown> = {
    prepare: (query: string) => delayedStatement(d1.prepare(query), ms),
    batch: async (statements: D1PreparedStatement[]) => {
      await pause(ms);
      return d1.batch(statements.map(unwrap));
    },
  };
  if ("getBookmark" in d1) wrapped.getBookmark = () => (d1 as D1DatabaseSession).getBookmark();
  if ("withSession" in d1) {
    const db = d1 as D1Database;
    wrapped.withSession = (constraint?: string) => delayedSession(db.withSession(constraint), ms);
    wrapped.exec = async (query: string) => {
      await pause(ms);
      return db.exec(query);
    };
    wrapped.dump = () => db.dump();
  }
  return wrapped as unknown as T;
}

function delayedNamespace<T extends DurableObjectNamespace<any>>(namespace: T, ms: number): T {
  const delayedStub = (stub: object) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function" || property === "then") return value;
        return async (...args: unknown[]) => {
          await pause(ms);
          return Reflect.apply(value, target, args);
        };
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
const nearDelayed = new WeakMap<Env, Env>();

type BenchEnv = Env & { BENCH_RTT_MS?: string; BENCH_NEAR_MS?: string };
const farMs = (env: BenchEnv) => Number(env.BENCH_RTT_MS ?? 0);
/** Only with distance: without `--rtt` nothing waits. */
const nearMs = (env: BenchEnv) => (farMs(env) > 0 ? Number(env.BENCH_NEAR_MS ?? 2) : 0);

const withShardsDelayed = (env: Env, ms: number) =>
  Object.fromEntries(shardNames(env).map((shard) => [shard, delayedSession((env as unknown as Record<string, D1Database>)[shard], ms)]));

/** The Worker's bindings: D1 and the guards far, the rate limiters near. The same object per env, so caches keyed on it hold. */
export function withRtt(env: BenchEnv): Env {
  const ms = farMs(env);
  if (!(ms > 0)) return env;
  let wrapped = delayed.get(env);
  if (!wrapped) {
    const near = nearMs(env);
    wrapped = {
      ...env,
      ...withShardsDelayed(env, ms),
      CAPACITY_GUARD: delayedNamespace(env.CAPACITY_GUARD, ms),
      // Created where the database is: the Worker's forward of a first request is the long hop.
      ...(env.NEAR_DATABASE ? { NEAR_DATABASE: delayedNamespace(env.NEAR_DATABASE, ms) } : {}),
      RATE_LIMITER: near > 0 ? delayedNamespace(env.RATE_LIMITER, near) : env.RATE_LIMITER,
    };
    delayed.set(env, wrapped);
  }
  return wrapped;
}

/** The bindings of an object beside the database (a capacity guard, a NearDatabase): D1 and the guards one short hop away. */
export function withRttBesideDatabase(env: BenchEnv): Env {
  const near = nearMs(env);
  if (!(near > 0)) return env;
  let wrapped = nearDelayed.get(env);
  if (!wrapped) {
    wrapped = { ...env, ...withShardsDelayed(env, near), CAPACITY_GUARD: delayedNamespace(env.CAPACITY_GUARD, near) };
    nearDelayed.set(env, wrapped);
  }
  return wrapped;
}
