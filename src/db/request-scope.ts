// What one request spends on D1 and Durable Objects, and which D1 handle it reads through on each
// shard (the binding, or a Sessions API session): kept per request in AsyncLocalStorage so the one Drizzle
// client per isolate (db/client.ts) needs no rebuilding per request.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Env } from "../env";
import { DIRECTORY_SHARD, shardBindings } from "./shards";

export interface RequestMeter {
  /** Sequential waits on D1: each statement run alone and each batch count one. */
  d1RoundTrips: number;
  /** D1's `rows_read` where the call answers it (all, run, batch), else the rows returned (raw, first). */
  rowsRead: number;
  /** Calls to Durable Object stubs (rate limiter, capacity guard); their own D1 work is inside. */
  doHops: number;
  /** Milliseconds waited on D1 and on Durable Objects, summed over calls (overlapping calls each count). */
  d1Ms: number;
  doMs: number;
  /** Whether the isolate's answer cache (slots, booking lists) served the answer; unset when none was asked. */
  cache?: "hit" | "miss";
}

export interface RequestScope {
  meter: RequestMeter;
  /** Reads may start on a replica; a write's sessions start on the primary. */
  reads: boolean;
  /** The client's `x-d1-bookmark`: which shard's database it belongs to, and where it stands. */
  bookmark?: { shard: string; bookmark: string };
  /** The raw D1 binding of each shard, on which sessions are opened; background work has none. */
  bindings?: Readonly<Record<string, D1Database>>;
  /** The request's D1 session per shard, opened at its first statement there. */
  sessions: Map<string, D1DatabaseSession>;
  /** The shard of the request's account once known: its bookmark is the one answered. */
  dataShard?: string;
}

/**
 * After a write made elsewhere (a Durable Object's own session), this request's later reads on
 * that shard must see it: they continue in a session that starts at that write's bookmark.
 */
export function followBookmark(shard: string, bookmark: string | null | undefined): void {
  const scope = store.getStore();
  const binding = scope?.bindings?.[shard];
  if (scope && binding && bookmark) scope.sessions.set(shard, binding.withSession(bookmark));
}

/** The shard whose bookmark the answer carries, and that bookmark. */
export function scopeBookmark(scope: RequestScope): { shard: string; bookmark: string } | null {
  const shard = scope.dataShard ?? DIRECTORY_SHARD;
  const session = scope.sessions.get(shard);
  const bookmark = session?.getBookmark();
  return bookmark ? { shard, bookmark } : null;
}

/**
 * Whether the next statement on `shard` reads the primary's current state: true with no session
 * (background work uses the binding, whose statements all go to the primary) and when it will be
 * the first statement of a write request's session there ("first-primary"); false once the session
 * has run a statement (later ones may be served by a replica as fresh as that one, not newer), for
 * reads ("first-unconstrained") and when the client's bookmark starts the session (a replica at
 * least that fresh).
 */
export function nextStatementOnPrimary(shard: string): boolean {
  const scope = store.getStore();
  if (!scope?.bindings) return true;
  return !scope.reads && !scope.sessions.has(shard) && scope.bookmark?.shard !== shard;
}

function sessionFor(scope: RequestScope, shard: string, binding: D1Database): D1DatabaseSession {
  let session = scope.sessions.get(shard);
  if (!session) {
    const fromBookmark = scope.bookmark?.shard === shard ? scope.bookmark.bookmark : undefined;
    session = binding.withSession(fromBookmark ?? (scope.reads ? "first-unconstrained" : "first-primary"));
    scope.sessions.set(shard, session);
  }
  return session;
}

const store = new AsyncLocalStorage<RequestScope>();

export const newMeter = (): RequestMeter => ({ d1RoundTrips: 0, rowsRead: 0, doHops: 0, d1Ms: 0, doMs: 0 });

/** Marks the shard of the request's account, once auth knows it: its bookmark is answered. */
export function setDataShard(shard: string): void {
  const scope = store.getStore();
  if (scope) scope.dataShard = shard;
}
/** A request that asked several cached answers is a miss if any of them was one. */
export function noteCache(outcome: "hit" | "miss"): void {
  const meter = store.getStore()?.meter;
  if (meter && meter.cache !== "miss") meter.cache = outcome;
}
export const runInScope = <T>(scope: RequestScope, work: () => T): T => store.run(scope, work);
export const currentScope = (): RequestScope | undefined => store.getStore();

/**
 * Workers' clock moves only while the isolate waits on I/O, so a call's span is the time it waited,
 * not CPU: what Server-Timing's `dur` shows.
 */
function tally(roundTrips: number, rows: number, startedAt: number) {
  const meter = store.getStore()?.meter;
  if (!meter) return;
  meter.d1RoundTrips += roundTrips;
  meter.rowsRead += rows;
  meter.d1Ms += performance.now() - startedAt;
}

const rowsOf = (result: D1Result | undefined) => Number(result?.meta?.rows_read ?? result?.results?.length ?? 0);

/** A statement that tallies its execution; `inner` is what the D1 binding's batch accepts. */
class MeteredStatement {
  constructor(readonly inner: D1PreparedStatement) {}
  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values));
  }
  async first<T>(column?: string): Promise<T | null> {
    const startedAt = performance.now();
    const row = column === undefined ? await this.inner.first<T>() : await this.inner.first<T>(column);
    tally(1, row === null ? 0 : 1, startedAt);
    return row;
  }
  async run<T>(): Promise<D1Result<T>> {
    const startedAt = performance.now();
    const result = await this.inner.run<T>();
    tally(1, rowsOf(result), startedAt);
    return result;
  }
  async all<T>(): Promise<D1Result<T>> {
    const startedAt = performance.now();
    const result = await this.inner.all<T>();
    tally(1, rowsOf(result), startedAt);
    return result;
  }
  async raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    const startedAt = performance.now();
    const rows = await this.inner.raw<T>(options as { columnNames: true });
    tally(1, rows.length, startedAt);
    return rows as T[];
  }
}

const unwrap = (s: D1PreparedStatement) => (s instanceof MeteredStatement ? s.inner : s) as D1PreparedStatement;

const routed = new WeakMap<D1Database, D1Database>();

/**
 * A shard's binding as requests use it: statements go to the request's session on that shard when
 * it has sessions, and every execution is tallied on the request's meter. One object per binding,
 * so it can key caches.
 */
function meteredD1(shard: string, binding: D1Database): D1Database {
  let wrapped = routed.get(binding);
  if (wrapped) return wrapped;
  const target = (): D1Database | D1DatabaseSession => {
    const scope = store.getStore();
    return scope?.bindings ? sessionFor(scope, shard, binding) : binding;
  };
  wrapped = {
    prepare: (query: string) => new MeteredStatement(target().prepare(query)) as unknown as D1PreparedStatement,
    batch: async <T>(statements: D1PreparedStatement[]) => {
      const startedAt = performance.now();
      const results = await target().batch<T>(statements.map(unwrap));
      tally(1, results.reduce((sum, r) => sum + rowsOf(r as D1Result), 0), startedAt);
      return results;
    },
    exec: async (query: string) => {
      const startedAt = performance.now();
      const result = await binding.exec(query);
      tally(1, 0, startedAt);
      return result;
    },
    withSession: (constraint?: string) => binding.withSession(constraint),
    dump: () => binding.dump(),
  } as unknown as D1Database;
  routed.set(binding, wrapped);
  return wrapped;
}

/** A namespace whose stubs tally each call on the request's meter. */
function meteredNamespace<T extends DurableObjectNamespace<any>>(namespace: T): T {
  const countCalls = (stub: object) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function" || property === "then") return value;
        return (...args: unknown[]) => {
          const meter = store.getStore()?.meter;
          const startedAt = performance.now();
          const result = Reflect.apply(value, target, args) as { then?: (f: () => void, r: () => void) => unknown } | undefined;
          if (meter) {
            meter.doHops += 1;
            const waited = () => { meter.doMs += performance.now() - startedAt; };
            // The call's own promise is returned untouched (RPC promises pipeline); this branch only times it.
            if (typeof result?.then === "function") result.then(waited, waited);
          }
          return result;
        };
      },
    });
  return new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getByName") {
        return (...args: unknown[]) => countCalls(Reflect.apply(value, target, args));
      }
      return value.bind(target);
    },
  });
}

const meteredEnvs = new WeakMap<Env, Env>();

/** The bindings as a request's code sees them; built once per isolate and binding set. */
export function meteredEnv(env: Env): Env {
  let wrapped = meteredEnvs.get(env);
  if (!wrapped) {
    const shards = Object.fromEntries(Object.entries(shardBindings(env)).map(([name, binding]) => [name, meteredD1(name, binding)]));
    wrapped = {
      ...env,
      ...shards,
      CAPACITY_GUARD: meteredNamespace(env.CAPACITY_GUARD),
      RATE_LIMITER: meteredNamespace(env.RATE_LIMITER),
    };
    meteredEnvs.set(env, wrapped);
  }
  return wrapped;
}
