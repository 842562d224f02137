// What one request spends on D1 and Durable Objects, which D1 handle it reads through on each
// shard (the binding, or a Sessions API session), and whether it may write yet (the rate
// limiter's verdict): kept per request in AsyncLocalStorage so the one Drizzle client per isolate
// (db/client.ts) needs no rebuilding per request.
import { AsyncLocalStorage } from "node:async_hooks";
import { noteRoundTrip } from "./distance";
import type { Env } from "../env";
import { DIRECTORY_SHARD, shardBindings } from "./shards";
import { onlyReads } from "./statement-kind";

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
  /** Every D1 and Durable Object wait, on the request's happens-before clock (`sequentialWaits`). */
  spans: WaitSpan[];
  /** Ticks once per wait that ends: a wait that starts at tick t follows every wait ended by t. */
  clock: number;
}

/** One wait: the clock's tick when it started and the tick its end made. */
export interface WaitSpan {
  kind: "d1" | "do";
  startedAt: number;
  endedAt: number;
}

/**
 * The longest chain of waits each of which started after the one before it ended: what a request
 * waits in sequence at distance, where every wait is a round trip. Ordered by ticks, not by the
 * clock, which in workerd stands still between I/O events and would take sub-millisecond calls
 * that overlapped for a chain. A wait that started after another ended counts as following it
 * even if it did not need its result, so this is an upper bound: exact for code that starts
 * independent waits together, as the routes do.
 */
export function sequentialWaits(spans: readonly WaitSpan[]): { total: number; d1: number; do: number } {
  const byEnd = [...spans].sort((a, b) => a.endedAt - b.endedAt);
  const chains: { total: number; d1: number; do: number }[] = [];
  let longest = { total: 0, d1: 0, do: 0 };
  byEnd.forEach((span, i) => {
    let before = { total: 0, d1: 0, do: 0 };
    for (let j = 0; j < i; j++) {
      if (byEnd[j].endedAt <= span.startedAt && chains[j].total > before.total) before = chains[j];
    }
    const chain = { ...before, total: before.total + 1, [span.kind]: before[span.kind] + 1 };
    chains.push(chain);
    if (chain.total > longest.total) longest = chain;
  });
  return longest;
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
  /**
   * Answered by a NearDatabase object: its round trips say nothing of the Worker's distance from
   * the database (db/distance.ts), even where the two share an isolate (`wrangler dev`, tests).
   */
  besideDatabase?: boolean;
  /**
   * While the rate limiter's verdict is awaited: what the request's writes wait for (below,
   * `holdWritesUntil`). Cleared once it allows the request; rejected for good when it refuses.
   */
  writeGate?: Promise<void>;
  /** The verdict refused the request: its reads are discarded, so no bookmark is answered. */
  refused?: boolean;
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
  if (scope.refused) return null;
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

export const newMeter = (): RequestMeter => ({ d1RoundTrips: 0, rowsRead: 0, doHops: 0, d1Ms: 0, doMs: 0, spans: [], clock: 0 });

/** Runs `call` as one wait of the request, marked on its happens-before clock when it starts and ends. */
function asWait<T>(kind: WaitSpan["kind"], call: () => T): T {
  const meter = store.getStore()?.meter;
  if (!meter) return call();
  const startedAt = meter.clock;
  const ended = () => {
    meter.clock += 1;
    meter.spans.push({ kind, startedAt, endedAt: meter.clock });
  };
  const result = call() as { then?: (f: () => void, r: () => void) => unknown } | undefined;
  // Only observed: the promise itself is returned untouched (an RPC promise pipelines).
  if (typeof result?.then === "function") result.then(ended, ended);
  return result as T;
}

/** Marks the request as answered by a NearDatabase object (app.ts). */
export function markBesideDatabase(): void {
  const scope = store.getStore();
  if (scope) scope.besideDatabase = true;
}

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

/**
 * From now until `verdict` (and any verdict held for before) settles, every D1 statement that may write (db/statement-kind.ts: all
 * but plain reads; a batch if any of its statements may), every Durable Object call but the rate
 * limiter's and every queue send of this request waits for it; reads go ahead. A rejected verdict
 * (a refusal, or the limiter failing) fails those writes with its error, so nothing is written.
 * It lives in the bindings (`meteredEnv`) rather than in each route, so no route can forget it.
 */
export function holdWritesUntil(verdict: Promise<unknown>): void {
  const scope = store.getStore();
  if (!scope) return;
  // Verdicts add up: the rate limiter's and the directory's confirmation of a guessed account (http/auth.ts).
  const all = scope.writeGate ? Promise.all([scope.writeGate, verdict]) : verdict;
  const gate = all.then(
    () => {
      // Allowed: later writes run at once, without a turn through the gate.
      if (scope.writeGate === gate) scope.writeGate = undefined;
    },
    (refusal: unknown) => {
      scope.refused = true;
      throw refusal;
    },
  );
  // Awaited by each held write and by the rate limiter's middleware; a request that holds none must not report it unhandled.
  gate.catch(() => undefined);
  scope.writeGate = gate;
}

/** Settles when the request may write (at once when no verdict is pending); rejects when it may not. */
export const writesMayRun = (): Promise<void> => store.getStore()?.writeGate ?? Promise.resolve();

/** Runs `write` when the request may write: at once when no verdict is pending. */
function afterVerdict<T>(write: () => Promise<T>): Promise<T> {
  const gate = store.getStore()?.writeGate;
  return gate ? gate.then(write) : write();
}

/**
 * Workers' clock moves only while the isolate waits on I/O, so a call's span is the time it waited,
 * not CPU: what Server-Timing's `dur` shows.
 */
function tally(roundTrips: number, rows: number, startedAt: number) {
  const scope = store.getStore();
  if (!scope) return;
  const { meter } = scope;
  const waited = performance.now() - startedAt;
  meter.d1RoundTrips += roundTrips;
  meter.rowsRead += rows;
  meter.d1Ms += waited;
  if (roundTrips === 1 && !scope.besideDatabase) noteRoundTrip(waited, Date.now());
}

const rowsOf = (result: D1Result | undefined) => Number(result?.meta?.rows_read ?? result?.results?.length ?? 0);

/**
 * A statement that tallies its execution and, when it may write, waits for the request's verdict
 * (`holdWritesUntil`), whichever method runs it: `INSERT … RETURNING` answers rows through
 * `all`/`first`/`raw` as a read would. `inner` is what the D1 binding's batch accepts.
 */
class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly mayWrite: boolean,
  ) {}
  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values), this.mayWrite);
  }
  #execute<R>(execute: () => Promise<R>): Promise<R> {
    const wait = () => asWait("d1", execute);
    return this.mayWrite ? afterVerdict(wait) : wait();
  }
  async first<T>(column?: string): Promise<T | null> {
    const startedAt = performance.now();
    const row = await this.#execute(() => (column === undefined ? this.inner.first<T>() : this.inner.first<T>(column)));
    tally(1, row === null ? 0 : 1, startedAt);
    return row;
  }
  async run<T>(): Promise<D1Result<T>> {
    const startedAt = performance.now();
    const result = await this.#execute(() => this.inner.run<T>());
    tally(1, rowsOf(result), startedAt);
    return result;
  }
  async all<T>(): Promise<D1Result<T>> {
    const startedAt = performance.now();
    const result = await this.#execute(() => this.inner.all<T>());
    tally(1, rowsOf(result), startedAt);
    return result;
  }
  async raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    const startedAt = performance.now();
    const rows = await this.#execute(() => this.inner.raw<T>(options as { columnNames: true }));
    tally(1, rows.length, startedAt);
    return rows as T[];
  }
}

const unwrap = (s: D1PreparedStatement) => (s instanceof MeteredStatement ? s.inner : s) as D1PreparedStatement;

/** A batch is one transaction, so one statement that may write holds all of it; a statement prepared elsewhere is taken as a write. */
const batchMayWrite = (statements: D1PreparedStatement[]) => statements.some((s) => !(s instanceof MeteredStatement) || s.mayWrite);

/**
 * `onlyReads` per statement text, remembered: most texts are built once per isolate and bound per
 * request, so the scan would repeat on every request. Bounded, for texts that carry their values.
 */
const statementKinds = new Map<string, boolean>();
function readsOnly(query: string): boolean {
  let reads = statementKinds.get(query);
  if (reads === undefined) {
    reads = onlyReads(query);
    if (statementKinds.size >= 2_000) statementKinds.clear();
    statementKinds.set(query, reads);
  }
  return reads;
}

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
    prepare: (query: string) => new MeteredStatement(target().prepare(query), !readsOnly(query)) as unknown as D1PreparedStatement,
    batch: async <T>(statements: D1PreparedStatement[]) => {
      const startedAt = performance.now();
      const run = () => asWait("d1", () => target().batch<T>(statements.map(unwrap)));
      const results = await (batchMayWrite(statements) ? afterVerdict(run) : run());
      tally(
        1,
        results.reduce((sum, r) => sum + rowsOf(r as D1Result), 0),
        startedAt,
      );
      return results;
    },
    exec: async (query: string) => {
      const startedAt = performance.now();
      const result = await afterVerdict(() => asWait("d1", () => binding.exec(query)));
      tally(1, 0, startedAt);
      return result;
    },
    withSession: (constraint?: string) => binding.withSession(constraint),
    dump: () => binding.dump(),
  } as unknown as D1Database;
  routed.set(binding, wrapped);
  return wrapped;
}

/**
 * A namespace whose stubs tally each call on the request's meter; unless it is the rate
 * limiter's own, each call also waits for the verdict (an object such as a capacity guard writes).
 */
// biome-ignore lint/suspicious/noExplicitAny: any namespace, whatever class it serves
function meteredNamespace<T extends DurableObjectNamespace<any>>(namespace: T, { holdForVerdict }: { holdForVerdict: boolean }): T {
  const countCalls = (stub: object) =>
    new Proxy(stub, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function" || property === "then") return value;
        return (...args: unknown[]) => {
          const meter = store.getStore()?.meter;
          const gate = holdForVerdict ? store.getStore()?.writeGate : undefined;
          const startedAt = performance.now();
          const call = () => asWait("do", () => Reflect.apply(value, target, args));
          // Called at once when nothing is pending, so the stub's promise (pipelining) is kept.
          const result = (gate ? gate.then(call) : call()) as { then?: (f: () => void, r: () => void) => unknown } | undefined;
          if (meter) {
            meter.doHops += 1;
            const waited = () => {
              meter.doMs += performance.now() - startedAt;
            };
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

/** A queue whose sends wait for the request's verdict. */
function heldQueue<T extends Queue<unknown>>(queue: T): T {
  return new Proxy(queue, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => afterVerdict(async () => Reflect.apply(value, target, args));
    },
  });
}

/**
 * Bindings whose calls do not wait for the verdict: the rate limiter, which decides it, and the
 * NearDatabase objects, to which a request is forwarded whole (http/near-database.ts holds a write for it).
 */
const UNHELD_BINDINGS = new Set(["RATE_LIMITER", "NEAR_DATABASE"]);

const has = (value: unknown, ...methods: string[]) =>
  typeof value === "object" && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === "function");

const meteredEnvs = new WeakMap<Env, Env>();
const metered = new WeakSet<Env>();

/**
 * The bindings as a request's code sees them; built once per isolate and binding set. Durable
 * Object namespaces and queues are recognised by shape rather than by name, so one added later is
 * held for the verdict without a line here.
 */
export function meteredEnv(env: Env): Env {
  // A request asked again from inside another (http/auth.ts) arrives with metered bindings already.
  if (metered.has(env)) return env;
  let wrapped = meteredEnvs.get(env);
  if (!wrapped) {
    const bindings: Record<string, unknown> = { ...env };
    for (const [name, binding] of Object.entries(env)) {
      if (has(binding, "idFromName", "getByName")) {
        bindings[name] = meteredNamespace(binding as DurableObjectNamespace, { holdForVerdict: !UNHELD_BINDINGS.has(name) });
      } else if (has(binding, "send", "sendBatch")) {
        bindings[name] = heldQueue(binding as Queue<unknown>);
      }
    }
    for (const [name, binding] of Object.entries(shardBindings(env))) bindings[name] = meteredD1(name, binding);
    wrapped = bindings as unknown as Env;
    meteredEnvs.set(env, wrapped);
    metered.add(wrapped);
  }
  return wrapped;
}
