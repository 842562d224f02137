// Helpers for message tests: unique phone numbers, reading an account's messages back, and
// message rows written directly (the consumer is driven with queues.ts runQueue).
import { expect } from "vitest";
import { env, type Client } from "./api";
import { eventually } from "./queues";

let serial = 0;
/** A valid Norwegian mobile number no other test uses, so per-number SMS caps stay per test. */
export const uniquePhone = () => `+4741${String((Date.now() * 7 + (serial += 1)) % 1_000_000).padStart(6, "0")}`;

export async function messagesOf(api: Client, query = "") {
  const res = await api.get(`/messages${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.map((e: any) => e.message);
}

/** Polls until every message of the query is settled (the real queue consumer runs in the background). */
export async function settledMessagesOf(api: Client, query: string, timeoutMs = 40_000) {
  const settled = (messages: any[]) => messages.length > 0 && messages.every((m) => m.status === "sent" || m.status === "failed");
  const messages = await eventually(() => messagesOf(api, query), settled, timeoutMs, 250);
  if (!settled(messages)) throw new Error(`messages not settled: ${JSON.stringify(messages)}`);
  return messages;
}

/** A queued message row written directly, so no queue message races the consumer call under test. */
export async function queuedRow(accountId: number, attributes: { channel?: string; recipient?: string; body?: string } = {}) {
  const now = Date.now();
  const row = await env.DB.prepare(
    `INSERT INTO messages (account_id, kind, channel, recipient, subject, body, status, created_at, updated_at)
     VALUES (?, 'token', ?, ?, NULL, ?, 'queued', ?, ?) RETURNING id`,
  )
    .bind(accountId, attributes.channel ?? "sms", attributes.recipient ?? uniquePhone(), attributes.body ?? "Your code is •••••", now, now)
    .first<{ id: number }>();
  return row!.id;
}

export const messageRow = (id: number) => env.DB.prepare("SELECT * FROM messages WHERE id = ?").bind(id).first<Record<string, any>>();
