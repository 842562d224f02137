// Bindings and per-request variables shared by every route. On the ground floor beside db/
// (.dependency-cruiser.cjs): each Durable Object binding is described by what its callers may ask
// of it, never by the class that serves it, which imports the floors above.
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { CapacityGuard, GuardedBatch, GuardedResult } from "./db/guarded-batch";
import type * as schema from "./db/schema";
import type { Account } from "./db/schema";
import type { RateLimitHit, RateLimitPolicy } from "./domain/sliding-log";

/** What a CapacityGuard object answers (durable-objects/capacity-guard.ts implements it). */
export interface CapacityGuardObject extends Rpc.DurableObjectBranded {
  apply(batch: GuardedBatch): Promise<GuardedResult>;
}

/** What a RateLimiter object answers (durable-objects/rate-limiter.ts implements it). */
export interface RateLimiterObject extends Rpc.DurableObjectBranded {
  hit(policy: RateLimitPolicy): RateLimitHit;
  refund(countedAt: number): void;
}

export interface Env {
  DB: D1Database;
  RECURRENCE_QUEUE: Queue<unknown>;
  WEBHOOK_QUEUE: Queue<unknown>;
  MESSAGE_QUEUE: Queue<unknown>;
  /** Calendar subscriptions' fetches (features/calendar-subscriptions/refresh.ts). */
  CALENDAR_QUEUE: Queue<unknown>;
  CAPACITY_GUARD: DurableObjectNamespace<CapacityGuardObject>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiterObject>;
  /**
   * Answers a request whose account the Worker's isolate does not know yet, beside the database
   * (src/near-database.ts): through `fetch` only, so its stubs need no methods of their own.
   */
  NEAR_DATABASE?: DurableObjectNamespace;
  ADMIN_TOKEN?: string;
  ROOT_DOMAIN?: string;
  DEFAULT_SUBDOMAIN?: string;
  RATE_LIMIT_REQUESTS?: string;
  RATE_LIMIT_WINDOW_SECONDS?: string;
  /** Requests per window for one API key on the private API, beside the per-address budget. */
  RATE_LIMIT_KEY_REQUESTS?: string;
  ENVIRONMENT?: string;
  /** "sink" (stores only; the development default), "http" (the provider URLs below), "smtp" (SMTP_* below) or "resend" (RESEND_API_KEY). */
  MESSAGE_PROVIDER?: string;
  SMS_PROVIDER_URL?: string;
  EMAIL_PROVIDER_URL?: string;
  /** Bearer token for the provider URLs: a secret, never a var. */
  MESSAGE_PROVIDER_TOKEN?: string;
  SMS_DAILY_CAP_PER_ACCOUNT?: string;
  /** MESSAGE_PROVIDER=smtp: the server, its port and security, and the deployment's sending address (src/config.ts). */
  SMTP_HOST?: string;
  SMTP_PORT?: string;
  SMTP_SECURITY?: string;
  MAIL_FROM?: string;
  /** The SMTP login: Worker secrets, never vars (`npm run deploy` refuses them in wrangler.toml). */
  SMTP_USERNAME?: string;
  SMTP_PASSWORD?: string;
  /** MESSAGE_PROVIDER=resend: the API key (a Worker secret), and the API's origin in tests only. */
  RESEND_API_KEY?: string;
  RESEND_API_BASE?: string;
  /** The signing secret (whsec_…) of the Resend webhook that posts delivery events here (a Worker secret). */
  RESEND_WEBHOOK_SECRET?: string;
  /** SMS_PROVIDER=twilio: the account SID and sender (vars), the auth token (a Worker secret), the API's origin in tests only. */
  SMS_PROVIDER?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_FROM?: string;
  TWILIO_API_BASE?: string;
  /** This deployment's /api/v1/messages/twilio/events, where Twilio reports each SMS's delivery. */
  TWILIO_STATUS_CALLBACK?: string;
  /** The payment platform's Stripe secret key and webhook signing secret: Worker secrets, never vars (docs/decisions/payments.md). */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** `k2:<base64 32 bytes>,k1:<…>`: the keys that seal national id numbers, the first current (src/db/national-id.ts). A Worker secret. */
  PERSONAL_DATA_KEYS?: string;
  /** Where the Stripe API is: unset for api.stripe.com; the local stand-in in tests and `npm run dev`. */
  STRIPE_API_BASE?: string;
  /** Each shard's D1 location as `DB=weur,DB_SHARD_1=enam`: its capacity guards are created there (src/config.ts). */
  CAPACITY_GUARD_LOCATIONS?: string;
  /** "auto" (default), "always" or "never": whether writes go to a NearDatabase object (src/config.ts). */
  WRITES_BESIDE_DATABASE?: string;
  /** Shards (comma-separated binding names) that take new accounts when the operator names none; default all. */
  PLACEMENT_SHARDS?: string;
  /** Days a closed account can be restored before its deletion; default 30 (src/config.ts). */
  ACCOUNT_DELETION_GRACE_DAYS?: string;
}

export type Db = DrizzleD1Database<typeof schema>;

/** Who is asking: drives webhook `performed_by` and public-API restrictions; "system" is background work. */
export type Surface = "private_api" | "public_api" | "operator_api" | "system";

export interface Deps {
  db: Db;
  env: Env;
  account: Account;
  /** Request clock, epoch milliseconds; one value per request so a request sees one "now". */
  now: number;
  surface: Surface;
  /** Where writes that take capacity go, one at a time per resource or event. */
  capacityGuard: CapacityGuard;
  /**
   * The booking site visitor's address as the rate limiter groups it (http/client-ip.ts): set for
   * every request on the site, so every way to book there (REST, page, widget, MCP, a waitlist
   * accept) counts against the same unpaid-bookings limit.
   */
  visitor?: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    account: Account;
    db: Db;
    now: number;
    surface: Surface;
    requestId: string;
    /** Set in the NearDatabase object: the request is already beside the database, never forwarded again. */
    besideDatabase?: boolean;
    /** Set by the Worker's entry: writes, and requests of accounts this isolate does not know, go to a NearDatabase object. */
    forwardsBesideDatabase?: boolean;
    /**
     * Set with `forwardsBesideDatabase`: what this isolate's caches learn of a request a NearDatabase
     * object answered (features/account-writes.ts), handed in by the app since http/ imports no feature.
     */
    afterRequestOf?: (method: string, account: Account) => void;
    /** The `Server-Timing` entries of the NearDatabase object that answered the request, renamed `beside-database-*`. */
    besideDatabaseTiming?: string;
  };
};
