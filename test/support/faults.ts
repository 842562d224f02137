// Fault test helpers: the real queues with what the code under test sends through them noted, a
// consumer run on a batch as the Queues runtime would make it, and D1 faults injected as triggers.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "../../src/index";
import { env } from "./api";

export interface SentMessage {
  body: any;
  delaySeconds?: number;
}

/** Wraps a real queue binding: everything still reaches the queue, and the test can read what was sent. */
export function recordingQueue(queue: Queue<unknown>) {
  const sent: SentMessage[] = [];
  const recorder = {
    send: (body: unknown, options?: QueueSendOptions) => {
      sent.push({ body, delaySeconds: options?.delaySeconds });
      return queue.send(body, options);
    },
    sendBatch: (messages: Iterable<MessageSendRequest<unknown>>, options?: QueueSendBatchOptions) => {
      const list = [...messages];
      for (const m of list) sent.push({ body: m.body, delaySeconds: m.delaySeconds ?? options?.delaySeconds });
      return queue.sendBatch(list, options);
    },
  } as Queue<unknown>;
  return { sent, recorder };
}

let serial = 0;
/** Runs the Worker's queue handler on one batch; `attempts` is the delivery count the runtime would report. */
export async function runQueue(queue: string, bodies: unknown[], overrides: Partial<typeof env> = {}, attempts = 1) {
  const batch = createMessageBatch(queue, bodies.map((body) => ({ id: `fault-${(serial += 1)}`, timestamp: new Date(), attempts, body })));
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...overrides }, ctx);
  return getQueueResult(batch, ctx);
}

/**
 * A D1 fault: inserts into `table` matching `when` (SQL over NEW) fail as a storage error would,
 * from inside the database, so every layer above sees a real failed write. Answers the repair.
 */
export async function injectInsertFault(name: string, table: string, when: string) {
  await env.DB.prepare(
    `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, 'injected fault ${name}'); END`,
  ).run();
  return { repair: () => env.DB.prepare(`DROP TRIGGER ${name}`).run() };
}
