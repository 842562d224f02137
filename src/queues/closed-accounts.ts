// Queued work of an account that is closed or deleted is dropped before any consumer sees it: no
// message, web hook or chunk of a recurring booking runs for an account that answers as no account.
import { and, inArray, isNull } from "drizzle-orm";
import { directoryDb } from "../db/directory";
import { accounts } from "../db/schema";
import type { Env } from "../env";

const accountIdOf = (body: unknown): number | undefined => {
  const id = (body as { account_id?: unknown } | null)?.account_id;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : undefined;
};

/**
 * The batch without the messages of accounts the directory holds no open account for, those
 * acknowledged (and logged by id); one directory read per batch. Messages naming no account (an
 * unreadable body) stay, so their consumer still sends them to the dead-letter queue.
 */
export async function withoutClosedAccounts(batch: MessageBatch<unknown>, env: Env): Promise<MessageBatch<unknown>> {
  const ids = [...new Set(batch.messages.map((m) => accountIdOf(m.body)).filter((id) => id !== undefined))];
  if (ids.length === 0) return batch;
  const open = new Set(
    (
      await directoryDb(env)
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(inArray(accounts.id, ids), isNull(accounts.closed_at)))
    ).map((a) => a.id),
  );
  const kept: Message<unknown>[] = [];
  for (const message of batch.messages) {
    const id = accountIdOf(message.body);
    if (id === undefined || open.has(id)) kept.push(message);
    else {
      console.log(JSON.stringify({ queue: batch.queue, message_id: message.id, account_id: id, dropped: "the account is closed or deleted" }));
      message.ack();
    }
  }
  if (kept.length === batch.messages.length) return batch;
  return {
    queue: batch.queue,
    metadata: batch.metadata,
    messages: kept,
    ackAll: () => {
      for (const m of kept) m.ack();
    },
    retryAll: (options?: QueueRetryOptions) => {
      for (const m of kept) m.retry(options);
    },
  };
}
