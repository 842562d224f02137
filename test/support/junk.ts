// fast-check generators of input that must be refused: each is invalid for one kind of field
// whatever else the body holds, so a property can demand a 400 naming that field.
import fc from "fast-check";

const containers = fc.oneof(
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxKeys: 3 }),
);
/**
 * Arrays and objects nested past any depth a request needs (the app refuses more than 32 levels,
 * src/http/well-formed.ts), so every walker of input meets depth; kept to JSON.stringify's reach.
 */
const deepNesting = () =>
  fc.tuple(fc.integer({ min: 33, max: 3000 }), fc.boolean()).map(([levels, asArrays]) => {
    let value: unknown = "x";
    for (let i = 0; i < levels; i++) value = asArrays ? [value] : { n: value };
    return value;
  });

/** How deep a value nests, counted without recursion. */
export function depthOf(value: unknown): number {
  let depth = 0;
  let layer: unknown[] = [value];
  while (layer.length > 0) {
    layer = layer.flatMap((v) => (v !== null && typeof v === "object" ? Object.values(v) : []));
    if (layer.length > 0 || depth > 0) depth += 1;
  }
  return depth;
}

/** What a field must refuse in place of a scalar: shallow containers, and deep ones. */
const badContainers = fc.oneof(containers, deepNesting());

/** Text that names no number, date or word any field reads: letters, unicode, control characters. */
const wordy = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/\d/.test(s) && !/^\s*(true|false|t|f|yes|no|on|off)\s*$/i.test(s)),
  fc.constantFrom("💥🙂", "\u0000\u0001", "ẞtraße", "نعم", "DROP TABLE bookings;--", "<script>x</script>", "{{ account.api_key }}"),
);
const tooLong = (max: number) => fc.constantFrom("x".repeat(max + 1), "é".repeat(max + 1), "🙂".repeat(max + 1));

/** Not an integer in range: words, fractions, booleans, containers shallow or deep, out-of-range numbers. */
export const badInteger = (opts: { min?: number; max?: number } = {}) =>
  fc.oneof(
    wordy,
    fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }),
    fc.boolean(),
    badContainers,
    fc.constantFrom("1.5", "1e3", "0x10", "NaN", "Infinity", 2 ** 53 + 2, 1e21, -(2 ** 60)),
    ...(opts.min !== undefined ? [fc.integer({ min: -1_000_000, max: opts.min - 1 })] : []),
    ...(opts.max !== undefined ? [fc.integer({ min: opts.max + 1, max: opts.max * 1000 + 1 })] : []),
  );

/** Not a datetime: impossible dates and times, other shapes, wrong offsets, non-strings. */
export const badDateTime = () =>
  fc.oneof(
    wordy,
    fc.integer(),
    fc.boolean(),
    badContainers,
    fc.constantFrom(
      "2030-02-30 10:00",
      "2030-13-01 10:00",
      "2030-01-01 24:00",
      "2030-01-01 10:60",
      "2030-1-1 10:00",
      "10:00",
      "2030/01/01 10:00",
      "2030-01-01 10:00 Europe/Oslo",
      "2030-01-01T10:00:00+99",
      "tomorrow",
      "2030-01-01T10:00:00.1234567890Z",
      "+002030-01-01T10:00",
      "2030-01-01 10:00+01:00:00",
    ),
  );

/** Not a boolean word or value. */
export const badBoolean = () => fc.oneof(wordy, badContainers, fc.integer({ min: 2, max: 1000 }), fc.constantFrom("2", "-1", "truthy", "nil", "null", " "));

/** Not text: containers shallow or deep, booleans, or longer than the field allows. */
export const badText = (max = 255) => fc.oneof(badContainers, fc.boolean(), tooLong(max));

/** Required text that is missing in substance. */
export const badRequiredText = (max = 255) => fc.oneof(badText(max), fc.constantFrom("", "   ", "\t\n"), fc.constant(null));

export const badCustomData = () =>
  fc.oneof(
    fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 3 }),
    wordy,
    fc.integer(),
    fc.boolean(),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { minKeys: 1, maxKeys: 2 }), {
      minKeys: 1,
      maxKeys: 2,
    }),
    fc.constant(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, "v"]))),
  );

export const badOpeningHours = () =>
  fc.oneof(
    wordy,
    fc.integer(),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { minKeys: 1, maxKeys: 2 }),
    fc.constantFrom(["09:00"], ["nine", "five"], ["17:00", "09:00"], ["09:00", "25:00"], ["09:00", "13:00", "12:00", "17:00"], [], [9, 17], [null, null]),
  );

export const badDate = () =>
  fc.oneof(wordy, fc.integer(), badContainers, fc.constantFrom("2030-02-30", "2030-13-01", "30-01-01", "2030-01-01T10:00", "0000-00-00", "2030-1-1"));

/** A value of an enum field that is not one of its names. */
export const badEnum = (names: readonly string[]) => fc.oneof(wordy, fc.integer(), badContainers).filter((v) => !(typeof v === "string" && names.includes(v)));

export const badEmail = () => fc.oneof(badText(), fc.constantFrom("not-an-email", "a@b", "@example.com", "a b@example.com", "x@y."));

/** Phone input without a digit, or not text at all. */
export const badPhone = () =>
  fc.oneof(
    badContainers,
    fc.boolean(),
    wordy.filter((s) => s.trim() !== ""),
  );

export const badTimeZone = () => fc.oneof(wordy, fc.integer(), badContainers, fc.constantFrom("Europe/Atlantis", "+01:00", "UTC+1", "Mars/Olympus_Mons", "europe/oslo "));

export const badIdList = () =>
  fc.oneof(
    wordy,
    fc.integer(),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { minKeys: 1, maxKeys: 2 }),
    fc.array(badInteger({ min: 1 }), { minLength: 1, maxLength: 3 }),
  );

/** Keys a client may send but never set: each must be ignored without harm (`expires_at` is a booking input). */
export const READ_ONLY_KEYS = [
  "id",
  "account_id",
  "state",
  "active",
  "created_at",
  "updated_at",
  "verification_code",
  "collection_id",
  "availability",
  "user_id",
  "webhook_secret",
  "api_enabled",
  "billing_status",
  "api_key",
  "__proto__",
  "constructor",
] as const;

/** Any JSON-ish value, for unknown and read-only keys. */
export const anyValue = () => fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null), containers);

/** Bodies that are not a JSON object at all. */
export const notAnObject = () =>
  fc.oneof(
    fc.string({ maxLength: 10 }).map((s) => JSON.stringify(s)),
    fc.integer().map(String),
    fc.constantFrom("[]", "[{}]", "null", "true", "{", '{"a":', "\u0000"),
  );
