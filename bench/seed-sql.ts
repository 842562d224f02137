// Seed data as SQL for `wrangler d1 execute --file`: rows written exactly as the app writes them
// (flags 0/1, instants in epoch ms, opening hours as JSON text), with ids chosen by the bench.
import { createHash, randomBytes } from "node:crypto";

type Value = string | number | boolean | null;
type Row = Record<string, Value>;

const literal = (v: Value) => (v === null ? "NULL" : typeof v === "boolean" ? (v ? "1" : "0") : typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`);

/** Multi-row INSERTs in chunks: one statement per row would make seeding take minutes. */
export function insert(table: string, rows: Row[], chunk = 400): string {
  const out: string[] = [];
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    const columns = Object.keys(part[0]);
    const values = part.map((row) => `(${columns.map((c) => literal(row[c])).join(", ")})`);
    out.push(`INSERT INTO ${table} (${columns.join(", ")}) VALUES\n${values.join(",\n")};`);
  }
  return out.join("\n");
}

export interface SeededAccount {
  sql: string;
  apiKey: string;
}

/** An account and its API key; the key is kept only as SHA-256, as the operator API keeps it. */
export function account(id: number, subdomain: string, settings: Row = {}): SeededAccount {
  const rows = accountRows(id, subdomain, settings);
  return { sql: [insert("accounts", [rows.account]), insert("api_keys", [rows.key])].join("\n"), apiKey: rows.apiKey };
}

/** The rows of `account`, for callers that insert many accounts in a few multi-row statements. */
export function accountRows(id: number, subdomain: string, settings: Row = {}): { account: Row; key: Row; apiKey: string } {
  const apiKey = `bk_bench_${randomBytes(18).toString("base64url")}`;
  const now = Date.now();
  return {
    account: {
      id,
      subdomain,
      name: `Bench ${subdomain}`,
      email: `${subdomain}@example.com`,
      time_zone: "Europe/Oslo",
      country_code: "NO",
      locale: "en",
      webhook_secret: `whsec_bench_${id}`,
      created_at: now,
      updated_at: now,
      ...settings,
    },
    key: { account_id: id, key_hash: createHash("sha256").update(apiKey).digest("hex"), created_at: now },
    apiKey,
  };
}

const hoursJson = (hours: string[] | null) => (hours ? JSON.stringify(hours) : null);

export function resources(accountId: number, list: { id: number; capacity: number; hours: string[] | null }[]): string {
  const now = Date.now();
  return insert(
    "resources",
    list.map((r) => ({
      id: r.id,
      account_id: accountId,
      title: `Resource ${r.id}`,
      capacity: r.capacity,
      opening_hours_mon: hoursJson(r.hours),
      opening_hours_tue: hoursJson(r.hours),
      opening_hours_wed: hoursJson(r.hours),
      opening_hours_thu: hoursJson(r.hours),
      opening_hours_fri: hoursJson(r.hours),
      opening_hours_sat: hoursJson(r.hours),
      opening_hours_sun: hoursJson(r.hours),
      created_at: now,
      updated_at: now,
    })),
  );
}

/** A service provided by every listed resource. */
export function serviceWithProviders(accountId: number, serviceId: number, interval: number, resourceIds: number[], settings: Row = {}): string {
  const now = Date.now();
  return [
    insert("services", [{ id: serviceId, account_id: accountId, title: `Service ${serviceId}`, interval, created_at: now, updated_at: now, ...settings }]),
    insert(
      "providers",
      resourceIds.map((resourceId) => ({
        account_id: accountId,
        resource_id: resourceId,
        service_id: serviceId,
        created_at: now,
        updated_at: now,
      })),
    ),
  ].join("\n");
}

export interface SeedBooking {
  resource_id: number;
  service_id: number | null;
  person_id: number | null;
  from: number;
  to: number;
  updated_at?: number;
}

/** Confirmed, active bookings of count 1, as a private API create with the default confirm=true. */
export function bookings(accountId: number, list: SeedBooking[]): string {
  const now = Date.now();
  return insert(
    "bookings",
    list.map((b) => ({
      account_id: accountId,
      service_id: b.service_id,
      resource_id: b.resource_id,
      person_id: b.person_id,
      booked_from: b.from,
      booked_to: b.to,
      state: "confirmed",
      active: true,
      count: 1,
      created_at: b.updated_at ?? now,
      updated_at: b.updated_at ?? now,
    })),
  );
}

export function people(accountId: number, ids: number[]): string {
  const now = Date.now();
  return insert(
    "people",
    ids.map((id) => ({
      id,
      account_id: accountId,
      name: `Person ${id}`,
      email: `person${id}@example.com`,
      created_at: now,
      updated_at: now,
    })),
  );
}
