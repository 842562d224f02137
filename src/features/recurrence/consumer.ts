// The recurrence queue's consumer: each message creates one chunk of a collection's occurrences,
// records its progress, then queues the next chunk; the dead-letter consumer marks it failed.
import { and, eq } from "drizzle-orm";
import { openDb } from "../../db/client";
import { directoryDb } from "../../db/directory";
import { shardD1 } from "../../db/shards";
import { accounts, recurringCollections } from "../../db/schema";
import type { Env } from "../../env";
import type { Consumer } from "../queue-consumer";
import { systemDeps } from "../system-deps";
import { markCollection, recordChunk } from "./collections";
import { createBookingChunk, createEventChunk } from "./occurrences";
import { recurrenceMessage, type RecurrenceMessage } from "./schema";
import { deleteOccurrences } from "./service";

/** Occurrences per message: keeps one invocation's D1, guard and queue calls well under the subrequest limit. */
const CHUNK_SIZE = 25;

async function loadContext(env: Env, message: RecurrenceMessage) {
  const db = openDb(shardD1(env, message.shard));
  const account = await directoryDb(env).query.accounts.findFirst({ where: eq(accounts.id, message.account_id) });
  const collection = await db.query.recurringCollections.findFirst({
    where: and(eq(recurringCollections.id, message.collection_id), eq(recurringCollections.account_id, message.account_id)),
  });
  // The request stores both before queueing, so a missing row is a fault to retry, never to ack.
  if (!account || !collection) throw new Error(`collection ${message.collection_id} of account ${message.account_id} not found`);
  const deps = systemDeps(db, env, account, Date.now());
  return { deps, collection };
}

async function queueChunk(env: Env, message: RecurrenceMessage, from: number): Promise<void> {
  await env.RECURRENCE_QUEUE.send({ ...message, from } satisfies RecurrenceMessage, { contentType: "json" });
}

async function processChunk(env: Env, message: RecurrenceMessage): Promise<void> {
  const { deps, collection } = await loadContext(env, message);
  // Completed, stopped by DELETE, or dead-lettered: nothing left to create.
  if (collection.status !== "pending") return;
  const chunk = { from: message.from, to: Math.min(message.from + CHUNK_SIZE, collection.occurrences.length) };
  // This chunk is recorded but the message came back: the crash fell between the record and
  // queueing the next chunk, so queue it (a duplicate of it is harmless).
  if (collection.next_index === chunk.to) return queueChunk(env, message, chunk.to);
  // A redelivery of a chunk already behind the cursor.
  if (collection.next_index !== chunk.from) return;

  const skipped = collection.kind === "booking" ? await createBookingChunk(deps, collection, chunk) : await createEventChunk(deps, collection, chunk);
  if (await recordChunk(deps, collection, { ...chunk, skipped })) {
    if (chunk.to < collection.occurrences.length) await queueChunk(env, message, chunk.to);
    return;
  }
  const now = await deps.db.query.recurringCollections.findFirst({ where: eq(recurringCollections.id, collection.id) });
  // DELETE ran while this chunk was creating: what the chunk created after DELETE's sweep goes too.
  if (now?.status === "deleted" && collection.kind === "booking") await deleteOccurrences(deps, collection);
}

const live: Consumer = async (batch, env) => {
  for (const message of batch.messages) {
    const parsed = recurrenceMessage.safeParse(message.body);
    try {
      if (!parsed.success) throw new Error(`unreadable message: ${JSON.stringify(message.body)}`);
      await processChunk(env, parsed.data);
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ queue: batch.queue, message: message.id, attempts: message.attempts, error: String(error) }));
      message.retry({ delaySeconds: Math.min(300, 5 * 2 ** message.attempts) });
    }
  }
};

/** Retries exhausted: the collection shows `failed`, with what was created so far kept. */
const dead: Consumer = async (batch, env) => {
  for (const message of batch.messages) {
    console.error(JSON.stringify({ queue: batch.queue, message: message.id, error: "recurrence chunk dead-lettered", body: message.body }));
    const parsed = recurrenceMessage.safeParse(message.body);
    try {
      if (parsed.success) {
        const { deps, collection } = await loadContext(env, parsed.data);
        await markCollection(deps, collection, "failed");
      }
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ queue: batch.queue, message: message.id, error: String(error) }));
      message.retry();
    }
  }
};

export const recurrenceConsumer = { live, dead };
