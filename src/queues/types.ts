// The contract between the queue entry (index.ts) and the feature consumers it dispatches to.
import type { Env } from "../env";

export type QueueKind = "recurrence" | "webhooks" | "messages" | "calendars";

export type Consumer = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;
