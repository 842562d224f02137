// Reads a request body into one plain object, whatever the spec allows it to be sent as:
// JSON, or form data with bracket names (`booking[title]`, `selected_resources[]`).
import qs from "qs";
import type { Context } from "hono";
import { ApiError } from "./errors";

const QS_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 1000, parameterLimit: 2000 };

export const parseBracketQuery = (text: string): Record<string, unknown> =>
  qs.parse(text.startsWith("?") ? text.slice(1) : text, QS_OPTIONS) as Record<string, unknown>;

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0].trim().toLowerCase();
}

/** The raw body as UTF-8 (the spec's encoding), whatever its content type. */
export const rawBodyText = async (c: Context): Promise<string> => new TextDecoder().decode(await c.req.arrayBuffer());

export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = mediaType(c.req.header("content-type"));
  if (type === "multipart/form-data") {
    const form = await c.req.formData().catch(() => {
      throw ApiError.invalid("base", "the multipart body could not be read");
    });
    const pairs = new URLSearchParams();
    for (const [name, value] of form.entries()) if (typeof value === "string") pairs.append(name, value);
    return parseBracketQuery(pairs.toString());
  }
  const text = await rawBodyText(c);
  if (text.trim() === "") return {};
  if (type === "application/x-www-form-urlencoded") {
    // curl -d sends this type unless told otherwise; a JSON body parsed as a form is nonsense.
    if (/^\s*[[{]/.test(text)) {
      throw ApiError.invalid("base", "the body looks like JSON but was sent as application/x-www-form-urlencoded (curl's default for -d): send the header Content-Type: application/json");
    }
    return parseBracketQuery(text);
  }
  if (type === "" || type === "application/json" || type.endsWith("+json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw ApiError.invalid("base", "the body is not valid JSON");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw ApiError.invalid("base", "the body must be a JSON object");
    }
    return parsed as Record<string, unknown>;
  }
  throw new ApiError(415, {
    error: `Content-Type ${type} is not supported: send application/json or application/x-www-form-urlencoded.`,
  });
}
