// Route-level validators: bodies (JSON or bracket form), bracket query strings and path ids.
// Routes only ever see parsed, typed input; a failure is a 400 in the spec's shape.
import type { MiddlewareHandler } from "hono";
import { validator } from "hono/validator";
import type { AppEnv } from "../env";
import { zValidator } from "@hono/zod-validator";
import * as z from "zod";
// Named from core, not `z.core.…`: a nested namespace read keeps all of core in the bundle, its locales too.
import { $ZodAsyncError } from "zod/v4/core";
import { ApiError } from "./errors";
import { parseBracketQuery, readBody } from "./body";
import { idParam } from "./fields";
import { refuseMalformedText } from "./well-formed";

/**
 * Zod's synchronous parse, the same result as `safeParseAsync` for schemas without async parts
 * (all of ours today) at a fraction of its cost per request; a schema that meets an async
 * refinement or transform throws `$ZodAsyncError` on the first parse and is parsed async, then
 * and every later time.
 */
const asyncSchemas = new WeakSet<z.ZodType>();
export function parseSyncFirst<S extends z.ZodType>(schema: S, raw: unknown) {
  if (!asyncSchemas.has(schema)) {
    try {
      return schema.safeParse(raw);
    } catch (error) {
      if (!(error instanceof $ZodAsyncError)) throw error;
      asyncSchemas.add(schema);
    }
  }
  return schema.safeParseAsync(raw);
}

/**
 * The body, parsed and validated, as `c.req.valid("json")`. Written as plain middleware rather
 * than Hono's json validator, which rejects an empty JSON body before the schema can say that
 * every attribute is optional.
 */
export const body =
  <S extends z.ZodType>(
    schema: S,
    opts: { root?: string /** Rewrites another client's shape of the same input into the schema's. */; lift?: (raw: unknown) => unknown } = {},
  ): MiddlewareHandler<AppEnv, string, { in: { json: unknown }; out: { json: z.output<S> } }> =>
  async (c, next) => {
    const raw = await readBody(c, opts.root);
    const parsed = await parseSyncFirst(schema, opts.lift ? opts.lift(raw) : raw);
    if (!parsed.success) throw ApiError.fromZod(parsed.error, opts.root);
    c.req.addValidatedData("json", parsed.data as object);
    await next();
  };

export const query = <S extends z.ZodType>(schema: S) =>
  validator("query", async (_value, c): Promise<z.output<S>> => {
    const raw = await parseBracketQuery(new URL(c.req.url).search);
    refuseMalformedText(raw);
    const parsed = await parseSyncFirst(schema, raw);
    if (!parsed.success) throw ApiError.fromZod(parsed.error);
    return parsed.data;
  });

const notFoundHook = (result: { success: boolean }) => {
  // A path id that is not a number names no object: 404, as an unknown id would.
  if (!result.success) throw ApiError.notFound();
};

/** Path parameters that are numeric ids, e.g. `params("id")` or `params("id", "booking_id")`. */
export const params = <K extends string>(...names: K[]) =>
  zValidator("param", z.object(Object.fromEntries(names.map((n) => [n, idParam])) as { [P in K]: typeof idParam }), notFoundHook);
