// The fleet's accounts: many small shops in several zones, generated from a seeded PRNG so every
// run seeds the same shapes, written as SQL rows (seed-sql.ts) and kept as a model the traffic uses.
import { addDays, startOfDay, todayIn } from "../src/domain/time";
import { accountRows, insert } from "./seed-sql";
import { pick, type Random } from "./zipf";

/** Zones of the shops, with the country whose holidays they would follow. */
const ZONES: [string, string][] = [
  ["Europe/Oslo", "NO"],
  ["America/New_York", "US"],
  ["Europe/London", "GB"],
  ["America/Chicago", "US"],
];
const WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
type Week = Record<(typeof WEEK)[number], string[] | null>;

const weekdays = (hours: string[], sat: string[] | null = null): Week => ({ mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat, sun: null });
/** Opening hours a small shop has: office days, a lunch break, late shops open on Saturday. */
const HOURS: Week[] = [
  weekdays(["09:00", "17:00"]),
  weekdays(["08:00", "12:00", "13:00", "16:00"]),
  weekdays(["10:00", "18:00"], ["10:00", "14:00"]),
  { mon: null, tue: ["11:00", "19:00"], wed: ["11:00", "19:00"], thu: ["11:00", "19:00"], fri: ["11:00", "19:00"], sat: ["09:00", "15:00"], sun: null },
];
const INTERVALS = [30, 45, 60];
/** Bookings lie from tomorrow up to this many days ahead. */
const DAYS_AHEAD = 42;

export interface FleetResource {
  id: number;
  capacity: number;
  hours: Week;
}
interface FleetService {
  id: number;
  interval: number;
  resources: number[];
}
export interface FleetAccount {
  id: number;
  subdomain: string;
  timeZone: string;
  apiKey: string;
  resources: FleetResource[];
  services: FleetService[];
  /** Seeded bookings still active: what the private API's cancels and edits pick from. */
  bookings: number[];
}

/** The weekday of a YYYY-MM-DD date. */
const weekdayOf = (date: string) => WEEK[(new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7];
const hourOf = (hhmm: string) => Number(hhmm.slice(0, 2));

/** Whole hours a resource is open on a date: the starts of hour-long bookings that fit. */
export function openHours(resource: FleetResource, date: string): number[] {
  const hours = resource.hours[weekdayOf(date)] ?? [];
  const out: number[] = [];
  for (let i = 0; i < hours.length; i += 2) for (let h = hourOf(hours[i]); h + 1 <= hourOf(hours[i + 1]); h += 1) out.push(h);
  return out;
}

/** A future date of the booking window, in the account's zone. */
export const futureDate = (random: Random, timeZone: string, now: number) => addDays(todayIn(now, timeZone), 1 + Math.floor(random() * DAYS_AHEAD));

export interface Fleet {
  sql: string;
  accounts: FleetAccount[];
  floorKeys: string[];
}

/**
 * `count` shops (1–3 services, 1–4 resources, 12–40 hour-long bookings over the next six weeks,
 * never over capacity) and `floorAccounts` empty accounts whose keys only the floor route uses,
 * so its per-key limiter budget never competes with a shop's.
 */
export function seedFleet(random: Random, count: number, now: number, floorAccounts = 8): Fleet {
  const rows = {
    accounts: [] as Record<string, string | number | null>[],
    keys: [] as Record<string, string | number | null>[],
    resources: [] as Record<string, string | number | null>[],
    services: [] as Record<string, string | number>[],
    providers: [] as Record<string, number>[],
    bookings: [] as Record<string, string | number | boolean | null>[],
  };
  const accounts: FleetAccount[] = [];
  let resourceId = 0;
  let serviceId = 0;
  let bookingId = 0;
  for (let id = 1; id <= count; id += 1) {
    const [timeZone, country] = ZONES[id % ZONES.length];
    const subdomain = `fleet${id}`;
    const tenant = accountRows(id, subdomain, { time_zone: timeZone, country_code: country, future_bookable_period: "3 months" });
    rows.accounts.push(tenant.account as Record<string, string | number | null>);
    rows.keys.push(tenant.key as Record<string, string | number | null>);
    const resources = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
      id: (resourceId += 1),
      capacity: random() < 0.8 ? 1 : 2,
      hours: pick(random, HOURS),
    }));
    const services = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const providers = resources.filter(() => random() < 0.6);
      return { id: (serviceId += 1), interval: pick(random, INTERVALS), resources: (providers.length ? providers : [pick(random, resources)]).map((r) => r.id) };
    });
    const taken = new Map<string, number>();
    const bookings: number[] = [];
    for (let n = 12 + Math.floor(random() * 29); n > 0; n -= 1) {
      const service = pick(random, services);
      const resourceId = pick(random, service.resources);
      const resource = resources.find((r) => r.id === resourceId)!;
      const date = futureDate(random, timeZone, now);
      const hours = openHours(resource, date);
      if (!hours.length) continue;
      const hour = pick(random, hours);
      const slot = `${resource.id}|${date}|${hour}`;
      if ((taken.get(slot) ?? 0) >= resource.capacity) continue;
      taken.set(slot, (taken.get(slot) ?? 0) + 1);
      const from = startOfDay(date, timeZone) + hour * 3_600_000;
      rows.bookings.push({
        id: (bookingId += 1),
        account_id: id,
        service_id: service.id,
        resource_id: resource.id,
        person_id: null,
        booked_from: from,
        booked_to: from + 3_600_000,
        state: "confirmed",
        active: true,
        count: 1,
        created_at: now,
        updated_at: now,
      });
      bookings.push(bookingId);
    }
    for (const r of resources) {
      rows.resources.push({
        id: r.id,
        account_id: id,
        title: `Chair ${r.id}`,
        capacity: r.capacity,
        created_at: now,
        updated_at: now,
        ...Object.fromEntries(WEEK.map((day) => [`opening_hours_${day}`, r.hours[day] ? JSON.stringify(r.hours[day]) : null])),
      });
    }
    for (const s of services) {
      rows.services.push({ id: s.id, account_id: id, title: `Service ${s.id}`, interval: s.interval, created_at: now, updated_at: now });
      for (const r of s.resources) rows.providers.push({ account_id: id, resource_id: r, service_id: s.id, created_at: now, updated_at: now });
    }
    accounts.push({ id, subdomain, timeZone, apiKey: tenant.apiKey, resources, services, bookings });
  }
  const floorKeys: string[] = [];
  for (let n = 1; n <= floorAccounts; n += 1) {
    // The same columns as the shops: a multi-row INSERT takes its column list from its first row.
    const tenant = accountRows(count + n, `fleetfloor${n}`, { time_zone: "Europe/Oslo", country_code: "NO", future_bookable_period: "3 months" });
    rows.accounts.push(tenant.account as Record<string, string | number | null>);
    rows.keys.push(tenant.key as Record<string, string | number | null>);
    floorKeys.push(tenant.apiKey);
  }
  // Multi-row statements throughout: one statement per account made seeding take a minute.
  const sql = [
    insert("accounts", rows.accounts),
    insert("api_keys", rows.keys),
    insert("resources", rows.resources),
    insert("services", rows.services),
    insert("providers", rows.providers),
    insert("bookings", rows.bookings),
  ];
  return { sql: sql.join("\n"), accounts, floorKeys };
}
