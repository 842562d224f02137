// Input text that is not Unicode (spec: Encoding, UTF-8) is refused, never stored with
// replacement characters: body bytes that are not UTF-8, percent escapes that decode to no UTF-8,
// and lone surrogates in JSON `\u` escapes. Input nested deeper than any request needs is refused
// in the same walk.
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

/**
 * The deepest nesting of objects and arrays an input may have. The deepest valid input is about
 * six levels (`resource_exception_dates[i].opening_hours[j]` under a wrapper, `custom_data` in
 * `person_attributes`); 32 leaves room for any client's wrapping while a hostile body of
 * 100,000 levels is refused at once, before zod or any other walker sees it.
 */
const MAX_INPUT_DEPTH = 32;

/**
 * The first fault of the input, in document order: malformed key or text, or nesting deeper than
 * MAX_INPUT_DEPTH. Walked with an explicit stack, not recursion, so no input can exhaust the call
 * stack; the path is copied per level, which the depth cap keeps small.
 */
function firstFault(input: unknown, isBad: (s: string) => boolean): { path: Path; message: string } | null {
  const stack: { value: unknown; path: Path; badKey?: boolean }[] = [{ value: input, path: [] }];
  while (stack.length > 0) {
    const { value, path, badKey } = stack.pop()!;
    if (badKey) return { path: [...path.slice(0, -1), BAD_KEY], message: NOT_UTF8 };
    if (typeof value === "string") {
      if (isBad(value)) return { path, message: NOT_UTF8 };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path, message: `nests deeper than ${MAX_INPUT_DEPTH} levels` };
    const entries = Object.entries(value);
    // Pushed last to first, so entries are looked at in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      stack.push({ value: item, path: [...path, Array.isArray(value) ? Number(key) : key], badKey: isBad(key) });
    }
  }
  return null;
}

const NOT_UTF8 = "is not valid UTF-8 text";

/**
 * Throws 400 on the attribute holding malformed text or too deep a nesting, named as zod errors
 * are (the wrapper key `root` is not part of the name), or on `base` when it cannot be placed.
 * `notUtf8`: the bytes were not UTF-8, so the replacement characters the lenient decoding put in
 * are the fault.
 */
export function refuseMalformedText(input: unknown, opts: { root?: string; notUtf8?: boolean } = {}): void {
  const isBad = (s: string) => LONE_SURROGATE.test(s) || (opts.notUtf8 === true && s.includes("\uFFFD"));
  const fault = firstFault(input, isBad);
  if (!fault && !opts.notUtf8) return;
  const [head, next] = fault?.path ?? [];
  const attribute = head === opts.root && head !== undefined ? next : head;
  if (typeof attribute === "string") throw ApiError.invalid(attribute, fault?.message ?? NOT_UTF8);
  throw ApiError.invalid("base", fault && fault.message !== NOT_UTF8 ? `the input ${fault.message}` : NOT_UTF8);
}
