// Whether a request can change nothing: what decides if a known account's request is answered
// here, where the isolate's caches are, or beside the database with the writes (http/near-database.ts).
import type { Context } from "hono";
import type { AppEnv } from "../env";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The MCP tools annotated `readOnlyHint` on either endpoint (features/mcp/*-tools.ts; a test keeps
 * the two in step). Named here so that deciding costs the Worker no load of the MCP feature.
 */
export const READ_ONLY_MCP_TOOLS: ReadonlySet<string> = new Set([
  "list_services",
  "find_available_dates",
  "find_times",
  "show_booking",
  "get_booking",
  "list_bookings",
  "list_people",
  "get_person",
]);

/** JSON-RPC methods that read: the handshake, listings, and notifications (which answer nothing). */
const READ_ONLY_MCP_METHODS = new Set(["initialize", "ping", "tools/list"]);

/** POST /mcp on a booking site, POST /api/v1/mcp with a key: as the app routes them (app.ts `normalisedPath`). */
const MCP_PATH = /^\/+(?:api\/+v1\/+)?mcp\/*(?:\.json)?$/;

/** Every MCP call is a POST: only its JSON-RPC message says whether it writes. */
export async function readsOnly(c: Context<AppEnv>): Promise<boolean> {
  if (READ_METHODS.has(c.req.method)) return true;
  if (c.req.method !== "POST" || !MCP_PATH.test(new URL(c.req.url).pathname)) return false;
  let message: unknown;
  try {
    // Read through Hono's cache, so the MCP route (or the forward) reads the same bytes again.
    message = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(await c.req.arrayBuffer()));
  } catch {
    // The route refuses it with a parse error, having changed nothing.
    return true;
  }
  return isReadOnlyMessage(message);
}

function isReadOnlyMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return true;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (typeof method !== "string") return true;
  if (READ_ONLY_MCP_METHODS.has(method) || method.startsWith("notifications/")) return true;
  return method === "tools/call" && typeof params?.name === "string" && READ_ONLY_MCP_TOOLS.has(params.name);
}
