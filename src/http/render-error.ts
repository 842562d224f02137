// The one place errors become responses; 5xx never carry details (they go to the log).
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

export function renderError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof ApiError) {
    return c.json(error.body, error.status as 400, error.headers);
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) return c.json({ error: "The request body is larger than 1 MiB." }, 413);
    if (status === 400) return c.json({ base: [error.message || "the request could not be read"] }, 400);
    return c.json({ error: error.message || "The request could not be handled." }, status);
  }
  console.error(JSON.stringify({ request_id: c.get("requestId"), error: String(error), stack: error.stack }));
  return c.json({ error: "system error" }, 500);
}

export const renderNotFound = (c: Context<AppEnv>) => c.json({ error: "There is nothing at this path." }, 404);
