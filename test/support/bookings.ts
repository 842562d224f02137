// Factories for booking tests: catalogue rows and events through the API, and small readers
// of raw booking rows.
import { expect } from "vitest";
import { env, type Client } from "./api";

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
    service: async (attributes: Record<string, unknown> = {}) => (await must(api.post("/services", { service: { title: "Haircut", ...attributes } }))).service,
    provider: async (resourceId: number, serviceId: number) =>
      (await must(api.post("/providers", { provider: { resource_id: resourceId, service_id: serviceId } }))).provider,
    person: async (attributes: Record<string, unknown> = {}) => (await must(api.post("/people", { person: { name: "Kari", ...attributes } }))).person,
    booking: async (booking: Record<string, unknown>, extra: Record<string, unknown> = {}) => (await must(api.post("/bookings", { booking, ...extra }))).booking,
    /** An event's id; `starts`/`ends` are wall times in the account zone, the service an attendance one. */
    event: async (e: {
      resourceId: number;
      serviceId: number;
      capacity: number;
      starts: string;
      ends: string;
      title?: string;
      published?: boolean;
      active?: boolean;
    }) => {
      const { event } = await must(
        api.post("/events", {
          event: {
            resource_id: e.resourceId,
            service_id: e.serviceId,
            capacity: e.capacity,
            starts_at: e.starts,
            ends_at: e.ends,
            title: e.title ?? "Yoga class",
            published: e.published ?? true,
          },
        }),
      );
      if (e.active === false) await must(api.delete(`/events/${event.id}`));
      return event.id as number;
    },
  };
}

export const rawBooking = (id: number) => env.DB.prepare("SELECT * FROM bookings WHERE id = ?").bind(id).first<Record<string, any>>();

export const bookingIds = (body: any[]) => body.map((e) => e.booking.id);

export { env };
