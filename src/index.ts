// Worker entry: HTTP through the Hono app, queue consumers, and the every-minute cron.
import { buildApp } from "./app";
import type { Env } from "./env";

export { CapacityGuard } from "./durable-objects/capacity-guard";
export { RateLimiter } from "./durable-objects/rate-limiter";
export { NearDatabase } from "./near-database";

const app = buildApp({ forwardBesideDatabase: true });

// The consumers and the cron jobs are imported on their first event, not when an isolate starts
// for a request (issue 21, scope 5): in the one-file bundle each `import()` is a lazy initialiser.
export default {
  fetch: app.fetch,
  queue: async (batch, env, ctx) => (await import("./queues")).handleQueue(batch, env, ctx),
  scheduled: async (controller, env) => (await import("./cron")).handleScheduled(controller, env),
} satisfies ExportedHandler<Env>;
