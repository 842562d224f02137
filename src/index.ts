// Worker entry: HTTP through the Hono app, queue consumers, and the every-minute cron.
import { buildApp } from "./app";
import type { Env } from "./env";
import { handleScheduled } from "./cron";
import { handleQueue } from "./queues";

export { CapacityGuard } from "./durable-objects/capacity-guard";
export { RateLimiter } from "./durable-objects/rate-limiter";

const app = buildApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
