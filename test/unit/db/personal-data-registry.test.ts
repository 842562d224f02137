// The registry of personal data covers the schema: every column of every table is either personal
// (with what erasure does to it) or declared as holding none, so a new column cannot go unhandled.
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { PERSONAL_DATA } from "../../../src/db/personal-data";
import * as schema from "../../../src/db/schema";

const tables = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
const columnsOf = (table: SQLiteTable) => Object.values(getTableColumns(table)).map((c) => c.name);
const entryOf = (name: string) => PERSONAL_DATA.find((t) => t.table === name);

describe("the personal data registry", () => {
  it("has one entry per table of the schema, and none for a table that does not exist", () => {
    expect(PERSONAL_DATA.map((t) => t.table).sort()).toEqual(tables.map(getTableName).sort());
  });

  it.each(tables.map((t) => [getTableName(t), t] as const))("declares every column of %s once: personal, the shop's, or holding none", (name, table) => {
    const entry = entryOf(name)!;
    const declared = [...Object.keys(entry.personal), ...Object.keys(entry.shop ?? {}), ...entry.kept];
    expect(declared.sort()).toEqual(columnsOf(table).sort());
    expect(new Set(declared).size).toBe(declared.length);
  });

  it("says for every table with a person's columns which rows are theirs and overwrites or deletes each column", () => {
    for (const entry of PERSONAL_DATA.filter((t) => Object.keys(t.personal).length > 0)) {
      expect(entry.reach, entry.table).toBeDefined();
      if (entry.erasure.kind === "overwrite") expect(Object.keys(entry.erasure.set).sort(), entry.table).toEqual(Object.keys(entry.personal).sort());
      else expect(entry.erasure.kind, entry.table).toBe("delete");
    }
  });

  it("keeps a booking's times, counts, resource, state and money, so capacity, slots and revenue stay right", () => {
    const kept = entryOf("bookings")!.kept;
    for (const column of ["booked_from", "booked_to", "count", "resource_id", "event_id", "service_id", "state", "active", "buffer_before", "buffer_after"]) {
      expect(kept).toContain(column);
    }
  });
});
