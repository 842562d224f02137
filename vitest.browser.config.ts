// Browser tests (npm run test:browser): Debian's Chromium driven by puppeteer-core against a real
// `wrangler dev` that the global setup starts on a free port with a throwaway state directory.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "browser",
    include: ["test/browser/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./test/browser/dev-server.ts"],
    // One browser, one dev server, two shared cores: files and tests run one after another.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
