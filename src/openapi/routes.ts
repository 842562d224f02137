// GET /api/v1/openapi.json and GET /api/v1/docs: the description and its reference page, both
// without a key (mounted before the private API's auth).
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../env";
import { openApiDocument } from "./document";
import { referencePage } from "./reference-page";

/**
 * Scripts from this origin only (the reference UI is a static asset here), and no inline script.
 * Styles allow inline: the UI injects its stylesheet as a <style> element at run time. `connect-src
 * 'self'` lets its request console call this host; fonts and images stay on this origin or `data:`.
 */
const referenceHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", "data:"],
    fontSrc: ["'self'", "data:"], connectSrc: ["'self'"], formAction: ["'none'"], baseUri: ["'none'"], frameAncestors: ["'none'"],
  },
  referrerPolicy: "no-referrer",
});

export const openApiRoutes = new Hono<AppEnv>();

// The app strips a `.json` suffix from every path (spec: Output format), so this is also /openapi.json.
openApiRoutes.get("/openapi", (c) => c.json(openApiDocument()));

openApiRoutes.get("/docs", referenceHeaders, (c) => c.html(referencePage("/api/v1/openapi.json", "Booking service API")));
