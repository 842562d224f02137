// The deployment's settings (wrangler.toml vars, secrets), parsed with zod once per bindings object
// at the entries, so a bad value is refused where it is read in, named, instead of falling back.
import * as z from "zod";
import type { Env } from "./env";

/** Unset and empty are the same: the setting's default applies. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const wholeNumber = (min: number, fallback: number) =>
  optional(z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(min, `must be ${min} or more`)).transform((n) => n ?? fallback);

const httpUrl = optional(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }));

/** Where Cloudflare may place a Durable Object when it is first created (its `locationHint`). */
const LOCATION_HINTS = ["wnam", "enam", "sam", "weur", "eeur", "apac", "apac-ne", "apac-se", "oc", "afr", "me"] as const;
type LocationHint = (typeof LOCATION_HINTS)[number];

/**
 * `DB=weur,DB_SHARD_1=enam`: each shard's D1 location, so its capacity guards are created beside
 * their database and their own D1 work is a short hop (docs/decisions/latency.md, "Where the guard sits").
 */
const shardLocations = optional(z.string()).transform((text, ctx) => {
  const locations: Record<string, LocationHint> = {};
  for (const pair of (text ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const [shard, hint, ...rest] = pair.split("=").map((p) => p.trim());
    if (!/^DB(_SHARD_[1-9][0-9]{0,3})?$/.test(shard) || !(LOCATION_HINTS as readonly string[]).includes(hint) || rest.length) {
      ctx.addIssue({ code: "custom", message: `must be SHARD=hint pairs separated by commas, e.g. "DB=weur,DB_SHARD_1=enam"; hints: ${LOCATION_HINTS.join(", ")}` });
      return z.NEVER;
    }
    locations[shard] = hint as LocationHint;
  }
  return locations;
});

const configSchema = z.object({
  ROOT_DOMAIN: optional(z.string()).transform((d) => d ?? "localhost"),
  DEFAULT_SUBDOMAIN: optional(z.string()),
  // Only an explicit "development" relaxes the production rules: a missing or misspelt value is production.
  ENVIRONMENT: optional(z.string()),
  RATE_LIMIT_REQUESTS: wholeNumber(1, 80),
  RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1, 20),
  RATE_LIMIT_KEY_REQUESTS: wholeNumber(1, 240),
  SMS_DAILY_CAP_PER_ACCOUNT: wholeNumber(0, 500),
  /** "sink" stores only (development); "http" posts to the provider URLs. */
  MESSAGE_PROVIDER: optional(z.enum(["sink", "http"], { error: 'must be "sink" or "http"' })).transform((p) => p ?? "sink"),
  SMS_PROVIDER_URL: httpUrl,
  EMAIL_PROVIDER_URL: httpUrl,
  CAPACITY_GUARD_LOCATIONS: shardLocations,
  /**
   * Whether a known account's writes are answered by a NearDatabase object (docs/decisions/latency.md,
   * "Every write beside the database"): "auto" when this isolate measures its database as far.
   */
  WRITES_BESIDE_DATABASE: optional(z.enum(["auto", "always", "never"], { error: 'must be "auto", "always" or "never"' })).transform((w) => w ?? "auto"),
});

type Config = z.output<typeof configSchema>;

/** A setting that does not parse: names the variable, never its value (it may be a secret). */
export class ConfigError extends Error {
  constructor(readonly variable: string, readonly problem: string) {
    super(`${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

const parsed = new WeakMap<object, Config>();

/** The settings of these bindings; throws ConfigError on the first bad variable. */
export function configOf(env: Partial<Env>): Config {
  let config = parsed.get(env);
  if (!config) {
    const result = configSchema.safeParse(env);
    if (!result.success) {
      const [issue] = result.error.issues;
      throw new ConfigError(String(issue.path[0]), issue.message);
    }
    config = result.data;
    parsed.set(env, config);
  }
  return config;
}

/** The bad setting of these bindings, or null when every one parses (for the queue and cron entries). */
export function badConfig(env: Partial<Env>): ConfigError | null {
  try {
    configOf(env);
    return null;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

/** The log line for a bad setting: one JSON object naming the variable. */
export const configErrorLine = (error: ConfigError, context: Record<string, unknown> = {}) =>
  JSON.stringify({ ...context, error: "configuration", variable: error.variable, problem: error.problem });
