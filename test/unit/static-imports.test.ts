import { describe, expect, it } from "vitest";
import { staticImportsUnderPool } from "../support/static-imports";

type Transform = (code: string, id: string) => { code: string } | null;
const transform = staticImportsUnderPool().transform as Transform;

describe("the pool's rewrite of the Worker's lazy imports", () => {
  it("hoists each literal import() of a source file into a static import of the same module", () => {
    const code = "const load = () => import(\"./bookings/routes\").then((m) => m.bookingRoutes);\nconst { Liquid } = await import('liquidjs');";
    const out = transform(code, "/repo/src/features/loaders.ts")!.code;
    expect(out).toContain('import * as __eagerModule0 from "./bookings/routes";');
    expect(out).toContain("import * as __eagerModule1 from 'liquidjs';");
    expect(out).toContain("Promise.resolve(__eagerModule0).then((m) => m.bookingRoutes)");
    expect(out).toContain("await Promise.resolve(__eagerModule1)");
    expect(out).not.toMatch(/\bimport\(/);
  });

  it("leaves test files, dependencies and computed specifiers alone", () => {
    const code = 'await import("./x");';
    expect(transform(code, "/repo/test/integration/a.test.ts")).toBeNull();
    expect(transform(code, "/repo/node_modules/stripe/esm/index.js")).toBeNull();
    expect(transform("await import(name);", "/repo/src/a.ts")).toBeNull();
  });
});
