// POST /mcp on the booking site (no key) and POST /api/v1/mcp (the API key as Bearer token): the
// Model Context Protocol over Streamable HTTP, stateless (docs/decisions/mcp.md). GET and DELETE
// are 405: there is no session to resume or end and no stream to open.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../env";
import { rateLimitKey } from "../../http/client-ip";
import { deps } from "../deps";
import { privateInstructions, privateToolsOf, siteInstructions, siteToolsOf } from "./endpoints";
import { answerMcp, type Endpoint } from "./server";
import type { Holder } from "../holds/service";

type C = Context<AppEnv>;

const jsonRpcError = (status: number, code: number, message: string) => Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

/**
 * The one JSON-RPC message of the body. A batch is refused: the request budgets count requests,
 * and one request must be one tool call for "every tool call draws on the budget" to hold.
 */
async function messageOf(c: C): Promise<{ message: unknown } | Response> {
  let message: unknown;
  try {
    // Fatal: bytes that are not UTF-8 are refused, never stored as replacement characters (spec: Encoding).
    message = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(await c.req.arrayBuffer()));
  } catch {
    return jsonRpcError(400, -32700, "Parse error: the body is not JSON in UTF-8.");
  }
  if (Array.isArray(message)) {
    return jsonRpcError(400, -32600, "Send one JSON-RPC message per request: batches are not accepted, so that every tool call counts against the request budget.");
  }
  return { message };
}

function mcpRoutes(endpointOf: (c: C) => Omit<Endpoint, "context" | "requestId">, holderOf: (c: C) => Holder) {
  const routes = new Hono<AppEnv>();
  routes.post("/", async (c) => {
    const read = await messageOf(c);
    if (read instanceof Response) return read;
    const context = { deps: deps(c), siteOrigin: new URL(c.req.url).origin, holder: holderOf(c) };
    return answerMcp(c.req.raw, read.message, { ...endpointOf(c), context, requestId: c.var.requestId });
  });
  return routes;
}

export const siteMcpRoutes = mcpRoutes(
  (c) => ({ tools: siteToolsOf(c.var.account), instructions: siteInstructions(c.var.account) }),
  (c) => ({ kind: "visitor", address: rateLimitKey(c.req.header("cf-connecting-ip")) }),
);

export const privateMcpRoutes = mcpRoutes(
  (c) => ({ tools: privateToolsOf(), instructions: privateInstructions(c.var.account) }),
  () => ({ kind: "key" }),
);
