// Input text that is not Unicode (spec: Encoding, UTF-8) is refused, never stored with
// replacement characters: body bytes that are not UTF-8, percent escapes that decode to no UTF-8,
// and lone surrogates in JSON `\u` escapes.
import { ApiError } from "./errors";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * qs's decoder, except that a percent escape that is not UTF-8 (`%FF`) is marked with a lone
 * surrogate, which no valid input decodes to, instead of being kept as its raw `%FF` text.
 */
export function decodeFormText(text: string): string {
  const spaced = text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return `\uDC00${spaced}`;
  }
}

/** Stands in a path for a key that is itself malformed: it cannot name the attribute. */
const BAD_KEY = Symbol("malformed key");
type Path = (string | number | typeof BAD_KEY)[];

function malformedPath(value: unknown, isBad: (s: string) => boolean, path: Path): Path | null {
  if (typeof value === "string") return isBad(value) ? path : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (isBad(key)) return [...path, BAD_KEY];
    const found = malformedPath(item, isBad, at);
    if (found) return found;
  }
  return null;
}

/**
 * Throws 400 on the attribute holding malformed text, named as zod errors are (the wrapper key
 * `root` is not part of the name), or on `base` when it cannot be placed. `notUtf8`: the bytes
 * were not UTF-8, so the replacement characters the lenient decoding put in are the fault.
 */
export function refuseMalformedText(input: unknown, opts: { root?: string; notUtf8?: boolean } = {}): void {
  const isBad = (s: string) => LONE_SURROGATE.test(s) || (opts.notUtf8 === true && s.includes("\uFFFD"));
  const path = malformedPath(input, isBad, []);
  if (!path && !opts.notUtf8) return;
  const [head, next] = path ?? [];
  const attribute = head === opts.root && head !== undefined ? next : head;
  throw ApiError.invalid(typeof attribute === "string" ? attribute : "base", "is not valid UTF-8 text");
}
