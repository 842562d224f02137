// Benchmark-only Worker entry: the production app without the rate limiter, so `npm run bench`
// can measure what the limiter adds. Run only by bench/rate-limit.mjs, on wrangler.toml with this entry, never deployed.
import { buildApp } from "../src/app";
import type { Env } from "../src/env";
import { handleScheduled } from "../src/cron";
import { handleQueue } from "../src/queues";

export { CapacityGuard } from "../src/durable-objects/capacity-guard";
export { RateLimiter } from "../src/durable-objects/rate-limiter";
export { NearDatabase } from "../src/near-database";

// The same app with a pass-through where the budget middleware goes.
const app = buildApp({ rateLimit: (_c, next) => next() });

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
