// Worker entry: HTTP through the Hono app, queue consumers, and the every-minute cron.
import { buildApp } from "./app";
// Evaluated when the isolate starts, outside any request: evaluated lazily inside the first paying
// request, the Stripe SDK left a later request (a queue consumer, the next read) waiting on I/O of
// that first one, and it hung ("Cannot perform I/O on behalf of a different request"; seen under
// the test pool and once under `wrangler dev`). Costs start-up CPU for every isolate until the
// cause inside the SDK is found (docs/decisions/payments.md, Tests).
import "./features/payments/stripe-provider";
import type { Env } from "./env";

export { CapacityGuard } from "./durable-objects/capacity-guard";
export { RateLimiter } from "./durable-objects/rate-limiter";

const app = buildApp();

// The consumers and the cron jobs are imported on their first event, not when an isolate starts
// for a request (issue 21, scope 5): in the one-file bundle each `import()` is a lazy initialiser.
export default {
  fetch: app.fetch,
  queue: async (batch, env, ctx) => (await import("./queues")).handleQueue(batch, env, ctx),
  scheduled: async (controller, env) => (await import("./cron")).handleScheduled(controller, env),
} satisfies ExportedHandler<Env>;
