// GET /api/v1/openapi.json and GET /api/v1/docs: the description and its reference page, both
// without a key (mounted before the private API's auth).
import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

// The document is built from every feature's schemas: imported on the first request for it, not
// at start-up (issue 21, scope 5).
const openApiDocument = () => import("./document").then((m) => m.openApiDocument());
// The reference page (hono/jsx and its stylesheet) and its headers likewise, on the first request
// for /docs or /docs.css: no other request needs them (docs/decisions/deploy.md, "Start-up and size").
const referencePage = () => import("./reference-page");

/**
 * The page is rendered here and runs no script: the policy allows none, and only this origin's
 * stylesheet and icon, so nothing can load from another host. Built on first use and kept.
 */
let referenceHeaders: MiddlewareHandler | undefined;
const withReferenceHeaders: MiddlewareHandler = async (c, next) => {
  referenceHeaders ??= (await import("hono/secure-headers")).secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      formAction: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: "no-referrer",
  });
  return referenceHeaders(c, next);
};

export const openApiRoutes = new Hono<AppEnv>();

// The app strips a `.json` suffix from every path (spec: Output format), so this is also /openapi.json.
openApiRoutes.get("/openapi", async (c) => c.json(await openApiDocument()));

openApiRoutes.get("/docs", withReferenceHeaders, async (c) => c.html((await referencePage()).referencePageHtml(await openApiDocument(), "/api/v1/openapi.json")));

openApiRoutes.get("/docs.css", async (c) =>
  c.body((await referencePage()).REFERENCE_CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" }),
);
