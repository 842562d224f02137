// Under the pool, the Worker's lazy `import()`s become static imports, so its whole module graph
// is loaded once, by the setup file, outside any request.
//
// Why: the pool's module runner fetches a module the first time something imports it, through
// its transport, in the I/O context of the request that asked. A second request (a queue
// consumer, a Durable Object, the next fetch) needing the same module while that fetch is in
// flight awaits a promise of the first request's context: "Cannot perform I/O on behalf of a
// different request", or a promise that never completes, and the run hangs (CI stop 38 hung so
// in the webhook consumer). The deployed bundle has no such fetch: esbuild turns each `import()`
// into a synchronous lazy initialiser, which is what the lazy loading is for (bundle budget,
// docs/decisions/deploy.md). Tests keep the runtime, the bindings and the code; only when a module
// is evaluated changes.
import type { Plugin } from "vite";

const SOURCE_FILE = /\/src\/.*\.[cm]?[jt]s$/;
/** `import("literal")` as a call: types are already stripped when this plugin runs. */
const DYNAMIC_IMPORT = /\bimport\(\s*(["'])([^"'\n]+)\1\s*\)/g;

export function staticImportsUnderPool(): Plugin {
  return {
    name: "booking-tests:static-imports-under-pool",
    enforce: "post",
    transform(code, id) {
      if (!SOURCE_FILE.test(id.split("?")[0]) || !code.includes("import(")) return null;
      const hoisted: string[] = [];
      const rewritten = code.replace(DYNAMIC_IMPORT, (_call, quote: string, specifier: string) => {
        const name = `__eagerModule${hoisted.length}`;
        hoisted.push(`import * as ${name} from ${quote}${specifier}${quote};`);
        return `Promise.resolve(${name})`;
      });
      return hoisted.length === 0 ? null : { code: `${hoisted.join("\n")}\n${rewritten}`, map: null };
    },
  };
}
