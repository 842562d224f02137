// The Worker decides whether an MCP call may change anything without loading the MCP feature
// (http/reads-only.ts): its list of read-only tools must be the tools' own `readOnlyHint`.
import { describe, expect, it } from "vitest";
import { privateToolsOf, siteToolsOf } from "../../../src/features/mcp/endpoints";
import type { Account } from "../../../src/db/schema";
import { READ_ONLY_MCP_TOOLS } from "../../../src/http/reads-only";

describe("the Worker's list of read-only MCP tools", () => {
  it("is exactly the tools annotated readOnlyHint, on either endpoint", () => {
    const tools = [...siteToolsOf({ slot_holds_enabled: true } as Account), ...privateToolsOf()];
    const readOnly = new Set(tools.filter((tool) => tool.annotations.readOnlyHint === true).map((tool) => tool.name));
    expect([...READ_ONLY_MCP_TOOLS].sort()).toEqual([...readOnly].sort());
    // A tool of the same name on both endpoints reads on both, or the list could not say.
    for (const tool of tools) expect(READ_ONLY_MCP_TOOLS.has(tool.name), tool.name).toBe(tool.annotations.readOnlyHint === true);
  });
});
