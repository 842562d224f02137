// Three faults of @cloudflare/vitest-pool-workers 0.23. The first two only bite when a runtime
// outlives one test file (vitest.config.ts, `isolate: false`; docs/decisions/test-suite.md) and are
// fixed in @cloudflare/vitest-plugin, which this project cannot install (docs/decisions/toolchain.md);
// the third is how the pool loads modules.
// Runs first in setupFiles, before each test file.
import { beforeEach } from "vitest";

interface ModuleRunner {
  transport: { invoke: unknown };
  evaluator: { createRequire: unknown; runExternalModule(id: string): Promise<Record<string, unknown>> };
}

/** What the first test file of this runtime saw, kept on the runtime's global across files. */
interface FirstSeen {
  invoke: unknown;
  createRequire: unknown;
  prototypes: Map<{ prototype: unknown }, unknown>;
}

const FIRST_SEEN = Symbol.for("booking-tests.pool-first-seen");
const runtime = globalThis as typeof globalThis & { [FIRST_SEEN]?: FirstSeen; __vitest_mocker__?: { moduleRunner: ModuleRunner } };
const runner = runtime.__vitest_mocker__?.moduleRunner;
if (!runner) throw new Error("pool-workarounds: no vitest module runner on globalThis; the pool changed, review this file");

// The pool's runner worker: its default export and Durable Object classes are the wrappers that
// workerd constructs for every request (workerd resolves "/index.mjs" to the running main module).
// Wrappers are plain functions, whose prototype can be assigned; the pool's own runner object is a class.
const mainModule = await runner.evaluator.runExternalModule("/index.mjs");
const wrappers = Object.values(mainModule).filter(
  (value): value is { prototype: unknown } => typeof value === "function" && Object.getOwnPropertyDescriptor(value, "prototype")?.writable === true,
);
if (!wrappers.some((wrapper) => wrapper === mainModule.default))
  throw new Error("pool-workarounds: the pool's default entrypoint is not a wrapper function; review this file");

const firstSeen = (runtime[FIRST_SEEN] ??= {
  invoke: runner.transport.invoke,
  createRequire: runner.evaluator.createRequire,
  prototypes: new Map(wrappers.map((wrapper) => [wrapper, wrapper.prototype])),
});

// 1. The pool wraps the module runner's transport (and createRequire) once more for every test file a
//    runtime runs (fixed in @cloudflare/vitest-plugin 1.4.5): put the first file's back.
runner.transport.invoke = firstSeen.invoke;
runner.evaluator.createRequire = firstSeen.createRequire;

// 2. Each construction of a wrapper class wraps the class's prototype in one more Proxy, so every
//    property read walks one trap per request served so far, until it overflows the stack
//    (workers-sdk #15092). A fresh runtime per file hid it; put the prototype back before each test.
const restorePrototypes = () => {
  for (const [wrapper, prototype] of firstSeen.prototypes) wrapper.prototype = prototype;
};
restorePrototypes();
beforeEach(restorePrototypes);

// 3. Under the pool, a module a Worker request imports first is fetched through the runner's
//    transport in that request's I/O context; another request awaiting the same module meanwhile
//    hangs. Every lazy `import()` of the Worker is static under the pool (static-imports.ts), so
//    importing the entry here loads the whole graph once, outside any request.
await import("../../src/index");
