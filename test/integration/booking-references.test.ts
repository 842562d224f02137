// A create's references batch runs fixed raw statements (db/fixed-statement.ts) instead of Drizzle
// queries: its rows must be exactly what Drizzle's selects give (keys and their order, booleans,
// JSON columns, nulls), and it must stay scoped to the caller's account.
import { describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { openDb } from "../../src/db/client";
import { accounts, availabilityVersions, events, providers, resources, services } from "../../src/db/schema";
import type { Deps } from "../../src/env";
import { bookingReferences, eventWithReferences } from "../../src/features/bookings/references";
import { durableCapacityGuard } from "../../src/durable-objects/guard-client";
import { env, newAccount } from "../support/api";
import { catalogue } from "../support/bookings";

const db = openDb(env.DB);

async function accountWithCatalogue() {
  const { api, account } = await newAccount();
  const cat = catalogue(api);
  const resource = await cat.resource({ capacity: 3, custom_data: { floor: "2", wheelchair: true }, opening_hours_sun: null, description: "By the window" });
  const second = await cat.resource({ title: "Annex", opening_hours_mon: ["08:00", "12:00", "13:00", "17:00"] });
  const inactive = await cat.resource({ title: "Closed room" });
  await api.delete(`/resources/${inactive.id}`);
  const service = await cat.service({ booking_capacity: 4, has_day_booking: true, price: "450.0", custom_data: { colour: "red" }, interval: 30 });
  await cat.provider(second.id, service.id);
  await cat.provider(resource.id, service.id);
  await cat.provider(inactive.id, service.id);
  const attendance = await cat.service({ title: "Yoga", booking_type: "attendance" });
  const eventId = await cat.event({ resourceId: resource.id, serviceId: attendance.id, capacity: 12, starts: "2030-01-07 10:00", ends: "2030-01-07 11:00" });
  const row = (await db.query.accounts.findFirst({ where: eq(accounts.id, account.id) }))!;
  const deps: Deps = { db, env, account: row, now: Date.now(), surface: "private_api", capacityGuard: durableCapacityGuard(env, "DB") };
  return { deps, resource, second, inactive, service, attendance, eventId };
}

/** As Drizzle reads them, and as JSON (which keeps key order: answers and cache keys depend on it). */
const same = (actual: unknown, expected: unknown) => {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
};

const version = async (accountId: number) =>
  Number((await db.select().from(availabilityVersions).where(eq(availabilityVersions.account_id, accountId)))[0]?.version ?? 0);

describe("bookingReferences", () => {
  it("reads the service, the resource, the active providers in order and the version as Drizzle's selects do", async () => {
    const { deps, resource, second, service } = await accountWithCatalogue();
    const refs = await bookingReferences(deps, { serviceId: service.id, resourceId: resource.id, withProviders: true });

    same(refs.service, (await db.select().from(services).where(eq(services.id, service.id)))[0]);
    same(refs.resource, (await db.select().from(resources).where(eq(resources.id, resource.id)))[0]);
    const providerRows = await db
      .select({ resource: resources })
      .from(providers)
      .innerJoin(resources, eq(resources.id, providers.resource_id))
      .where(and(eq(providers.service_id, service.id), eq(providers.active, true), eq(resources.active, true)))
      .orderBy(asc(providers.id));
    same(
      refs.providers,
      providerRows.map((r) => r.resource),
    );
    expect(refs.providers.map((r) => r.id)).toEqual([second.id, resource.id]);
    expect(refs.resource).toMatchObject({
      active: true,
      custom_data: { floor: "2", wheelchair: "true" },
      opening_hours_sun: null,
      opening_hours_mon: ["08:00", "18:00"],
    });
    expect(refs.service).toMatchObject({ has_day_booking: true, same_day: false, price: "450.0", custom_data: { colour: "red" } });
    expect(refs.version).toBe(await version(deps.account.id));
  });

  it("reads only what it is asked for: no providers without withProviders, nothing for absent ids", async () => {
    const { deps, resource, service } = await accountWithCatalogue();
    const noProviders = await bookingReferences(deps, { serviceId: service.id, resourceId: resource.id, withProviders: false });
    expect(noProviders.providers).toEqual([]);
    expect(noProviders.service?.id).toBe(service.id);
    const resourceOnly = await bookingReferences(deps, { resourceId: resource.id, withProviders: true });
    expect(resourceOnly).toMatchObject({ service: undefined, providers: [] });
    expect(resourceOnly.resource?.id).toBe(resource.id);
    expect(resourceOnly.version).toBe(await version(deps.account.id));
  });

  it("finds nothing of another account's, by id", async () => {
    const mine = await accountWithCatalogue();
    const theirs = await accountWithCatalogue();
    const refs = await bookingReferences(mine.deps, { serviceId: theirs.service.id, resourceId: theirs.resource.id, withProviders: true });
    expect(refs).toMatchObject({ service: undefined, resource: undefined, providers: [] });
  });
});

describe("eventWithReferences", () => {
  it("reads the event with its resource and service and the version as Drizzle's selects do", async () => {
    const { deps, resource, attendance, eventId } = await accountWithCatalogue();
    const refs = await eventWithReferences(deps, eventId);
    same(refs.event, (await db.select().from(events).where(eq(events.id, eventId)))[0]);
    same(refs.resource, (await db.select().from(resources).where(eq(resources.id, resource.id)))[0]);
    same(refs.service, (await db.select().from(services).where(eq(services.id, attendance.id)))[0]);
    expect(refs.event).toMatchObject({ published: true, active: true, capacity: 12, custom_data: null });
    expect(refs.version).toBe(await version(deps.account.id));
  });

  it("finds no event of another account's, nor its resource or service", async () => {
    const mine = await accountWithCatalogue();
    const theirs = await accountWithCatalogue();
    const refs = await eventWithReferences(mine.deps, theirs.eventId);
    expect(refs).toMatchObject({ event: undefined, resource: undefined, service: undefined });
  });
});
