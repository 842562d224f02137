// Issue 33: every operation of the booking site (the page, its assets and the widget's script
// included) waits at most its budget in sequence (a read 1, a write 2), warm and on a cold
// isolate: with no exception where every write is answered beside the database (the
// workers-at-distance project), or exactly what test/support/over-budget.ts says where the Worker
// beside a local D1 answers them. Entries: bench/route-catalogue.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { catalogue, type Shop } from "../../bench/route-catalogue";
import { operations } from "../../src/openapi/operations";
import { overBudgetIsCurrent, pinWaits, seededShop, writesAnswered } from "../support/route-waits";

let shop: Shop;
beforeAll(async () => {
  shop = await seededShop();
});

describe("the route catalogue on the booking site", () => {
  it("has an entry for every operation of the booking site (its MCP endpoint: route-waits-mcp.test.ts)", () => {
    const covered = new Set(catalogue.map((e) => e.operation));
    const missing = operations
      .filter((o) => o.surface === "public" && o.path !== "/mcp")
      .map((o) => `${o.method.toUpperCase()} ${o.path}`)
      .filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });

  overBudgetIsCurrent("site");
});

describe(`waits in sequence per booking-site route, warm and cold, writes answered ${writesAnswered}`, () => {
  pinWaits("site", () => shop);
});
