// Worker entry: HTTP through the Hono app; queue and cron handlers join as they are built.
import { buildApp } from "./app";
import type { Env } from "./env";

export { CapacityGuard } from "./durable-objects/capacity-guard";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
