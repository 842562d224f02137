// Types for `cloudflare:test` env and `cloudflare:workers` exports in tests.
type AppBindings = import("../src/env").Env;

declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../src/index");
  }
  interface Env extends AppBindings {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** Origin of the tests' HTTP receiver (test/support/receiver-server.ts). */
    TEST_RECEIVER: string;
  }
}
