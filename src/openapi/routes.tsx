// GET /api/v1/openapi.json and GET /api/v1/docs: the description and its reference page, both
// without a key (mounted before the private API's auth).
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../env";
import { openApiDocument } from "./document";
import { REFERENCE_CSS, ReferencePage } from "./reference-page";

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
openApiRoutes.get("/openapi", (c) => c.json(openApiDocument()));

openApiRoutes.get("/docs", referenceHeaders, (c) =>
  c.html(`<!doctype html>${<ReferencePage document={openApiDocument()} documentUrl="/api/v1/openapi.json" />}`));

openApiRoutes.get("/docs.css", (c) => c.body(REFERENCE_CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" }));
