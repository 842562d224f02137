// 404 or 405: a path the app serves with other methods answers 405 with `Allow` (RFC 9110),
// so a client that used the wrong verb is told which ones work instead of "nothing here".
import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { renderNotFound } from "./render-error";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Methods with a real route (not middleware or a catch-all, which Hono records as ALL) at the request's path. */
function allowedMethods(app: Hono<AppEnv>, c: Context<AppEnv>): string[] {
  const path = app.getPath(c.req.raw, { env: c.env });
  const allowed: string[] = METHODS.filter((method) => app.router.match(method, path)[0].some(([[, route]]) => route.method !== "ALL"));
  return allowed.includes("GET") ? [...allowed, "HEAD"] : allowed;
}

/** The not-found handler of `app`, reading its route table when a request arrives. */
export const notFoundOrMethodNotAllowed = (app: Hono<AppEnv>) => (c: Context<AppEnv>) => {
  const allowed = allowedMethods(app, c);
  if (allowed.length === 0 || allowed.includes(c.req.method)) return renderNotFound(c);
  return c.json({ error: `${c.req.method} is not allowed at this path; it answers ${allowed.join(", ")}.` }, 405, { Allow: allowed.join(", ") });
};
