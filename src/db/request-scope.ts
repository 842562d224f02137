// What one request spends on D1 and Durable Objects, and which D1 handle it reads through (the
// binding, or a Sessions API session): kept per request in AsyncLocalStorage so the one Drizzle
// client per isolate (db/client.ts) needs no rebuilding per request.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Env } from "../env";

export interface RequestMeter {
  /** Sequential waits on D1: each statement run alone and each batch count one. */
  d1RoundTrips: number;
  /** D1's `rows_read` where the call answers it (all, run, batch), else the rows returned (raw, first). */
  rowsRead: number;
  /** Calls to Durable Object stubs (rate limiter, capacity guard); their own D1 work is inside. */
  doHops: number;
}

export interface RequestScope {
  meter: RequestMeter;
  /** Where this request's statements go; the binding itself when unset (background work). */
  d1?: D1Database | D1DatabaseSession;
  /** The D1 binding the session belongs to, for sessions started again from a bookmark. */
  binding?: D1Database;
}

/**
 * After a write made elsewhere (a Durable Object's own session), this request's later reads must
 * see it: they continue in a session that starts at that write's bookmark.
 */
export function followBookmark(bookmark: string | null | undefined): void {
  const scope = store.getStore();
  if (scope?.binding && bookmark) scope.d1 = scope.binding.withSession(bookmark);
}

/** The bookmark of everything this request read or wrote, for the client's next request. */
export function scopeBookmark(scope: RequestScope): string | null {
  const d1 = scope.d1 as D1DatabaseSession | undefined;
  return typeof d1?.getBookmark === "function" ? d1.getBookmark() : null;
}

const store = new AsyncLocalStorage<RequestScope>();

export const newMeter = (): RequestMeter => ({ d1RoundTrips: 0, rowsRead: 0, doHops: 0 });
export const runInScope = <T>(scope: RequestScope, work: () => T): T => store.run(scope, work);
export const currentScope = (): RequestScope | undefined => store.getStore();

function tally(roundTrips: number, rows: number) {
  const meter = store.getStore()?.meter;
  if (!meter) return;
  meter.d1RoundTrips += roundTrips;
  meter.rowsRead += rows;
}

const rowsOf = (result: D1Result | undefined) => Number(result?.meta?.rows_read ?? result?.results?.length ?? 0);

/** A statement that tallies its execution; `inner` is what the D1 binding's batch accepts. */
class MeteredStatement {
  constructor(readonly inner: D1PreparedStatement) {}
  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values));
  }
  async first<T>(column?: string): Promise<T | null> {
    const row = column === undefined ? await this.inner.first<T>() : await this.inner.first<T>(column);
    tally(1, row === null ? 0 : 1);
    return row;
  }
  async run<T>(): Promise<D1Result<T>> {
    const result = await this.inner.run<T>();
    tally(1, rowsOf(result));
    return result;
  }
  async all<T>(): Promise<D1Result<T>> {
    const result = await this.inner.all<T>();
    tally(1, rowsOf(result));
    return result;
  }
  async raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    const rows = await this.inner.raw<T>(options as { columnNames: true });
    tally(1, rows.length);
    return rows as T[];
  }
}

const unwrap = (s: D1PreparedStatement) => (s instanceof MeteredStatement ? s.inner : s) as D1PreparedStatement;

const routed = new WeakMap<D1Database, D1Database>();

/**
 * The binding as requests use it: statements go to the request's session when it has one, and
 * every execution is tallied on the request's meter. One object per binding, so it can key caches.
 */
function meteredD1(binding: D1Database): D1Database {
  let wrapped = routed.get(binding);
  if (wrapped) return wrapped;
  const target = () => store.getStore()?.d1 ?? binding;
  wrapped = {
    prepare: (query: string) => new MeteredStatement(target().prepare(query)) as unknown as D1PreparedStatement,
    batch: async <T>(statements: D1PreparedStatement[]) => {
      const results = await target().batch<T>(statements.map(unwrap));
      tally(1, results.reduce((sum, r) => sum + rowsOf(r as D1Result), 0));
      return results;
    },
    exec: async (query: string) => {
      const result = await binding.exec(query);
      tally(1, 0);
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
          if (meter) meter.doHops += 1;
          return Reflect.apply(value, target, args);
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
    wrapped = {
      ...env,
      DB: meteredD1(env.DB),
      CAPACITY_GUARD: meteredNamespace(env.CAPACITY_GUARD),
      RATE_LIMITER: meteredNamespace(env.RATE_LIMITER),
    };
    meteredEnvs.set(env, wrapped);
  }
  return wrapped;
}
