// A booking write answers { row, changed }, and only a change is announced: a repeated action
// writes nothing and emits nothing, while a write whose stored updated_at a trigger moved past
// the request's clock (docs/decisions/sync.md) is still announced.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDb } from "../../src/db/client";
import { accounts } from "../../src/db/schema";
import type { Deps } from "../../src/env";
import { createBooking, transition } from "../../src/features/bookings/service";
import type { CapacityGuard, GuardScope } from "../../src/durable-objects/guard-client";
import { env, newAccount } from "../support/api";
import { catalogue, rawBooking } from "../support/bookings";
import { recordingQueue } from "../support/queues";
import { durableCapacityGuard } from "../../src/durable-objects/guard-client";

async function bookingWithDeps() {
  const { api, account } = await newAccount();
  const cat = catalogue(api);
  const resource = await cat.resource({ capacity: 10 });
  const booking = await cat.booking({ resource_id: resource.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" });
  const db = openDb(env.DB);
  const row = (await db.query.accounts.findFirst({ where: eq(accounts.id, account.id) }))!;
  const webhooks = recordingQueue(env.WEBHOOK_QUEUE);
  const deps = (now: number): Deps => ({
    db,
    env: { ...env, WEBHOOK_QUEUE: webhooks.recorder },
    account: row,
    now,
    surface: "private_api",
    capacityGuard: durableCapacityGuard(env, "DB"),
  });
  const events = () => webhooks.sent.filter((m) => m.body.data.id === booking.id).map((m) => m.body.event);
  return { cat, resource, booking, deps, events };
}

describe("booking writes and their announcements", () => {
  it("announces a delete once: deleting the deleted booking again answers it and emits nothing", async () => {
    const { booking, deps, events } = await bookingWithDeps();
    const first = await transition(deps(Date.now()), booking.id, "delete", {});
    expect(first).toMatchObject({ id: booking.id, state: "deleted", active: false });
    const again = await transition(deps(Date.now() + 1000), booking.id, "delete", {});
    expect(again).toMatchObject({ id: booking.id, state: "deleted", updated_at: first.updated_at });
    expect(events()).toEqual(["booking.deleted"]);
  });

  it("announces a change whose stored updated_at a trigger moved past the request's clock", async () => {
    const { cat, resource, booking, deps, events } = await bookingWithDeps();
    // Another change of the account committed with a later clock reading than this request's.
    const later = await cat.booking({ resource_id: resource.id, booked_from: "2030-01-08 10:00", booked_to: "2030-01-08 11:00" });
    const ahead = Date.now() + 60_000;
    await env.DB.prepare("UPDATE bookings SET updated_at = ? WHERE id = ?").bind(ahead, later.id).run();
    const cancelled = await transition(deps(Date.now()), booking.id, "cancel", {});
    expect(cancelled.state).toBe("cancelled");
    expect((await rawBooking(booking.id))!.updated_at).toBe(ahead);
    expect(events()).toEqual(["booking.cancelled"]);
  });
});

describe("writes that take capacity go through deps.capacityGuard", () => {
  it("hands the guarded insert to the injected guard with its resource scope, and a refusal books nothing", async () => {
    const { resource, deps } = await bookingWithDeps();
    const real = durableCapacityGuard(env, "DB");
    const seen: GuardScope[] = [];
    const passing: CapacityGuard = {
      apply: (scope, batch) => {
        seen.push(scope);
        return real.apply(scope, batch);
      },
    };
    const booking = { booking: { resource_id: resource.id, booked_from: "2030-01-09 10:00", booked_to: "2030-01-09 11:00" } };
    const made = await createBooking({ ...deps(Date.now()), capacityGuard: passing }, booking as any);
    expect(seen).toEqual([expect.objectContaining({ kind: "resource", id: resource.id })]);
    expect((await rawBooking(made.id))!.resource_id).toBe(resource.id);

    const refusing: CapacityGuard = { apply: async () => ({ applied: false, rows: [[]], bookmark: null, shard: "DB" }) };
    const other = { booking: { resource_id: resource.id, booked_from: "2030-01-10 10:00", booked_to: "2030-01-10 11:00" } };
    await expect(createBooking({ ...deps(Date.now()), capacityGuard: refusing }, other as any)).rejects.toMatchObject({ status: 400 });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ? AND booked_from = ?")
      .bind(resource.id, Date.parse("2030-01-10T09:00:00Z"))
      .first<{ n: number }>();
    expect(count!.n).toBe(0);
  });
});
