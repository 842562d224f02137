// Validators of the exception date routes: list bodies name a fault by its full path
// (`resource_exception_dates[1].exception_date`), and the `{date}` path segment.
import { validator } from "hono/validator";
import type * as z from "zod";
import { ApiError } from "../../http/errors";
import { readBody } from "../../http/body";
import { isIsoDate } from "../../domain/time";

export function attributeName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "base";
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join("");
}

export const indexedBody = <S extends z.ZodType>(schema: S, root: string) =>
  validator("json", async (_value, c): Promise<z.output<S>> => {
    const parsed = await schema.safeParseAsync(await readBody(c));
    if (parsed.success) return parsed.data;
    const fields: Record<string, string[]> = {};
    for (const { path, message } of parsed.error.issues) {
      const missingRoot = path.length === 1 && path[0] === root && message === "can't be blank";
      (fields[attributeName(path)] ??= []).push(missingRoot ? `is required: send {"${root}": [...]}` : message);
    }
    throw new ApiError(400, fields);
  });

/**
 * The `{date}` path segment. Reading or deleting a date that cannot exist names nothing (404);
 * writing one is bad input (400 on exception_date).
 */
export const exceptionDateParam = (onInvalid: "not_found" | "invalid") =>
  validator("param", (value: Record<string, string>): { id: number; date: string } => {
    const id = /^\d{1,15}$/.test(value.id ?? "") ? Number(value.id) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) throw ApiError.notFound("resource");
    const date = value.date ?? "";
    if (!isIsoDate(date)) {
      if (onInvalid === "not_found") throw new ApiError(404, { error: `${date} is not a date: write it YYYY-MM-DD.` });
      throw ApiError.invalid("exception_date", "is not a valid date: use YYYY-MM-DD");
    }
    return { id, date };
  });
