// Issue 33: every operation of the private API (and the reference routes on its host) waits at
// most its budget in sequence (a read 1, a write 2), warm and on a cold isolate: with no exception
// where every write is answered beside the database (the workers-at-distance project), or exactly
// what test/support/over-budget.ts says where the Worker beside a local D1 answers them. Entries:
// bench/route-catalogue.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { forgetIsolateCaches } from "../../bench/isolate-caches";
import { catalogue, type Shop } from "../../bench/route-catalogue";
import { operations } from "../../src/openapi/operations";
import { send } from "../support/api";
import { costOf } from "../support/server-timing";
import { overBudgetIsCurrent, pinWaits, seededShop, writesAnswered } from "../support/route-waits";

let shop: Shop;
beforeAll(async () => {
  shop = await seededShop();
});

describe("the route catalogue on the private API", () => {
  it("has an entry for every operation of the private API and its host's reference routes", () => {
    const covered = new Set(catalogue.map((e) => e.operation));
    const missing = operations
      .filter((o) => o.surface === "private" || o.surface === "reference")
      .map((o) => `${o.method.toUpperCase()} ${o.path}`)
      .filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });

  it("makes a cold sample cold: emptying the caches makes the next request a first one, answered beside the database", async () => {
    const ask = () => send("GET", "/api/v1/client", { headers: { authorization: `Bearer ${shop.apiKey}` } });
    await ask();
    expect(costOf((await ask()).headers)).toMatchObject({ roundTrips: 0, doCalls: 2 });
    forgetIsolateCaches();
    // The limiters' two calls and the forward to a NearDatabase object, which reads the account there.
    expect(costOf((await ask()).headers)).toMatchObject({ roundTrips: 0, doCalls: 3, waits: 1 });
  });

  overBudgetIsCurrent("private");
});

describe(`waits in sequence per private API route, warm and cold, writes answered ${writesAnswered}`, () => {
  pinWaits("private", () => shop);
});
