// Busy times of a resource (issue 32, docs/decisions/calendar-subscriptions.md): a busy interval
// read from a calendar subscription takes all of its resource, and every capacity reader agrees,
// since they all read occupancy/occupants-sql.ts: the guarded create, holds, slots (cached answers
// included), the refusal memo. The rows are written here as a fetch writes them.
import { describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";

const DAY = "2030-01-07"; // a Monday, Europe/Oslo (+01:00)
const at = (hhmm: string) => Date.parse(`${DAY}T${hhmm}:00+01:00`);

async function shop(capacity = 1) {
  const { api, account } = await newAccount();
  const make = catalogue(api);
  const room = await make.resource({ capacity });
  const cut = await make.service({ title: "Cut", interval: 60 });
  await make.provider(room.id, cut.id);
  return { api, account, room, cut };
}

/** A busy interval on the resource, as a subscription's fetch writes it. */
async function busy(accountId: number, resourceId: number, from: string, to: string, subscriptionId = 1) {
  await env.DB.prepare("INSERT INTO busy_times (account_id, resource_id, subscription_id, occupied_from, occupied_to) VALUES (?, ?, ?, ?, ?)")
    .bind(accountId, resourceId, subscriptionId, at(from), at(to))
    .run();
}

const freeStarts = async (api: Client, serviceId: number) =>
  (await must(api.get(`/services/${serviceId}/slots?from=${DAY}&to=${DAY}`))).filter((e: any) => e.slot.free > 0).map((e: any) => e.slot.timestamp.slice(11, 16));

const book = (api: Client, roomId: number, cutId: number, from: string, to: string, extra: Record<string, unknown> = {}) =>
  api.post("/bookings", { booking: { resource_id: roomId, service_id: cutId, booked_from: `${DAY} ${from}`, booked_to: `${DAY} ${to}`, ...extra } });

describe("a busy time takes its resource", () => {
  it("slots around it stay, the slots it overlaps go, and an answer cached before it is trusted no longer than any write from a queue", async () => {
    const { api, account, room, cut } = await shop();
    const before = await freeStarts(api, cut.id);
    expect(before).toContain("10:00");
    expect(before).toContain("11:00");
    await busy(account.id, room.id, "10:30", "11:15");
    // A fetch writes from the queue, not through this isolate's requests: a cached answer's versions
    // are trusted for 2 s (slots/answer-cache.ts), then read again and found moved.
    await new Promise((r) => setTimeout(r, 2_100));
    const after = await freeStarts(api, cut.id);
    // No free hour overlaps 10:30–11:15; the hour before it and the first after it are offered.
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    expect(after.filter((t: string) => minutes(t) < minutes("11:15") && minutes(t) + 60 > minutes("10:30"))).toEqual([]);
    expect(after).toContain("09:00");
    expect(after).toContain("11:15");
  });

  it("all of a resource's capacity, not one seat", async () => {
    const { api, account, room, cut } = await shop(3);
    await busy(account.id, room.id, "10:00", "11:00");
    const slots = (await must(api.get(`/services/${cut.id}/slots?from=${DAY}&to=${DAY}`))).map((e: any) => e.slot);
    expect(slots.find((s: any) => s.timestamp.slice(11, 16) === "10:00")?.free ?? 0).toBe(0);
    expect(slots.find((s: any) => s.timestamp.slice(11, 16) === "09:00")?.free).toBe(3);
    const refused = await book(api, room.id, cut.id, "10:00", "11:00");
    expect(refused.status).toBe(400);
    expect(refused.body.booked_from).toEqual(["is not available: the resource is fully booked at this time"]);
  });

  it("refuses a create and a hold that overlap it, even by a minute, and a refusal remembered before it does not outlive a change", async () => {
    const { api, account, room, cut } = await shop();
    await busy(account.id, room.id, "10:59", "11:30");
    expect((await book(api, room.id, cut.id, "10:00", "11:00")).status).toBe(400);
    const hold = await api.post("/slots/holds", { slot_hold: { service_id: cut.id, resource_id: room.id, booked_from: `${DAY} 11:00`, booked_to: `${DAY} 12:00` } });
    expect(hold.status).toBe(400);
    // Touching is not overlapping: half-open intervals.
    await must(book(api, room.id, cut.id, "11:30", "12:30"));
    // The refusal of 10:00 was remembered; the busy time's removal bumps the version, so it is not trusted again.
    await env.DB.prepare("DELETE FROM busy_times WHERE account_id = ?").bind(account.id).run();
    await must(book(api, room.id, cut.id, "10:00", "11:00"));
  });

  it("another resource's busy time and another account's change nothing here", async () => {
    const { api, account, room, cut } = await shop();
    const other = await shop();
    await busy(other.account.id, other.room.id, "10:00", "11:00");
    const elsewhere = await catalogue(api).resource();
    await busy(account.id, elsewhere.id, "10:00", "11:00");
    expect(await freeStarts(api, cut.id)).toContain("10:00");
    await must(book(api, room.id, cut.id, "10:00", "11:00"));
  });

  it("a write of a busy time bumps only the hours it covers", async () => {
    const { account, room } = await shop();
    const versions = async () =>
      (await env.DB.prepare("SELECT hour, version FROM booking_hour_versions WHERE resource_id = ? ORDER BY hour").bind(room.id).all<{ hour: number; version: number }>())
        .results;
    await busy(account.id, room.id, "10:30", "11:15");
    const hours = (await versions()).map((r) => r.hour);
    expect(hours).toEqual([Math.floor(at("10:30") / 3_600_000), Math.floor(at("11:00") / 3_600_000)]);
  });
});
