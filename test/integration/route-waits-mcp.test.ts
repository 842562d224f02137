// Issue 33: every MCP tool, on the booking site's endpoint and the private API's, and each
// endpoint's handshake, waits at most its budget in sequence (a read 1, a write 2), warm and on a
// cold isolate: with no exception where every write is answered beside the database (the
// workers-at-distance project), or exactly what test/support/over-budget.ts says where the Worker
// beside a local D1 answers them. Entries: bench/route-catalogue.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { catalogue, type Shop } from "../../bench/route-catalogue";
import { privateToolsOf, siteToolsOf } from "../../src/features/mcp/endpoints";
import type { Account } from "../../src/db/schema";
import { overBudgetIsCurrent, pinWaits, seededShop, writesAnswered } from "../support/route-waits";

let shop: Shop;
beforeAll(async () => {
  shop = await seededShop();
});

describe("the route catalogue over MCP", () => {
  it("has an entry for every tool of both endpoints (holds offered on the site)", () => {
    const names = new Set(catalogue.filter((e) => e.surface === "mcp").map((e) => e.name));
    const tools = [...siteToolsOf({ slot_holds_enabled: true } as Account).map((t) => `mcp ${t.name} (site)`), ...privateToolsOf().map((t) => `mcp ${t.name} (private)`)];
    expect(tools.filter((name) => !names.has(name))).toEqual([]);
  });

  overBudgetIsCurrent("mcp");
});

describe(`waits in sequence per MCP tool call, warm and cold, writes answered ${writesAnswered}`, () => {
  pinWaits("mcp", () => shop);
});
