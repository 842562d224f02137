// The rule table of src/db/invalidation.ts is what the database does: its triggers are the ones the
// table renders, on every shard, and a write bumps a version exactly when the table says it should.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { AVAILABILITY, EVERY_HOUR, HOUR_MS, LISTING, VERSIONED_ANSWERS, bookingHourTriggers, versionTriggers } from "../../src/db/invalidation";
import { newAccount } from "../support/api";
import { catalogue } from "../support/bookings";

const squeezed = (sql: string) => sql.replace(/\s+/g, " ").replace(/;\s*$/, "").trim();

describe("version triggers", () => {
  for (const binding of ["DB", "DB_SHARD_1"] as const) {
    it.each(VERSIONED_ANSWERS.map((a) => [a.tag, a] as const))(`${binding}: the %s triggers are exactly the rule table's`, async (tag, answers) => {
      const { results } = await (env as unknown as Record<string, D1Database>)[binding]
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE ? ORDER BY name")
        .bind(`%${tag}%`)
        .all<{ name: string; sql: string }>();
      const inDatabase = results.filter((t) => new RegExp(`_${tag}_(insert|update|delete)$`).test(t.name));
      const stated = versionTriggers(answers);
      expect(inDatabase.map((t) => [t.name, squeezed(t.sql)]).sort()).toEqual(stated.map((t) => [t.name, squeezed(t.sql)]).sort());
    });

    it(`${binding}: the booking-hour triggers are exactly the rendered ones`, async () => {
      const { results } = await (env as unknown as Record<string, D1Database>)[binding]
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_booking_hour_%'")
        .all<{ name: string; sql: string }>();
      expect(results.map((t) => [t.name, squeezed(t.sql)]).sort()).toEqual(
        bookingHourTriggers()
          .map((t) => [t.name, squeezed(t.sql)])
          .sort(),
      );
    });
  }
});

describe("which write bumps which version", () => {
  let accountId: number;
  let bookingId: number;
  let resourceId: number;

  beforeAll(async () => {
    const mine = await newAccount();
    accountId = mine.account.id;
    const make = catalogue(mine.api);
    resourceId = (await make.resource({ title: "Room" })).id;
    bookingId = (await make.booking({ resource_id: resourceId, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" })).id;
  });

  const version = async (table: string) =>
    Number((await env.DB.prepare(`SELECT version FROM ${table} WHERE account_id = ?`).bind(accountId).first<{ version: number }>())?.version ?? 0);

  /** Runs `sql` and says which versions moved. */
  async function bumpedBy(sql: string, ...params: unknown[]) {
    const before = await Promise.all(VERSIONED_ANSWERS.map((a) => version(a.versionTable)));
    await env.DB.prepare(sql)
      .bind(...params)
      .run();
    const after = await Promise.all(VERSIONED_ANSWERS.map((a) => version(a.versionTable)));
    return Object.fromEntries(VERSIONED_ANSWERS.map((a, i) => [a.tag, after[i] > before[i]]));
  }

  it("bumps both on a booking's times, and only the listing on its title", async () => {
    expect(AVAILABILITY.rules.find((r) => r.table === "bookings")?.columns).toContain("booked_to");
    expect(await bumpedBy("UPDATE bookings SET booked_to = booked_to + 60000 WHERE id = ?", bookingId)).toEqual({ availability: true, listing: true, calendar: false });
    expect(await bumpedBy("UPDATE bookings SET title = 'Renamed' WHERE id = ?", bookingId)).toEqual({ availability: false, listing: true, calendar: false });
  });

  it("bumps availability on a resource's capacity, and the listing on any change of it", async () => {
    expect(LISTING.rules.find((r) => r.table === "resources")?.columns).toBe("every");
    expect(await bumpedBy("UPDATE resources SET capacity = capacity + 1 WHERE id = ?", resourceId)).toEqual({ availability: true, listing: true, calendar: true });
    expect(await bumpedBy("UPDATE resources SET title = 'Hall' WHERE id = ?", resourceId)).toEqual({ availability: false, listing: true, calendar: false });
  });

  it("bumps availability on the account's zone, and neither version on its name", async () => {
    expect(await bumpedBy("UPDATE accounts SET time_zone = 'America/New_York' WHERE id = ?", accountId)).toEqual({ availability: true, listing: false, calendar: true });
    expect(await bumpedBy("UPDATE accounts SET name = 'Renamed' WHERE id = ?", accountId)).toEqual({ availability: false, listing: false, calendar: false });
  });
});

describe("which hours a resource booking bumps", () => {
  let accountId: number;
  let room: number;
  let hall: number;
  let make: ReturnType<typeof catalogue>;

  beforeAll(async () => {
    const mine = await newAccount({ time_zone: "UTC" });
    accountId = mine.account.id;
    make = catalogue(mine.api);
    room = (await make.resource({ title: "Room" })).id;
    hall = (await make.resource({ title: "Hall" })).id;
  });

  /** The booking-hour rows of the account: `resource/hour -> version`, hours counted from 2030-01-07 00:00 UTC. */
  async function hours() {
    const base = Date.UTC(2030, 0, 7) / HOUR_MS;
    const { results } = await env.DB.prepare("SELECT resource_id, hour, version FROM booking_hour_versions WHERE account_id = ? ORDER BY resource_id, hour")
      .bind(accountId)
      .all<{ resource_id: number; hour: number; version: number }>();
    return Object.fromEntries(results.map((r) => [`${r.resource_id === room ? "room" : "hall"}/${r.hour === EVERY_HOUR ? "every" : r.hour - base}`, r.version]));
  }

  it("bumps each hour a booking covers, the hour it ends in only when it runs into it, and only its resource", async () => {
    await make.booking({ resource_id: room, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" });
    expect(await hours()).toEqual({ "room/10": 1 });
    await make.booking({ resource_id: room, booked_from: "2030-01-07 23:30", booked_to: "2030-01-08 01:15" });
    expect(await hours()).toEqual({ "room/10": 1, "room/23": 1, "room/24": 1, "room/25": 1 });
  });

  it("bumps the hours before and after a move to another resource and day", async () => {
    const booking = await make.booking({ resource_id: room, booked_from: "2030-01-14 10:00", booked_to: "2030-01-14 11:00" });
    await env.DB.prepare("UPDATE bookings SET resource_id = ?, booked_from = booked_from + ?, booked_to = booked_to + ? WHERE id = ?")
      .bind(hall, 24 * HOUR_MS, 24 * HOUR_MS, booking.id)
      .run();
    const after = await hours();
    expect(after["room/178"]).toBe(2);
    expect(after["hall/202"]).toBe(1);
    expect(after["hall/178"]).toBeUndefined();
  });

  it("bumps the every-hour row for a booking longer than two weeks, and no hour's", async () => {
    const before = await hours();
    await make.booking({ resource_id: hall, booked_from: "2030-03-01 00:00", booked_to: "2030-04-01 00:00" });
    const after = await hours();
    expect(after["hall/every"]).toBe(1);
    expect(Object.keys(after).length).toBe(Object.keys(before).length + 1);
  });
});
