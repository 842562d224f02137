// Factories for booking tests: catalogue rows through the API, events straight into D1 (the
// events feature is not built yet), and small readers of raw booking rows.
import { expect } from "vitest";
import { env, type Client } from "./api";
import { parseDateTimeInput } from "../../src/domain/time";

export async function must(res: Promise<{ status: number; body: any }>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const everyDay = (hours: string[] | null) => Object.fromEntries(WEEK.map((d) => [`opening_hours_${d}`, hours]));

export function catalogue(api: Client) {
  return {
    resource: async (attributes: Record<string, unknown> = {}) =>
      (await must(api.post("/resources", { resource: { title: "Room", ...everyDay(["08:00", "18:00"]), ...attributes } }))).resource,
    service: async (attributes: Record<string, unknown> = {}) =>
      (await must(api.post("/services", { service: { title: "Haircut", ...attributes } }))).service,
    provider: async (resourceId: number, serviceId: number) =>
      (await must(api.post("/providers", { provider: { resource_id: resourceId, service_id: serviceId } }))).provider,
    person: async (attributes: Record<string, unknown> = {}) =>
      (await must(api.post("/people", { person: { name: "Kari", ...attributes } }))).person,
    booking: async (booking: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      (await must(api.post("/bookings", { booking, ...extra }))).booking,
  };
}

/** An event row: `starts`/`ends` are wall times in the account zone. */
export async function insertEvent(
  accountId: number,
  e: { resourceId: number; serviceId: number; capacity: number; starts: string; ends: string; title?: string; published?: boolean; active?: boolean; timeZone?: string },
): Promise<number> {
  const tz = e.timeZone ?? "Europe/Oslo";
  const row = await env.DB.prepare(
    `INSERT INTO events (account_id, resource_id, service_id, published, capacity, starts_at, ends_at, title, active, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0) RETURNING id`,
  ).bind(accountId, e.resourceId, e.serviceId, e.published === false ? 0 : 1, e.capacity,
    parseDateTimeInput(e.starts, tz), parseDateTimeInput(e.ends, tz), e.title ?? "Yoga class", e.active === false ? 0 : 1)
    .first<{ id: number }>();
  return row!.id;
}

export const rawBooking = (id: number) =>
  env.DB.prepare("SELECT * FROM bookings WHERE id = ?").bind(id).first<Record<string, any>>();

export const bookingIds = (body: any[]) => body.map((e) => e.booking.id);

export { env };
