// Reading everything the registry reaches of a person (or of one booking, for its visitor) in one
// batch: one page of each table's rows, oldest first, as plain JSON (docs/decisions/personal-data.md).
import { sql, type SQL } from "drizzle-orm";
import { PERSON_TABLES, type PersonKeys, type RegistryTable } from "../../db/personal-data";
import { formatInstant } from "../../domain/time";
import { rawBatch } from "../../db/raw-batch";
import type { Db } from "../../env";

/** Rows of each table per page: a person with more bookings or messages pages with `page`. */
const EXPORT_PAGE_ROWS = 500;

/** What a section shows less than the registry's internal columns: copies of data shown elsewhere. */
const OMITTED: Record<string, string[]> = {
  webhook_deliveries: ["payload"],
  idempotency_keys: ["response_body"],
};

const JSON_COLUMNS = new Set(["custom_data", "payment", "person_attributes", "template", "occurrences", "skipped"]);
const INSTANT = /(_at|^booked_from|^booked_to|^expires_at)$/;
const BOOLEAN_COLUMNS = new Set(["active", "paid"]);

/** Where a section's rows come from: the person's reach, or one booking's. */
export type Scope = { kind: "person"; keys: PersonKeys } | { kind: "booking"; accountId: number; bookingId: number };

/** What a visitor's booking token reaches: that booking and what was made for it, never its person's row or other bookings. */
const BOOKING_REACH: Record<string, (id: number) => SQL> = {
  bookings: (id) => sql`id = ${id}`,
  messages: (id) => sql`booking_id = ${id}`,
  waitlist_entries: (id) => sql`booking_id = ${id}`,
  slot_holds: (id) => sql`booking_id = ${id}`,
  payment_facts: (id) => sql`booking_id = ${id}`,
  payment_events: (id) => sql`booking_id = ${id}`,
  webhook_deliveries: (id) =>
    sql`(CASE WHEN json_valid(payload) THEN json_extract(payload, '$.data.object') = 'booking' AND json_extract(payload, '$.data.id') = ${id} END)`,
};

function reachOf(t: RegistryTable, scope: Scope): SQL | null {
  if (scope.kind === "person") return t.reach ? t.reach(scope.keys) : null;
  const reach = BOOKING_REACH[t.table];
  return reach ? reach(scope.bookingId) : null;
}

const accountOf = (scope: Scope) => (scope.kind === "person" ? scope.keys.account_id : scope.accountId);

function shown(t: RegistryTable, row: Record<string, unknown>, timeZone: string): Record<string, unknown> {
  const hidden = new Set([...(t.internal ?? []), ...(OMITTED[t.table] ?? [])]);
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (hidden.has(column)) continue;
    if (JSON_COLUMNS.has(column) && typeof value === "string") out[column] = JSON.parse(value);
    else if (BOOLEAN_COLUMNS.has(column) && typeof value === "number") out[column] = value === 1;
    else if (INSTANT.test(column) && typeof value === "number") out[column] = formatInstant(value, timeZone);
    else out[column] = value;
  }
  if (t.table === "bookings" && out.payment && typeof out.payment === "object") delete (out.payment as Record<string, unknown>).client_hash;
  return out;
}

/**
 * A code the visitor was sent proves they hold the address it went to: a token must not read it
 * back, or it would verify a booking made with someone else's address. The shop's export shows it.
 */
const CODE_KINDS = new Set(["verification", "token"]);
const withoutCodes = (row: Record<string, unknown>) => (CODE_KINDS.has(String(row.kind)) ? { ...row, subject: null, body: null } : row);

export interface ExportPage {
  /** Rows by table name, this page's. */
  sections: Record<string, Record<string, unknown>[]>;
  /** True when some table has rows after this page. */
  more: boolean;
  /** The scope's own row as stored (the person, or the booking), read in the same batch: absent when there is none. */
  anchor?: Record<string, unknown>;
}

/**
 * One page of every section of the scope, in one batch. Rows are read before the caller has seen
 * the anchor (a person of this account, a booking its token opens); it answers 404 and shows none
 * of them when the anchor is not there or not theirs.
 */
export async function exportPage(db: Db, scope: Scope, page: number, timeZone: string): Promise<ExportPage> {
  const parts = PERSON_TABLES.map((t) => ({ t, reach: reachOf(t, scope) })).filter((p): p is { t: RegistryTable; reach: SQL } => p.reach !== null);
  const anchorTable = scope.kind === "person" ? "people" : "bookings";
  // The anchor is one row, read on every page (its section shows on the first).
  const offsetOf = (t: RegistryTable) => (t.table === anchorTable ? 0 : (page - 1) * EXPORT_PAGE_ROWS);
  const results = await rawBatch(
    db,
    parts.map(
      ({ t, reach }) =>
        sql`SELECT * FROM ${sql.raw(t.table)} WHERE account_id = ${accountOf(scope)} AND (${reach}) ORDER BY rowid LIMIT ${EXPORT_PAGE_ROWS + 1} OFFSET ${offsetOf(t)}`,
    ),
  );
  const sections: ExportPage["sections"] = {};
  let more = false;
  let anchor: Record<string, unknown> | undefined;
  parts.forEach(({ t }, i) => {
    let rows = results[i];
    if (t.table === anchorTable) {
      anchor = rows[0];
      if (page > 1) rows = [];
    }
    if (rows.length > EXPORT_PAGE_ROWS) more = true;
    const out = rows.slice(0, EXPORT_PAGE_ROWS).map((row) => shown(t, row, timeZone));
    sections[t.table] = scope.kind === "booking" && t.table === "messages" ? out.map(withoutCodes) : out;
  });
  return { sections, more, anchor };
}
