// The contract between the queue entry (queues/index.ts) and the feature consumers it dispatches
// to: on the features' floor, since the entry imports the features and never the other way.
import type { Env } from "../env";

export type QueueKind = "recurrence" | "webhooks" | "messages" | "calendars";

export type Consumer = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;
