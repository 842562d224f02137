import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" },
      },
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "drizzle")),
                ADMIN_TOKEN: "test-admin-token",
                // Tests that are not about the rate limit must not trip it (CONTRACT.md).
                RATE_LIMIT_REQUESTS: "1000000",
              },
              // Web hook deliveries and message providers are real HTTP exchanges with a receiver the tests control.
              outboundService: "webhook-receiver",
              workers: [{
                name: "webhook-receiver",
                modules: true,
                scriptPath: path.join(import.meta.dirname, "test/support/webhook-receiver.mjs"),
                compatibilityDate: "2026-04-01",
              }],
            },
          })),
        ],
        test: {
          name: "workers",
          // Two cores shared by workerd and vitest: generous, so load never fails a test.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          include: ["test/integration/**/*.test.ts"],
          setupFiles: ["./test/support/apply-migrations.ts"],
        },
      },
    ],
  },
});
