// Every module the app imports lazily is loaded by the pool's setup before any request
// (test/support/pool-workarounds.ts, workaround 4; docs/decisions/test-suite.md): one left off
// the list hangs the suite, in whichever order of files first reaches it from a forwarded write.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const SRC = join(ROOT, "src");
const WORKAROUNDS = join(ROOT, "test/support/pool-workarounds.ts");
const sources = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file));

/** A run-time `import("…")` (not a type's `import("…").Name` or `typeof import("…")`), as the path it loads. */
function lazyImportsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), "utf8");
  return [...text.matchAll(/(?<!typeof )\bimport\("([^"]+)"\)(?!\.[A-Z])/g)].map(([, target]) =>
    target.startsWith(".") ? relative(ROOT, join(SRC, dirname(file), target)) : target);
}

it("the pool's setup loads every module src imports lazily", () => {
  const setup = readFileSync(WORKAROUNDS, "utf8");
  const loaded = new Set([...setup.matchAll(/import\("([^"]+)"\)/g)].map(([, target]) =>
    target.startsWith(".") ? relative(ROOT, join(dirname(WORKAROUNDS), target)) : target));
  // The route loaders are loaded through routeLoaders itself.
  const lazy = sources.filter((file) => file !== "features/loaders.ts").flatMap(lazyImportsOf);
  expect(lazy.length).toBeGreaterThan(10);
  expect(lazy.filter((target) => !loaded.has(target))).toEqual([]);
  expect(loaded.has("src/features/loaders")).toBe(true);
});
