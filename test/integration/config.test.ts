// A bad deployment setting: every entry refuses to run on it and says which variable is wrong.
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { env } from "../support/api";
import { runQueue } from "../support/queues";

const errorLines = () => {
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  return () => spy.mock.calls.map(([line]) => String(line));
};

afterEach(() => vi.restoreAllMocks());

describe("the environment", () => {
  it("answers 500 system error and logs the bad variable by name, never its value", async () => {
    const lines = errorLines();
    const res = await worker.fetch(
      new Request("http://api.test/api/v1/client", { headers: { "user-agent": "tests", authorization: "Bearer bk_nothing" } }),
      { ...env, RATE_LIMIT_REQUESTS: "eighty" },
      createExecutionContext(),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "system error" });
    const logged = lines()
      .map((l) => JSON.parse(l))
      .find((l) => l.error === "configuration");
    expect(logged).toMatchObject({ variable: "RATE_LIMIT_REQUESTS", request_id: expect.any(String) });
    expect(JSON.stringify(logged)).not.toContain("eighty");
  });

  it("serves as before when every setting parses", async () => {
    const res = await worker.fetch(
      new Request("http://api.test/health", { headers: { "user-agent": "tests" } }),
      { ...env, RATE_LIMIT_REQUESTS: "1000000" },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
  });

  it("retries a queue batch rather than running it on a bad provider kind", async () => {
    const lines = errorLines();
    const result = await runQueue("booking-messages", [{ account_id: 1, message_id: 1 }], { MESSAGE_PROVIDER: "carrier-pigeon" });
    expect(result.retryBatch.retry).toBe(true);
    expect(result.explicitAcks).toEqual([]);
    expect(lines().some((l) => l.includes('"variable":"MESSAGE_PROVIDER"'))).toBe(true);
  });

  it("runs no cron job on a bad provider URL", async () => {
    const lines = errorLines();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), { ...env, SMS_PROVIDER_URL: "sms.example" });
    expect(lines().some((l) => l.includes('"variable":"SMS_PROVIDER_URL"'))).toBe(true);
  });
});
