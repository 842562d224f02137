// Spike for issue 24 (docs/decisions/mcp.md): the official MCP SDK runs in workerd, statelessly,
// with the Workers-safe validator, and its own client drives it over Streamable HTTP.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/** One stateless request: a fresh server and transport answer it (as the endpoint would). */
async function answer(request: Request): Promise<Response> {
  const server = new McpServer({ name: "spike", version: "0.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  server.registerTool("add", { description: "Adds", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}

describe("the MCP SDK in workerd", () => {
  it("lists and calls a tool through its own client, and bad input is a tool error", async () => {
    const client = new Client({ name: "test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("http://site.test/mcp"), {
      fetch: (input, init) => answer(new Request(input as string, init)),
    }));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add"]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: "text", text: "5" }] });
    const bad = await client.callTool({ name: "add", arguments: { a: "two" } });
    expect(bad.isError).toBe(true);
  });
});
