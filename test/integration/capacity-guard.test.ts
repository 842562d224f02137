import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { peakLoadQuery, type CapacityScope } from "../../src/features/bookings/capacity-sql";
import { insertBookingStatement } from "../../src/features/bookings/guarded-write";
import { guardKey } from "../../src/durable-objects/capacity-guard";
import { newAccount } from "../support/api";

const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 7, 9);

async function resourceWithCapacity(capacity: number) {
  const { api, account } = await newAccount();
  const res = await api.post("/services", { service: { title: "s" } });
  expect(res.status).toBe(200);
  const inserted = await env.DB.prepare("INSERT INTO resources (account_id, title, capacity, created_at, updated_at) VALUES (?, 'r', ?, 0, 0) RETURNING id")
    .bind(account.id, capacity)
    .first<{ id: number }>();
  return { accountId: account.id as number, scope: { kind: "resource", id: inserted!.id, capacity } as CapacityScope };
}

/** The product's guarded insert (as POST /bookings writes it), checked at "now" T0 - 1h. */
function guardedInsert(accountId: number, scope: CapacityScope, from: number, to: number, count = 1, state = "confirmed", expiresAt: number | null = null) {
  return insertBookingStatement(
    { account_id: accountId, resource_id: scope.id, booked_from: from, booked_to: to, count, state, active: true, expires_at: expiresAt, created_at: 0, updated_at: 0 },
    { scope, window: { from, to, count, now: T0 - HOUR } },
  );
}

const stubFor = (scope: CapacityScope) => env.CAPACITY_GUARD.getByName(guardKey("DB", scope));

describe("CapacityGuard", () => {
  it("lets exactly one of 50 parallel bookings into a capacity-1 slot", async () => {
    const { accountId, scope } = await resourceWithCapacity(1);
    const stub = stubFor(scope);
    const results = await Promise.all(Array.from({ length: 50 }, () => stub.apply({ statements: [guardedInsert(accountId, scope, T0, T0 + HOUR)] })));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    const { count } = (await env.DB.prepare("SELECT COUNT(*) AS count FROM bookings WHERE resource_id = ?").bind(scope.id).first<{ count: number }>())!;
    expect(count).toBe(1);
  });

  it("lets exactly three of 50 parallel bookings into a capacity-3 slot", async () => {
    const { accountId, scope } = await resourceWithCapacity(3);
    const stub = stubFor(scope);
    const results = await Promise.all(Array.from({ length: 50 }, () => stub.apply({ statements: [guardedInsert(accountId, scope, T0, T0 + HOUR)] })));
    expect(results.filter((r) => r.applied)).toHaveLength(3);
  });

  it("holds without the Durable Object too: the guarded statement alone never overbooks", async () => {
    const { accountId, scope } = await resourceWithCapacity(2);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => {
        const s = guardedInsert(accountId, scope, T0, T0 + HOUR);
        return env.DB.prepare(s.sql)
          .bind(...s.params)
          .run();
      }),
    );
    // By the rows RETURNING gives back: `changes` also counts what triggers write (drizzle/0002, 0006).
    expect(results.filter((r) => r.results.length === 1)).toHaveLength(2);
  });

  it("counts the peak of concurrent bookings, not the sum of every overlap", async () => {
    const { accountId, scope } = await resourceWithCapacity(2);
    const stub = stubFor(scope);
    // 09-10 and 10-11 never overlap each other, so 09-11 still has room for one more.
    for (const [from, to] of [
      [T0, T0 + HOUR],
      [T0 + HOUR, T0 + 2 * HOUR],
    ]) {
      expect((await stub.apply({ statements: [guardedInsert(accountId, scope, from, to)] })).applied).toBe(true);
    }
    expect((await stub.apply({ statements: [guardedInsert(accountId, scope, T0, T0 + 2 * HOUR)] })).applied).toBe(true);
    expect((await stub.apply({ statements: [guardedInsert(accountId, scope, T0 + 30 * 60_000, T0 + 90 * 60_000)] })).applied).toBe(false);
    const peak = peakLoadQuery(scope, { from: T0, to: T0 + 2 * HOUR, count: 0, now: T0 - HOUR });
    expect(
      (await env.DB.prepare(peak.sql)
        .bind(...peak.params)
        .first<{ peak: number }>())!.peak,
    ).toBe(2);
  });

  it("treats touching bookings as free and an expired unverified booking as released", async () => {
    const { accountId, scope } = await resourceWithCapacity(1);
    const stub = stubFor(scope);
    // Expired before "now" (T0 - 1h): holds nothing.
    await stub.apply({ statements: [guardedInsert(accountId, scope, T0, T0 + HOUR, 1, "awaiting_verification", T0 - 2 * HOUR)] });
    expect((await stub.apply({ statements: [guardedInsert(accountId, scope, T0, T0 + HOUR)] })).applied).toBe(true);
    expect((await stub.apply({ statements: [guardedInsert(accountId, scope, T0 + HOUR, T0 + 2 * HOUR)] })).applied).toBe(true);
    expect((await stub.apply({ statements: [guardedInsert(accountId, scope, T0 + HOUR - 60_000, T0 + HOUR)] })).applied).toBe(false);
  });
});
