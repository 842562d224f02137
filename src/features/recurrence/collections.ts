// Rows of recurring_collections: storing a new collection with its first queue message, reading
// one for its account, and recording a processed chunk as a compare-and-swap on the cursor.
import { and, eq, sql } from "drizzle-orm";
import { bookings, events, recurringCollections, type RecurringCollection, type SkippedOccurrence } from "../../db/schema";
import type { Occurrence, RecurrenceInput } from "../../domain/recurrence";
import type { Deps } from "../../env";
import { found } from "../../http/serialize";
import type { CollectionKind, RecurrenceMessage } from "./schema";

const collectionOfAccount = (deps: Deps, id: string, kind: CollectionKind) =>
  and(eq(recurringCollections.id, id), eq(recurringCollections.account_id, deps.account.id), eq(recurringCollections.kind, kind));

/** The account's collection of that kind; another tenant's id is a 404 like an unknown one. */
export function getCollection(deps: Deps, id: string, kind: CollectionKind): Promise<RecurringCollection> {
  return found(deps.db.query.recurringCollections.findFirst({ where: collectionOfAccount(deps, id, kind) }), "recurring collection");
}

/** The account's collection of that kind as a select of its id, for a page's batch: no row is the 404. */
export const collectionIdRow = (deps: Deps, id: string, kind: CollectionKind) =>
  deps.db
    .select({ id: recurringCollections.id })
    .from(recurringCollections)
    .where(collectionOfAccount(deps, id, kind))
    .limit(1);

/** Stores the collection, then queues its first chunk; a failed send leaves no orphan row. */
export async function storeAndEnqueue(
  deps: Deps,
  kind: CollectionKind,
  template: Record<string, unknown>,
  recurrence: RecurrenceInput,
  occurrences: Occurrence[],
): Promise<string> {
  const id = crypto.randomUUID();
  await deps.db.insert(recurringCollections).values({
    id,
    account_id: deps.account.id,
    kind,
    template,
    rrule: recurrence.rrule ?? null,
    rdate: recurrence.rdate ?? null,
    exdate: recurrence.exdate ?? null,
    occurrences: occurrences.map((o): [number, number] => [o.from, o.to]),
    status: "pending",
    next_index: 0,
    created_count: 0,
    skipped: [],
    created_at: deps.now,
    updated_at: deps.now,
  });
  const message: RecurrenceMessage = { collection_id: id, account_id: deps.account.id, shard: deps.account.shard, from: 0 };
  try {
    await deps.env.RECURRENCE_QUEUE.send(message, { contentType: "json" });
  } catch (error) {
    await deps.db.delete(recurringCollections).where(collectionOfAccount(deps, id, kind));
    throw error;
  }
  return id;
}

const createdCountSql = (collection: RecurringCollection) =>
  collection.kind === "booking"
    ? sql`(SELECT COUNT(*) FROM ${bookings} WHERE ${bookings.account_id} = ${collection.account_id} AND ${bookings.collection_id} = ${collection.id})`
    : sql`(SELECT COUNT(*) FROM ${events} WHERE ${events.account_id} = ${collection.account_id} AND ${events.collection_id} = ${collection.id})`;

/**
 * Moves the cursor from `from` to `to` and records the chunk's skipped occurrences, only while the
 * collection is still pending at `from`: of two deliveries of one chunk, one records it. The
 * created count is counted from the rows, so a redelivered chunk never counts twice.
 */
export async function recordChunk(deps: Deps, collection: RecurringCollection, chunk: { from: number; to: number; skipped: SkippedOccurrence[] }): Promise<boolean> {
  const done = chunk.to >= collection.occurrences.length;
  const rows = await deps.db
    .update(recurringCollections)
    .set({
      next_index: chunk.to,
      skipped: [...collection.skipped.filter((s) => s.index < chunk.from), ...chunk.skipped],
      status: done ? "completed" : "pending",
      created_count: createdCountSql(collection),
      updated_at: deps.now,
    })
    .where(
      and(
        eq(recurringCollections.id, collection.id),
        eq(recurringCollections.account_id, collection.account_id),
        eq(recurringCollections.status, "pending"),
        eq(recurringCollections.next_index, chunk.from),
      ),
    )
    .returning({ id: recurringCollections.id });
  return rows.length === 1;
}

/** Stops a collection; occurrences a running chunk adds afterwards are swept by that chunk. */
export async function markCollection(deps: Deps, collection: RecurringCollection, status: "deleted" | "failed") {
  const onlyPending = status === "failed" ? eq(recurringCollections.status, "pending") : undefined;
  await deps.db
    .update(recurringCollections)
    .set({ status, updated_at: deps.now })
    .where(and(eq(recurringCollections.id, collection.id), eq(recurringCollections.account_id, collection.account_id), onlyPending));
}
