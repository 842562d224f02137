// GET /api/v1/openapi.json and GET /api/v1/docs: the description and its reference page, both
// without a key (mounted before the private API's auth).
import { Hono } from "hono";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "../env";
import { openApiDocument } from "./document";

/**
 * The page's script comes from a CDN, pinned so the page does not change under the document;
 * the Worker itself ships only the few lines of HTML.
 */
const SCALAR_CDN = "https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1";

export const openApiRoutes = new Hono<AppEnv>();

// The app strips a `.json` suffix from every path (spec: Output format), so this is also /openapi.json.
openApiRoutes.get("/openapi", (c) => c.json(openApiDocument()));

openApiRoutes.get("/docs", Scalar({ url: "/api/v1/openapi.json", pageTitle: "Booking service API", cdn: SCALAR_CDN }));
