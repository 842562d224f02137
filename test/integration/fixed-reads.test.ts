// The reads rendered once per isolate with rows as JSON texts (db/fixed-statement.ts) must give
// exactly the objects Drizzle's own select gives: every column, booleans, JSON columns and nulls.
import { describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { env } from "cloudflare:test";
import { openDb } from "../../src/db/client";
import { accountOfKeyHash, accountOfSubdomain } from "../../src/db/directory";
import { accounts, services } from "../../src/db/schema";
import { sha256Hex } from "../../src/http/secrets";
import { listServices } from "../../src/features/services/service";
import type { Deps } from "../../src/env";
import { newAccount } from "../support/api";

const drizzleAccount = async (subdomain: string) => (await openDb(env.DB).select().from(accounts).where(eq(accounts.subdomain, subdomain)))[0];

describe("accounts read by who is asking", () => {
  it("is the row Drizzle reads, by subdomain and by API key, with settings, flags and JSON columns set", async () => {
    const { api, account } = await newAccount({ closed_for_holidays: true, confirm_manually: true, footer: 'Ünïcode "quoted" \\ text', settings: { a: [1, "x"] } });
    const res = await api.put("/client", { client: { public_access: false, interval_rounding: 15, address: null } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = await drizzleAccount(account.subdomain);
    expect(expected.public_access).toBe(false);
    expect(await accountOfSubdomain(env, account.subdomain)).toStrictEqual(expected);
    expect(await accountOfKeyHash(env, await sha256Hex(api.apiKey))).toStrictEqual(expected);
  });

  it("finds nothing for an unknown subdomain or key hash", async () => {
    expect(await accountOfSubdomain(env, "no-such-shop")).toBeNull();
    expect(await accountOfKeyHash(env, await sha256Hex("not a key"))).toBeNull();
  });
});

describe("the services a booking site lists", () => {
  it("are the rows Drizzle reads, active ones only, in id order, and of one type when asked", async () => {
    const { api, account } = await newAccount();
    const made = [];
    for (const service of [
      { title: "Cut", booking_type: "appointment", price: "12.50", has_day_booking: true, custom_data: { k: "v" } },
      { title: "Class", booking_type: "attendance", description: null },
      { title: "Gone", booking_type: "appointment" },
    ]) {
      const res = await api.post("/services", { service });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      made.push(res.body.service.id as number);
    }
    expect((await api.delete(`/services/${made[2]}`)).status).toBe(200);
    const db = openDb(env.DB);
    const deps = { db, env, account: await drizzleAccount(account.subdomain) } as unknown as Deps;
    const drizzleRows = (type?: string) =>
      db
        .select()
        .from(services)
        .where(and(eq(services.account_id, account.id), eq(services.active, true), type ? eq(services.booking_type, type) : undefined))
        .orderBy(asc(services.id));
    const all = await listServices(deps);
    expect(all.map((s) => s.id)).toEqual(made.slice(0, 2));
    expect(all).toStrictEqual(await drizzleRows());
    expect(await listServices(deps, { bookingType: "attendance" })).toStrictEqual(await drizzleRows("attendance"));
  });
});
