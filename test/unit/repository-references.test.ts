// The repository stands alone: what its README, docs, code and scripts refer to is inside it. A
// clone has no `../shared` folder, so a pointer there (or to the spec's files by name) leaves a
// reader with nothing to open; a path that names a file of the repository must name one that exists.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SELF = relative(ROOT, import.meta.filename);
const TEXT = /\.(md|ts|tsx|mjs|js|toml|json|sql|yaml|yml)$|^run$/;
const SKIP = new Set(["node_modules", ".git", ".wrangler", ".build", "dist", "meta"]);

function filesUnder(dir: string): string[] {
  const path = join(ROOT, dir);
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [dir];
  return readdirSync(path).flatMap((name) => (SKIP.has(name) ? [] : filesUnder(join(dir, name))));
}

const files = [
  "README.md",
  "docs",
  "src",
  "test",
  "scripts",
  "bench",
  ".ci",
  "drizzle",
  "wrangler.toml",
  "vitest.config.ts",
  "vitest.browser.config.ts",
  "drizzle.config.ts",
  "package.json",
]
  .flatMap(filesUnder)
  .filter((file) => TEXT.test(file.split("/").pop()!) && file !== SELF && !/holiday-(rules|zones)\.json$/.test(file));

const lines = files.flatMap((file) =>
  readFileSync(join(ROOT, file), "utf8")
    .split("\n")
    .map((text, i) => ({ where: `${file}:${i + 1}`, text })),
);

describe("the repository stands alone", () => {
  it("reads a few hundred files", () => expect(files.length).toBeGreaterThan(200));

  it("sends no reader outside the repository: no ../shared, no spec file by name", () => {
    const outside = /\.\.\/shared|\b(NOTES|CONTRACT|STYLE|api-spec)\.md\b|\bNOTES\b/;
    expect(lines.filter(({ text }) => outside.test(text)).map(({ where, text }) => `${where}: ${text.trim()}`)).toEqual([]);
  });

  it("names only files that exist when it names a file of the repository by its path", () => {
    const named = /(?<![\w./-])((?:docs|src|test|scripts|bench|drizzle|\.ci)\/[\w./-]*\w\.(?:md|tsx|ts|mjs|sql|json|toml))(?!\w)/g;
    // What a command writes (bench figures, bench builds) or what the README's reader writes in their own project.
    const written = (path: string) => /^bench\/(results\.json|\.build\/)/.test(path) || path === "src/booking-api.d.ts";
    const missing = lines.flatMap(({ where, text }) =>
      [...text.matchAll(named)]
        .map((m) => m[1])
        .filter((path) => !written(path) && !existsSync(join(ROOT, path)))
        .map((path) => `${where}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("links only to files that exist from its Markdown", () => {
    const link = /\]\(([^)#\s]+)(?:#[^)]*)?\)/g;
    const broken = lines
      .filter(({ where }) => where.includes(".md:"))
      .flatMap(({ where, text }) => {
        const dir = where.split(":")[0].split("/").slice(0, -1).join("/");
        return [...text.matchAll(link)]
          .map((m) => m[1])
          .filter((target) => !/^[a-z]+:/i.test(target) && !existsSync(join(ROOT, dir, target)))
          .map((target) => `${where}: ${target}`);
      });
    expect(broken).toEqual([]);
  });
});
