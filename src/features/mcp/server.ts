// One MCP exchange over Streamable HTTP, statelessly: each POST gets its own server and
// transport, answers JSON (no stream), and keeps nothing, so any isolate in any data centre
// answers any call and no Durable Object is needed (docs/decisions/mcp.md).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
// ajv, the SDK's default, compiles with `new Function`, which workerd refuses.
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { ApiError } from "../../http/errors";
import { toolListing } from "./listing";
import { answerResult, refusalResult, systemErrorResult } from "./results";
import type { McpTool, ToolContext } from "./tool";

const SERVER_INFO = { name: "booking-edge-api", version: "1.0.0" };

export interface Endpoint {
  tools: readonly McpTool[];
  /** What the assistant is told on connecting: whose booking site this is and how booking goes. */
  instructions: string;
  context: ToolContext;
  /** The request's id, for the log line of a tool that failed. */
  requestId: string;
}

export async function callTool(endpoint: Endpoint, name: string, args: unknown) {
  const tool = endpoint.tools.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `There is no tool ${name}: tools/list names them.`);
  try {
    return answerResult(await tool.call(endpoint.context, args));
  } catch (error) {
    if (error instanceof ApiError) return refusalResult(error);
    console.error(JSON.stringify({ request_id: endpoint.requestId, tool: name, error: String(error), stack: (error as Error)?.stack }));
    return systemErrorResult();
  }
}

/** Answers one POSTed JSON-RPC message (`message`, already parsed from `request`'s body). */
export async function answerMcp(request: Request, message: unknown, endpoint: Endpoint): Promise<Response> {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: endpoint.instructions,
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolListing(endpoint.tools) }));
  server.setRequestHandler(CallToolRequestSchema, (call) => callTool(endpoint, call.params.name, call.params.arguments));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: message });
}
