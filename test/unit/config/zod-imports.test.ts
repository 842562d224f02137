// zod reaches the bundle only as far as the Worker reads it (docs/decisions/deploy.md, "Room for
// the next feature"): esbuild keeps just the exports read through `import * as z from "zod"`, but
// `import { z }` or a read through `z.core.` builds a whole namespace object, and with it every
// export of zod, its 64 locales among them (about 80 KiB gzipped).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../../src");
const sources = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file));

it("src imports zod as a namespace and reads no nested namespace of it at run time", () => {
  const offending = sources.flatMap((file) =>
    readFileSync(join(SRC, file), "utf8")
      .split("\n")
      .flatMap((line, i) => {
        if (line.trimStart().startsWith("//")) return [];
        // `z` (or the default export, the same namespace) by name; type-only imports are erased.
        const named = /^import (\{[^}]*\bz\b[^}]*\}|\w+) from "zod"/.test(line);
        // `z.core.$ZodRegistry<…>` as a type is erased; `instanceof z.core.…` or a call is not.
        const nested = /\bz\.(core|locales|util|regexes)\./.test(line) && !/:\s*z\.core\.[\w$]+</.test(line);
        return named || nested ? [`src/${file}:${i + 1}: ${line.trim()}`] : [];
      }),
  );
  expect(offending).toEqual([]);
});
