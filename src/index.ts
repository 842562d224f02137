// Worker entry: HTTP through the Hono app; queue and cron handlers join as they are built.
import { buildApp } from "./app";
import type { Env } from "./env";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
