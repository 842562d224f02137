// Helpers for abuse and security tests: whole-database snapshots, the spec's error shapes,
// the private route table as mounted, and waiting for background work to settle.
import { expect } from "vitest";
import { buildApp } from "../../src/app";
import { env, type Client } from "./api";
import { eventually } from "./queues";

/**
 * Tables that background consumers change on their own (message delivery status, web hook
 * attempts) or that a request writes by design (idempotency claims): a snapshot leaves them out,
 * or keeps only what a request itself writes.
 */
const BACKGROUND_TABLES = new Set(["webhook_deliveries", "webhook_attempts", "idempotency_keys"]);
const REQUEST_WRITTEN_COLUMNS: Record<string, string> = {
  messages: "id, account_id, kind, channel, recipient, booking_id",
  // The calendar-fetches consumer records each fetch on its subscription (last_fetched_at, failures,
  // next_fetch_at, updated_at, …) whenever another file's subscription comes due during a snapshot.
  calendar_subscriptions: "id, account_id, resource_id, url, url_hint, name, created_at",
};

/** Every row of every table the API writes, so a rejected request can be shown to change nothing. */
export async function dbSnapshot(): Promise<Record<string, unknown[]>> {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
  ).all<{ name: string }>();
  const names = tables.map((t) => t.name).filter((name) => !BACKGROUND_TABLES.has(name));
  const results = await env.DB.batch(names.map((name) => env.DB.prepare(`SELECT ${REQUEST_WRITTEN_COLUMNS[name] ?? "*"} FROM "${name}" ORDER BY rowid`)));
  return Object.fromEntries(names.map((name, i) => [name, results[i].results]));
}

/** 400: attribute → messages, or the person error (`person` + nested `person_attributes`). */
export function expectAttributeErrors(body: unknown, context = "") {
  expect(body, context).toBeTypeOf("object");
  expect(body, context).not.toBeNull();
  const entries = Object.entries(body as Record<string, unknown>);
  expect(entries.length, context).toBeGreaterThan(0);
  for (const [attribute, messages] of entries) {
    if (attribute === "person_attributes") {
      for (const nested of Object.values(messages as Record<string, unknown>)) expectMessages(nested, `${context} ${attribute}`);
      continue;
    }
    expectMessages(messages, `${context} ${attribute}`);
  }
}

function expectMessages(messages: unknown, context: string) {
  expect(Array.isArray(messages), context).toBe(true);
  expect((messages as unknown[]).length, context).toBeGreaterThan(0);
  for (const m of messages as unknown[]) expect(typeof m, context).toBe("string");
}

/** Any 4xx in the spec's shape: 400 keyed by attribute, every other status `{error: sentence}`. */
export function expectClientError(res: { status: number; body: unknown }, context = "") {
  expect(res.status, `${context} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${context} ${JSON.stringify(res.body)}`).toBeLessThan(500);
  if (res.status === 400) expectAttributeErrors(res.body, context);
  else expect(res.body, context).toEqual({ error: expect.any(String) });
}

interface MountedRoute {
  method: string;
  /** The pattern as Hono registered it, e.g. `/api/v1/bookings/:id/confirm`. */
  path: string;
}

/** Every handler route of the app (middleware and catch-alls left out), one entry per method and pattern. */
export function mountedRoutes(prefix: string): MountedRoute[] {
  const seen = new Map<string, MountedRoute>();
  for (const { method, path } of buildApp().routes) {
    if (!["GET", "POST", "PUT", "DELETE", "PATCH"].includes(method) || path.endsWith("*") || !path.startsWith(prefix)) continue;
    seen.set(`${method} ${path}`, { method, path });
  }
  return [...seen.values()];
}

/** Polls a recurring collection until the queue consumer has finished it. */
export async function settledCollection(api: Client, kind: "bookings" | "events", id: string, timeoutMs = 20_000) {
  const settled = (res: { status: number; body: any }) => res.status === 200 && res.body.recurring_collection.status !== "pending";
  const res = await eventually(() => api.get(`/${kind}/recurring/${id}/status`), settled, timeoutMs, 100);
  if (!settled(res)) throw new Error(`collection ${id} not settled: ${JSON.stringify(res.body)}`);
  return res.body.recurring_collection;
}
