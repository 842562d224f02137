// Queue helpers: the one driver that runs the Worker's queue handler on a batch as the Queues
// runtime would, real queue bindings with what is sent through them noted, and the one poll for
// work the real queue does in the background.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "../../src/index";
import { env } from "./api";

/**
 * Runs the Worker's queue handler on one batch of `bodies`; `overrides` replace bindings, `attempts`
 * is the delivery count the runtime would report, message ids are `m0`, `m1`, … unless given.
 */
export async function runQueue(queue: string, bodies: unknown[], overrides: Partial<typeof env> = {}, attempts = 1, ids?: string[]) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body, i) => ({ id: ids?.[i] ?? `m${i}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...overrides }, ctx);
  return getQueueResult(batch, ctx);
}

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

/** Polls until `check` passes on the fetched value (or time runs out), answering the last value read. */
export async function eventually<T>(fetchValue: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 40_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fetchValue();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
