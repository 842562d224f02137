// The SQL of "holds capacity / is active" and of the effective state (features/bookings/active-sql.ts)
// against the TypeScript predicate (domain/booking-states.ts), over the same rows in real D1.
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { env } from "cloudflare:test";
import { openDb } from "../../src/db/client";
import { bookings } from "../../src/db/schema";
import { ACTIVE_STATES, BOOKING_STATES, effectiveState, isActive, type BookingState } from "../../src/domain/booking-states";
import { effectiveStateSql, holdsCapacity, inEffectiveStates, isActiveSql } from "../../src/features/bookings/active-sql";
import { insertBookingStatement } from "../../src/features/bookings/guarded-write";
import { newAccount } from "../support/api";
import { catalogue } from "../support/bookings";

const HOUR = 3_600_000;
const NOW = Date.UTC(2030, 0, 7, 9);

/** Every state × an expiry that has passed, is exactly now (passed: `<=`), lies ahead, or is absent. */
const EXPIRIES: Record<string, number | null> = { none: null, ahead: NOW + HOUR, now: NOW, passed: NOW - HOUR };
const CASES = BOOKING_STATES.flatMap((state) => Object.entries(EXPIRIES).map(([expiry, expires_at]) => ({ state, expiry, expires_at })));

async function seedCases() {
  const { api, account } = await newAccount();
  const resource = await catalogue(api).resource();
  const ids = new Map<number, (typeof CASES)[number]>();
  for (const c of CASES) {
    // Stored as every write stores it: the `active` flag follows the state, expiry aside.
    const insert = insertBookingStatement({
      account_id: account.id,
      resource_id: resource.id,
      booked_from: NOW,
      booked_to: NOW + HOUR,
      count: 1,
      state: c.state,
      active: ACTIVE_STATES.has(c.state),
      expires_at: c.expires_at,
      created_at: NOW,
      updated_at: NOW,
    });
    const row = await env.DB.prepare(insert.sql)
      .bind(...insert.params)
      .first<{ id: number }>();
    ids.set(row!.id, c);
  }
  return { accountId: account.id as number, ids };
}

describe("booking states in SQL and in TypeScript", () => {
  it("agree on the effective state and on holding capacity for every state and expiry", async () => {
    const { accountId, ids } = await seedCases();
    const db = openDb(env.DB);
    const rows = await db
      .select({ id: bookings.id, state: effectiveStateSql(NOW), active: isActiveSql(NOW) })
      .from(bookings)
      .where(eq(bookings.account_id, accountId));
    const holds = holdsCapacity(NOW);
    const raw = await env.DB.prepare(`SELECT id FROM bookings WHERE account_id = ? AND ${holds.sql}`)
      .bind(accountId, ...holds.params)
      .all<{ id: number }>();
    const holding = new Set(raw.results.map((r) => r.id));

    const fromSql = rows.map((r) => ({ ...ids.get(r.id), state: r.state, active: Boolean(r.active), raw: holding.has(r.id) }));
    const fromTs = rows.map((r) => {
      const c = ids.get(r.id)!;
      const active = isActive(c, NOW);
      return { ...c, state: effectiveState(c, NOW), active, raw: active };
    });
    expect(rows).toHaveLength(CASES.length);
    expect(fromSql).toEqual(fromTs);
    // The table is not vacuous: both answers occur, and expiry flips two states (verification, payment).
    expect(fromTs.filter((r) => r.active)).toHaveLength(ACTIVE_STATES.size * 4 - 4);
    expect(fromTs.filter((r) => r.state === "verification_expired")).toHaveLength(4 + 2);
    expect(fromTs.filter((r) => r.state === "cancelled")).toHaveLength(4 + 2);
    expect(fromTs.filter((r) => r.state === "awaiting_payment")).toHaveLength(2);
  });

  it("select the same rows when listing by effective state", async () => {
    const { accountId, ids } = await seedCases();
    const db = openDb(env.DB);
    for (const state of BOOKING_STATES) {
      const found = await db
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.account_id, accountId), inEffectiveStates([state], NOW)));
      const expected = [...ids].filter(([, c]) => effectiveState(c, NOW) === (state as BookingState)).map(([id]) => id);
      expect(
        found.map((r) => r.id).sort((a, b) => a - b),
        state,
      ).toEqual(expected.sort((a, b) => a - b));
    }
  });
});
