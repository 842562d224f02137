import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { fetch } from "miniflare";
import { defineConfig } from "vitest/config";
import { messageReceiver } from "./test/support/message-receiver";

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
              // The message provider tests' receiver; every other outbound request goes out unchanged.
              outboundService: async (request) => (await messageReceiver(request)) ?? fetch(request),
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
