// Request ids and structured request logs: one JSON line per request, carrying the id that is
// also sent back as `X-Request-Id`, so an integrator's report finds the line.
import { createMiddleware } from "hono/factory";
import { requestId as honoRequestId } from "hono/request-id";
import type { AppEnv } from "../env";

/** The caller's `X-Request-Id` when sane (word characters, `-`, `=`, at most 255), else Cloudflare's ray id or a UUID. */
export const requestId = honoRequestId({ generator: (c) => c.req.header("cf-ray") ?? crypto.randomUUID() });

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  console.log(
    JSON.stringify({
      request_id: c.var.requestId,
      method: c.req.method,
      // The path only: query strings may carry search terms or tokens.
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      duration_ms: Date.now() - started,
    }),
  );
});
