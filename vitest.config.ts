import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";
import { d1Databases } from "./scripts/d1-databases.mjs";
import { hideNetworkErrorEchoes } from "./test/support/network-error-echo.ts";
import { startReceiver } from "./test/support/receiver-server.ts";
import { startMailServer, SMTP_TEST_PASSWORD, SMTP_TEST_USER } from "./test/support/mail-server.ts";
import { startStripeStandIn } from "./scripts/stripe-stand-in.mjs";
import { DELIVERY_EVENT_SETTINGS } from "./bench/route-catalogue/provider-settings.ts";
import { staticImportsUnderPool } from "./test/support/static-imports.ts";

hideNetworkErrorEchoes();

/** The rate limit tests run against the configured budget; every other file must never trip it. */
const RATE_LIMIT_TESTS = "test/integration/rate-limit.test.ts";
/** The wait budgets, also run as a Worker far from its database answers writes (issue 33). */
const ROUTE_WAIT_TESTS = "test/integration/route-waits-*.test.ts";
/**
 * The payments property runs the every-minute cron dozens of times; in the shared runtime each run
 * also sweeps what every earlier file left (their unpaid bookings, their calendars), so it runs in a
 * runtime of its own, where the cron sees only its shop.
 */
const PAYMENT_PROPERTY_TESTS = "test/integration/payments-property.test.ts";
/** Tests that are not about the rate limit raise it (docs/decisions/rate-limit.md). */
const UNLIMITED = { RATE_LIMIT_REQUESTS: "1000000", RATE_LIMIT_KEY_REQUESTS: "1000000" };

/** A test-only key ring (32 bytes, base64): public, like .dev.vars' own. */
const PERSONAL_DATA_KEYS = "test1:NVZNxHO9BP/kr+5QRn/0KeA44/Xu7HSUcUYtt+dfvDA=";

/** The Worker's Stripe settings in tests: a key and a signing secret the stand-in accepts. */
const STRIPE_SECRET_KEY = "sk_test_standin";
const STRIPE_WEBHOOK_SECRET = "whsec_test_standin";

/** One stand-in for both projects, started on first use, as the receiver is. */
let stripeApiBase: Promise<string> | undefined;
// The Worker under test has no address workerd can be called at, so paid sessions' events go to
// the receiver, where a test reads what was delivered (hooks/_log/stripe-events).
const startStripe = () =>
  (stripeApiBase ??= startReceiver()
    .then((receiver) => startStripeStandIn({ webhookSecret: STRIPE_WEBHOOK_SECRET, deliverTo: `${receiver}/hooks/stripe-events` }))
    .then((standIn) => standIn.origin));

/** Every D1 binding of wrangler.toml with the migrations of its own directory, applied by the setup file. */
async function d1Migrations() {
  const entries = await Promise.all(d1Databases().map(async (db) => [db.binding, await readD1Migrations(db.migrationsDir)] as const));
  return Object.fromEntries(entries);
}

const workersProject = (name: string, include: string[], exclude: string[], bindings: Record<string, string>) => ({
  plugins: [
    staticImportsUnderPool(),
    cloudflareTest(async () => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_D1_MIGRATIONS: await d1Migrations(),
          ADMIN_TOKEN: "test-admin-token",
          // Web hook deliveries and message providers are real HTTP exchanges with a receiver the
          // tests control, outside workerd, so a dropped connection reaches the Worker as it would.
          TEST_RECEIVER: await startReceiver(),
          // A local stand-in of the Stripe API (scripts/stripe-stand-in.mjs), reached the same way:
          // the SDK's host/port/protocol point at this origin.
          STRIPE_API_BASE: await startStripe(),
          STRIPE_SECRET_KEY,
          STRIPE_WEBHOOK_SECRET,
          // A real SMTP server (test/support/mail-server.ts) for the tests that send over SMTP; they
          // choose MESSAGE_PROVIDER=smtp themselves, every other test keeps the sink.
          TEST_SMTP: await startMailServer(),
          SMTP_USERNAME: SMTP_TEST_USER,
          SMTP_PASSWORD: SMTP_TEST_PASSWORD,
          // The providers' delivery events are signed with these (messages-delivery-events.test.ts signs
          // as Resend and Twilio do); sending through either still needs the test to choose it.
          ...DELIVERY_EVENT_SETTINGS,
          // New accounts land on DB unless a test names a shard (test/integration/shards.test.ts),
          // so tests that read env.DB directly see their accounts' rows.
          PLACEMENT_SHARDS: "DB",
          // Writes answered in the Worker, whatever it measures: tests that move the clock would
          // leave its distance unmeasured ("far"). The NearDatabase tests hand the Worker
          // "always" or "auto" themselves.
          WRITES_BESIDE_DATABASE: "never",
          // National id numbers sealed as deployed, under a public test-only key (people-national-id.test.ts
          // rotates to a second key by handing the Worker its own bindings).
          PERSONAL_DATA_KEYS,
          ...bindings,
        },
      },
    })),
  ],
  test: {
    name,
    // Two cores shared by workerd and vitest: generous, so load never fails a test.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    include,
    exclude: [...configDefaults.exclude, ...exclude],
    // One runtime per project for all its files: each file re-imported the whole Worker into a fresh
    // workerd before (4 to 11 s a file on two cores); tests isolate themselves by account (docs/decisions/test-suite.md).
    isolate: false,
    setupFiles: ["./test/support/pool-workarounds.ts", "./test/support/apply-migrations.ts"],
  },
});

export default defineConfig({
  test: {
    // Two runtimes even on two cores: much of an integration file's time is waiting on queue retries
    // and timers, which the other runtime fills (docs/decisions/test-suite.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Every request writes one JSON access line (src/http/observability.ts); a test run has thousands.
    onConsoleLog: (log) => !log.startsWith('{"request_id":'),
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" },
      },
      workersProject("workers", ["test/integration/**/*.test.ts"], [RATE_LIMIT_TESTS, PAYMENT_PROPERTY_TESTS], UNLIMITED),
      workersProject("workers-payment-property", [PAYMENT_PROPERTY_TESTS], [], UNLIMITED),
      // Every write answered by the NearDatabase object, as a Worker that measures its database as
      // far answers them: the wait tests hold every route to its budget there, with no exception.
      workersProject("workers-at-distance", [ROUTE_WAIT_TESTS], [], { ...UNLIMITED, WRITES_BESIDE_DATABASE: "always" }),
      // wrangler.toml's own budget (80 per 20 s), so the 429 path is tested as deployed.
      workersProject("workers-rate-limit", [RATE_LIMIT_TESTS], [], {}),
    ],
  },
});
