// Reads a request body into one plain object, whatever the spec allows it to be sent as:
// JSON, or form data with bracket names (`booking[title]`, `selected_resources[]`).
import type { IParseOptions } from "qs";
import type { Context } from "hono";
import { ApiError } from "./errors";
import { decodeFormText, refuseMalformedText } from "./well-formed";

const QS_OPTIONS: IParseOptions = { depth: 5, arrayLimit: 1000, parameterLimit: 2000, decoder: decodeFormText };

// qs is loaded on the first bracket query or form body, not at start-up: this module is reached
// from every request's middleware (idempotency's raw body), and qs evaluates get-intrinsic and
// side-channel when it loads (docs/decisions/deploy.md, "Start-up and size").
let qsParse: typeof import("qs").parse | undefined;

export async function parseBracketQuery(text: string): Promise<Record<string, unknown>> {
  qsParse ??= (await import("qs")).default.parse;
  return qsParse(text.startsWith("?") ? text.slice(1) : text, QS_OPTIONS) as Record<string, unknown>;
}

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0].trim().toLowerCase();
}

/** The raw body as UTF-8 (the spec's encoding), whatever its content type. */
export const rawBodyText = async (c: Context): Promise<string> => new TextDecoder().decode(await c.req.arrayBuffer());

function isUtf8(bytes: ArrayBuffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The body as an object; `root` (the wrapper key) only names the attribute of malformed text. */
export async function readBody(c: Context, root?: string): Promise<Record<string, unknown>> {
  const parsed = await parseBody(c);
  refuseMalformedText(parsed.value, { root, notUtf8: parsed.notUtf8 });
  return parsed.value;
}

async function parseBody(c: Context): Promise<{ value: Record<string, unknown>; notUtf8: boolean }> {
  const type = mediaType(c.req.header("content-type"));
  if (type === "multipart/form-data") {
    const form = await c.req.formData().catch(() => {
      throw ApiError.invalid("base", "the multipart body could not be read");
    });
    const pairs = new URLSearchParams();
    for (const [name, value] of form.entries()) if (typeof value === "string") pairs.append(name, value);
    return { value: await parseBracketQuery(pairs.toString()), notUtf8: false };
  }
  const bytes = await c.req.arrayBuffer();
  const notUtf8 = !isUtf8(bytes);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return { value: {}, notUtf8 };
  if (type === "application/x-www-form-urlencoded") {
    // curl -d sends this type unless told otherwise; a JSON body parsed as a form is nonsense.
    if (/^\s*[[{]/.test(text)) {
      throw ApiError.invalid(
        "base",
        "the body looks like JSON but was sent as application/x-www-form-urlencoded (curl's default for -d): send the header Content-Type: application/json",
      );
    }
    return { value: await parseBracketQuery(text), notUtf8 };
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
    return { value: parsed as Record<string, unknown>, notUtf8 };
  }
  throw new ApiError(415, {
    error: `Content-Type ${type} is not supported: send application/json or application/x-www-form-urlencoded.`,
  });
}
