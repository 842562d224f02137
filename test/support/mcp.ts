// The MCP SDK's own client, connected to the Worker's endpoint through its real entry: it lists
// the tools (so it checks every answer against the tool's outputSchema) and calls them.
import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";

/** A client of the endpoint at `url`; `headers` go with every request (an API key, a client address). */
export async function mcpClient(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "booking-tests", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      fetch: (input, init) => exports.default.fetch(new Request(input, init)),
      requestInit: { headers: { "user-agent": "booking-tests/1.0", ...headers } },
    }),
  );
  const { tools } = await client.listTools();
  /** A tool's answer; a tool error fails the test with its sentences. */
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name} refused: ${textOf(result)}`);
    return result.structuredContent as Record<string, any>;
  };
  /** A tool error's sentences (the first text); fails the test when the tool answered. */
  const refusal = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (!result.isError) throw new Error(`${name} answered: ${JSON.stringify(result.structuredContent)}`);
    return { text: textOf(result), error: JSON.parse((result.content[1] as { text: string }).text) as { status: number; error: Record<string, any> } };
  };
  return { client, tools, call, refusal };
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
