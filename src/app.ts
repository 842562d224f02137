// The Hono app: middleware in order, then the private API, operator API and public site.
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { getPath } from "hono/utils/url";
import type { AppEnv } from "./env";
import { markBesideDatabase } from "./db/request-scope";
import { AskAgain, privateAuth, publicAccount } from "./http/auth";
import { answerEventBesideDatabase } from "./http/near-database";
import { afterAccountWrite, afterRequestOf } from "./features/account-writes";
import { refuseXml, requestContext, requireUserAgent } from "./http/middleware";
import { requestId, requestLog } from "./http/observability";
import { renderError } from "./http/render-error";
import { requireConfig } from "./http/require-config";
import { notFoundOrMethodNotAllowed } from "./http/method-not-allowed";
import { ApiError } from "./http/errors";
import { idempotency } from "./http/idempotency";
import { rateLimit } from "./http/rate-limit";
import { meterRequest } from "./http/server-timing";
import { openApiRoutes } from "./openapi/routes";
import { healthRoutes } from "./features/health/routes";
import { favicon } from "./http/favicon";
import { lazyRoutes } from "./features/lazy-routes";
import { onFirstUse, privateFeatures, publicFeatures } from "./features";

const MAX_BODY_BYTES = 1024 * 1024;
const ACCOUNT_IMPORT_PATH = "/admin/v1/accounts/import";

/** Loaded on the first event: none of the payments feature is in the start-up path. */
const paymentEvents = lazyRoutes([["POST", "/stripe/events"]], async () => (await import("./features/payments/routes")).paymentEventRoutes);
/** Likewise the mail and SMS providers' delivery events. */
const deliveryEvents = lazyRoutes(
  [
    ["POST", "/resend/events"],
    ["POST", "/twilio/events"],
  ],
  async () => (await import("./features/messages/routes")).deliveryEventRoutes,
);

/**
 * Paths as clients send them: the original service's SDKs add a trailing slash or join a base
 * ending in `/` to a path starting with one (`/api/v1//bookings/1`), so repeated slashes collapse
 * and a trailing one is dropped (root stays `/`). `.json` on a path is the same resource as without
 * it (spec: Output format). Routing sees only the path: the query string is untouched.
 */
const normalisedPath = (request: Request) => {
  const path = getPath(request)
    .replace(/\/{2,}/g, "/")
    .replace(/(.)\/$/, "$1");
  return path.endsWith(".json") ? path.slice(0, -".json".length) : path;
};

/** What the app is built from; the production entry takes the defaults (bench/ injects its own). */
interface AppOptions {
  /** The request budget middleware (default: per address and per key, in RateLimiter objects). */
  rateLimit?: MiddlewareHandler<AppEnv>;
  /** The private API's features, mounted behind its auth (default: src/features/index.ts). */
  privateFeatures?: [string, Hono<AppEnv>][];
  /** The app as the NearDatabase object runs it: it looks accounts up itself, never forwards. */
  besideDatabase?: boolean;
  /**
   * Forward writes, and requests of accounts this isolate does not know, to a NearDatabase object
   * (the Worker's entry only: the object must run the same app, which an app built with other
   * options for a test is not).
   */
  forwardBesideDatabase?: boolean;
}

// Widgets on any origin call the booking site; it holds no credentials, so `*` is safe. The
// private and operator APIs send no CORS headers: their keys must never live in a browser.
const bookingSiteCors = cors({
  origin: "*",
  // DELETE and X-Hold-Secret: the widget releases its visitor's slot hold (docs/decisions/holds.md).
  allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
  // X-Booking-Token opens one visitor's own booking (docs/decisions/booking-site.md); X-Waitlist-Token
  // their place in a waitlist or its offer (docs/decisions/waitlist.md); an MCP client in a browser
  // sends Mcp-Protocol-Version after its handshake (docs/decisions/mcp.md).
  allowHeaders: ["Content-Type", "Idempotency-Key", "If-None-Match", "X-Booking-Token", "X-Hold-Secret", "X-Waitlist-Token", "x-d1-bookmark", "Mcp-Protocol-Version"],
  exposeHeaders: [
    "Link",
    "Current-Page",
    "Page-Items",
    "Total-Count",
    "Total-Pages",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "X-Request-Id",
    "ETag",
    "Server-Timing",
    "x-d1-bookmark",
  ],
  maxAge: 86_400,
});

/** Runs before every early answer (429, 400, 406, 413) so a widget can read those too. */
const corsOnBookingSite = createMiddleware<AppEnv>((c, next) => (/^\/(api|admin)\//.test(c.req.path) ? next() : bookingSiteCors(c, next)));

export function buildApp(options: AppOptions = {}) {
  const app = new Hono<AppEnv>({ getPath: normalisedPath });
  const notFound = notFoundOrMethodNotAllowed(app);
  // A request that ran on an account since changed is answered from the start (http/auth.ts).
  app.onError((error, c) => (error instanceof AskAgain ? app.fetch(error.request, c.env, c.executionCtx) : renderError(error, c)));
  app.notFound(notFound);

  app.use("*", meterRequest);
  if (options.besideDatabase || options.forwardBesideDatabase) {
    app.use("*", (c, next) => {
      c.set(options.besideDatabase ? "besideDatabase" : "forwardsBesideDatabase", true);
      if (options.besideDatabase) markBesideDatabase();
      // A forwarded request's answer teaches this isolate's caches as one answered here (http/near-database.ts).
      else c.set("afterRequestOf", afterRequestOf);
      return next();
    });
  }
  app.use("*", requestId);
  app.use("*", requestLog);
  app.use("*", requireConfig);
  app.use("*", requestContext);
  app.use("*", corsOnBookingSite);
  app.use("*", options.rateLimit ?? rateLimit);
  app.use("*", refuseXml);
  app.use("*", requireUserAgent);
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, { error: "The request body is larger than 1 MiB." });
    },
  });
  // An account's export is read line by line as it arrives, with its own bound (features/operator/import.ts).
  app.use("*", (c, next) => (c.req.method === "POST" && c.req.path === ACCOUNT_IMPORT_PATH ? next() : limitBody(c, next)));

  app.route("/health", healthRoutes);
  // Every host's, the API's and each booking site's: before the booking site looks up its account.
  app.get("/favicon.ico", favicon);
  app.route("/admin/v1", onFirstUse("operator"));
  // Unknown operator paths end here (after the operator's auth) rather than falling through to
  // the public site; a known path asked with another method is a 405.
  app.all("/admin/v1/*", notFound);

  // The API's description and reference page need no key: mounted before the private API's auth.
  app.route("/api/v1", openApiRoutes);
  // The payment provider's events are signed, not keyed (docs/decisions/payments.md); they write.
  app.use("/api/v1/payments/stripe/events", async (c, next) => {
    if (!(await answerEventBesideDatabase(c))) await next();
  });
  app.route("/api/v1/payments", paymentEvents);
  // So are the mail and SMS providers' delivery events (docs/decisions/messages.md, "What comes back").
  app.use("/api/v1/messages/:provider{resend|twilio}/events", async (c, next) => {
    if (!(await answerEventBesideDatabase(c))) await next();
  });
  app.route("/api/v1/messages", deliveryEvents);

  const privateApi = new Hono<AppEnv>();
  privateApi.use("*", privateAuth);
  privateApi.use("*", afterAccountWrite);
  privateApi.use("*", idempotency);
  for (const [path, routes] of options.privateFeatures ?? privateFeatures) privateApi.route(path, routes);
  // Unknown private paths end here rather than falling through to the public site.
  privateApi.all("*", notFound);
  app.route("/api/v1", privateApi);

  const publicSite = new Hono<AppEnv>();
  publicSite.use("*", publicAccount);
  publicSite.use("*", afterAccountWrite);
  publicSite.use("*", idempotency);
  for (const [path, routes] of publicFeatures) publicSite.route(path, routes);
  app.route("/", publicSite);

  return app;
}
