// GET /api/v1/openapi.json and GET /api/v1/docs: the description and its reference page, both
// without a key (mounted before the private API's auth).
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../env";
import { REFERENCE_CSS, ReferencePage } from "./reference-page";

// The document is built from every feature's schemas: imported on the first request for it, not
// at start-up (issue 21, scope 5).
const openApiDocument = () => import("./document").then((m) => m.openApiDocument());

/**
 * The page is rendered here and runs no script: the policy allows none, and only this origin's
 * stylesheet and icon, so nothing can load from another host.
 */
const referenceHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"], scriptSrc: ["'none'"], styleSrc: ["'self'"], imgSrc: ["'self'"],
    formAction: ["'none'"], baseUri: ["'none'"], frameAncestors: ["'none'"],
  },
  referrerPolicy: "no-referrer",
});

export const openApiRoutes = new Hono<AppEnv>();

// The app strips a `.json` suffix from every path (spec: Output format), so this is also /openapi.json.
openApiRoutes.get("/openapi", async (c) => c.json(await openApiDocument()));

openApiRoutes.get("/docs", referenceHeaders, async (c) =>
  c.html(`<!doctype html>${<ReferencePage document={await openApiDocument()} documentUrl="/api/v1/openapi.json" />}`));

openApiRoutes.get("/docs.css", (c) => c.body(REFERENCE_CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" }));
