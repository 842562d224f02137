// The deployment's settings (wrangler.toml vars, secrets), parsed with zod once per bindings object
// at the entries, so a bad value is refused where it is read in, named, instead of falling back.
import * as z from "zod";
import { parseNationalIdKeys, type NationalIdKeys } from "./db/national-id";
import type { Env } from "./env";

/** Unset and empty are the same: the setting's default applies. */
const optional = <S extends z.ZodType>(schema: S) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const wholeNumber = (min: number, fallback: number) =>
  optional(z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(min, `must be ${min} or more`)).transform((n) => n ?? fallback);

/** An address as SMTP carries it (RFC 5321 dot-atom local part and domain): nothing that could end a command or a header. */
export const MAILBOX = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

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
  for (const pair of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [shard, hint, ...rest] = pair.split("=").map((p) => p.trim());
    if (!/^DB(_SHARD_[1-9][0-9]{0,3})?$/.test(shard) || !(LOCATION_HINTS as readonly string[]).includes(hint) || rest.length) {
      ctx.addIssue({ code: "custom", message: `must be SHARD=hint pairs separated by commas, e.g. "DB=weur,DB_SHARD_1=enam"; hints: ${LOCATION_HINTS.join(", ")}` });
      return z.NEVER;
    }
    locations[shard] = hint as LocationHint;
  }
  return locations;
});

/** The key ring that seals national id numbers (db/national-id.ts); unset keeps them in plain text. */
const personalDataKeys = optional(z.string()).transform((text, ctx): NationalIdKeys | null => {
  if (text === undefined) return null;
  const keys = parseNationalIdKeys(text);
  if (typeof keys === "string") {
    ctx.addIssue({ code: "custom", message: keys });
    return z.NEVER;
  }
  return keys;
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
  /**
   * "sink" stores only (development); "http" posts to the provider URLs; "smtp" sends e-mail over
   * SMTP and "resend" through Resend's API (SMS as "http" for both).
   */
  MESSAGE_PROVIDER: optional(z.enum(["sink", "http", "smtp", "resend"], { error: 'must be "sink", "http", "smtp" or "resend"' })).transform((p) => p ?? "sink"),
  /** Where Resend's API is: unset for api.resend.com; a local stand-in in the tests (npm run deploy refuses it). */
  RESEND_API_BASE: httpUrl,
  /** Who delivers SMS when messages leave (http, smtp, resend): "http" (SMS_PROVIDER_URL, the default) or "twilio". */
  SMS_PROVIDER: optional(z.enum(["http", "twilio"], { error: 'must be "http" or "twilio"' })).transform((p) => p ?? "http"),
  TWILIO_ACCOUNT_SID: optional(z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must be a Twilio account SID (AC and 32 hex digits)")),
  /** An E.164 number, an alphanumeric sender id (up to 11 letters and digits) or a Messaging Service SID (MG…). */
  TWILIO_FROM: optional(
    z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|[A-Za-z0-9 ]{1,11}|MG[0-9a-fA-F]{32})$/,
        "must be an E.164 number, a sender id of up to 11 letters and digits, or a Messaging Service SID",
      ),
  ),
  /** Where Twilio's API is: unset for api.twilio.com; a local stand-in in the tests (npm run deploy refuses it). */
  TWILIO_API_BASE: httpUrl,
  /** This deployment's /api/v1/messages/twilio/events: when set, Twilio reports each SMS's delivery there. */
  TWILIO_STATUS_CALLBACK: httpUrl,
  SMS_PROVIDER_URL: httpUrl,
  EMAIL_PROVIDER_URL: httpUrl,
  /** The SMTP server of MESSAGE_PROVIDER=smtp (docs/decisions/messages.md, "E-mail over SMTP"). */
  SMTP_HOST: optional(z.string().regex(/^[A-Za-z0-9.:[\]-]+$/, "must be a host name or an IP address")),
  SMTP_PORT: optional(
    z.coerce.number({ error: "must be a port number" }).int("must be a port number").min(1, "must be a port number").max(65_535, "must be a port number"),
  ),
  /** "starttls" (port 587, the default), "tls" (implicit TLS, port 465) or "none" (a local catcher only). */
  SMTP_SECURITY: optional(z.enum(["starttls", "tls", "none"], { error: 'must be "starttls", "tls" or "none"' })).transform((s) => s ?? "starttls"),
  /** The deployment's sending address: the From of every e-mail, with the shop's name as display name. */
  MAIL_FROM: optional(z.string().regex(MAILBOX, "must be an e-mail address such as bookings@example.com")),
  CAPACITY_GUARD_LOCATIONS: shardLocations,
  /** How long a closed account can be restored before the cron deletes it (docs/decisions/personal-data.md). */
  ACCOUNT_DELETION_GRACE_DAYS: wholeNumber(0, 30),
  /**
   * Whether a known account's writes are answered by a NearDatabase object (docs/decisions/latency.md,
   * "Every write beside the database"): "auto" when this isolate measures its database as far.
   */
  WRITES_BESIDE_DATABASE: optional(z.enum(["auto", "always", "never"], { error: 'must be "auto", "always" or "never"' })).transform((w) => w ?? "auto"),
  /** A Worker secret (`npm run deploy` refuses a deploy without it): the first key seals, every key opens (docs/decisions/personal-data.md). */
  PERSONAL_DATA_KEYS: personalDataKeys,
});

type Config = z.output<typeof configSchema>;

/** A setting that does not parse: names the variable, never its value (it may be a secret). */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
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

/** The national id key ring of these bindings, or null when PERSONAL_DATA_KEYS is unset (numbers stay plain). */
export const nationalIdKeys = (env: Partial<Env>): NationalIdKeys | null => configOf(env).PERSONAL_DATA_KEYS;

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
