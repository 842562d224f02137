// Request-wide conventions applied before any route: context, format negotiation, identification.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { directoryDb } from "../db/directory";
import { ApiError } from "./errors";

export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  // The directory until auth knows the account; then the account's shard (http/auth.ts).
  c.set("db", directoryDb(c.env));
  c.set("now", Date.now());
  await next();
});

/** XML support is gone (spec 2021-02-03): `.xml` paths and XML-only Accept headers get 406. */
export const refuseXml = createMiddleware<AppEnv>(async (c, next) => {
  const path = c.req.path; // normalised, so `/x.xml/` is refused as `/x.xml` is
  const accept = (c.req.header("accept") ?? "").toLowerCase();
  const wantsXmlOnly = /\bxml\b/.test(accept) && !/json|\*\/\*/.test(accept);
  if (path.endsWith(".xml") || wantsXmlOnly) {
    throw new ApiError(406, { error: "XML is no longer supported: ask for application/json." });
  }
  await next();
});

export const requireUserAgent = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.req.header("user-agent")?.trim()) {
    throw ApiError.invalid("user_agent", "is required: name your application or website");
  }
  await next();
});
