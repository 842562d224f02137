// Types for `cloudflare:test` env and `cloudflare:workers` exports in tests.
type AppBindings = import("../src/env").Env;

declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../src/index");
  }
  interface Env extends AppBindings {
    /** Each D1 binding's migrations, by binding name (vitest.config.ts). */
    TEST_D1_MIGRATIONS: Record<string, import("cloudflare:test").D1Migration[]>;
    /** Origin of the tests' HTTP receiver (test/support/receiver-server.ts). */
    TEST_RECEIVER: string;
    /** `127.0.0.1:<port>` of the tests' SMTP server (test/support/mail-server.ts). */
    TEST_SMTP: string;
    /** Origin of the local Stripe API stand-in (scripts/stripe-stand-in.mjs). */
    STRIPE_API_BASE: string;
    /** The stand-in's API key and the secret it signs events with (vitest.config.ts). */
    STRIPE_SECRET_KEY: string;
    STRIPE_WEBHOOK_SECRET: string;
  }
}
