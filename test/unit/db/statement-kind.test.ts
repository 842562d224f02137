import { describe, expect, it } from "vitest";
import { onlyReads } from "../../../src/db/statement-kind";

describe("onlyReads", () => {
  it.each([
    `select "id", "title" from "bookings" where "account_id" = ?`,
    "SELECT 1",
    "  -- the version\n  SELECT version FROM availability_versions WHERE account_id = ?;",
    "/* page */ select q.* from (select 1 where version != ?) cross join (select * from bookings) as q",
    "VALUES (1), (2)",
    `WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM people WHERE id = ?
      UNION ALL SELECT p.id, p.parent_id, up.depth + 1 FROM people p JOIN up ON p.id = up.parent_id
    ) SELECT id FROM up`,
    "with a as (select 1), b as (select 2) select * from a, b",
    `select 'insert; update' as "delete", [replace] from t`,
  ])("reads: %s", (sql) => expect(onlyReads(sql)).toBe(true));

  it.each([
    `insert into "bookings" ("title") values (?) returning "id"`,
    `update "bookings" set "state" = ? where "id" = ? returning *`,
    "DELETE FROM idempotency_keys WHERE created_at < ?",
    "REPLACE INTO t VALUES (1)",
    "INSERT INTO bookings (id) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM bookings)",
    "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x",
    "with x as (select 1) update t set a = 1",
    "CREATE TABLE t AS SELECT 1",
    "PRAGMA table_info(bookings)",
    "EXPLAIN QUERY PLAN SELECT 1",
    "SELECT 1; DELETE FROM bookings",
    "SELECT 1; -- fine\nUPDATE t SET a = 1",
    "select 'unterminated",
    "/* unterminated select 1",
    "",
  ])("may write: %s", (sql) => expect(onlyReads(sql)).toBe(false));
});
