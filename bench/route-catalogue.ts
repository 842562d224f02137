// The route catalogue (issue 33): one entry per operation of the OpenAPI document on the private
// API and the booking site (the operator API left out), and per MCP tool on each endpoint, each
// able to make one valid request of a seeded shop. The routes bench (bench/routes.ts) and the wait
// tests (test/integration/route-waits-*.test.ts) walk the same entries; nothing here knows either,
// so a transport (loopback HTTP, or the Worker's entry in the test pool) is passed in.
import { siteEntries } from "./route-catalogue/booking-site";
import { mcpEntries } from "./route-catalogue/mcp";
import { privateEntries } from "./route-catalogue/private-api";
import { refusalOf } from "./route-catalogue/shop";
import type { Kind, Reply, RouteEntry, Shop, Transport } from "./route-catalogue/types";

export { seedShop } from "./route-catalogue/shop";
export type { Kind, Reply, RouteEntry, Shop, Surface, Transport, Wire } from "./route-catalogue/types";

export const catalogue: readonly RouteEntry[] = [...privateEntries, ...siteEntries, ...mcpEntries];

/** Waits in sequence a request may make at distance: a read one, a write two (issue 33). */
export const BUDGET: Record<Kind, number> = { read: 1, write: 2 };

/** The longest chain of waits of an answer and its D1 and Durable Object parts (Server-Timing `waits`, src/http/server-timing.ts). */
export function waitsOf(headers: Headers): { waits: number; d1: number; do: number } {
  const match = /(?:^|,\s*)waits;desc="(\d+) in sequence: (\d+) d1, (\d+) do"/.exec(headers.get("server-timing") ?? "");
  if (!match) throw new Error(`no waits in Server-Timing: ${headers.get("server-timing")}`);
  return { waits: Number(match[1]), d1: Number(match[2]), do: Number(match[3]) };
}

/**
 * One measured request of `entry`: its prepare (not measured), then `before` (the cold samples
 * empty the isolate's caches there), the request through `send`, which must answer 2xx (for MCP,
 * without a JSON-RPC or tool error), and its cleanup. Answers the measured reply.
 */
export async function sample<R extends Reply>(entry: RouteEntry, shop: Shop, send: Transport<R>, before?: () => Promise<void>): Promise<R> {
  const prepared = entry.prepare ? await entry.prepare(shop) : undefined;
  await before?.();
  const reply = await send(entry.request(shop, prepared));
  const problem = refusalOf(reply);
  if (problem) throw new Error(`${entry.name}: ${problem}`);
  await entry.cleanup?.(shop, reply, prepared);
  return reply;
}
