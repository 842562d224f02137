// An account that leaves (docs/decisions/personal-data.md) and its recovery (docs/decisions/recovery.md):
// the operator closes it, it answers as no account, it can be restored within its grace period,
// the cron deletes every row of it afterwards, and its export restores it row for row.
import { createScheduledController } from "cloudflare:test";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { dataTables, directoryTables } from "../../src/db/data-tables";
import * as schema from "../../src/db/schema";
import { ADMIN_TOKEN, env, newAccount, operator, publicSite, send } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { eventually, runQueue } from "../support/queues";

type Row = Record<string, unknown>;
type Shard = "DB" | "DB_SHARD_1";
const DAY = 86_400_000;
const shardDb = (shard: Shard) => (env as unknown as Record<Shard, D1Database>)[shard];

const runCron = (at: number) => worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: "* * * * *" }), env);

const exportOf = (id: number) => send("GET", `/admin/v1/accounts/${id}/export`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
const importOf = (text: string, query = "") =>
  send("POST", `/admin/v1/accounts/import${query}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/x-ndjson" }, body: text });
const linesOf = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

/** Every row of the account, by table: the directory's and its shard's, sorted so row order does not count. */
async function snapshot(id: number, shard: Shard): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  const read = async (d1: D1Database, table: string, where: string) => {
    const { results } = await d1.prepare(`SELECT * FROM ${table} WHERE ${where} = ?`).bind(id).all<Row>();
    out[table] = results.map((r) => JSON.stringify(r)).sort() as unknown as Row[];
  };
  await read(env.DB, "accounts", "id");
  await read(env.DB, "api_keys", "account_id");
  for (const t of dataTables) await read(shardDb(shard), t.name, "account_id");
  return out;
}

const tables = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));

/**
 * A row for a table the API seeding left empty, made from the schema: every column gets a value
 * of its type (ids of other rows included, so triggers that key versions by them find one). So the round trip covers every table, also one
 * added later, without a list to keep up to date here.
 */
async function fillEmptyTables(id: number, shard: Shard): Promise<string[]> {
  const filled: string[] = [];
  for (const t of dataTables) {
    const found = await shardDb(shard).prepare(`SELECT 1 FROM ${t.name} WHERE account_id = ? LIMIT 1`).bind(id).first();
    if (found) continue;
    const table = tables.find((x) => getTableName(x) === t.name)!;
    const values: Row = {};
    // Numbers unique to the account, so keys made of them never meet another account's filled row.
    let n = id * 100;
    for (const column of Object.values(getTableColumns(table))) {
      n += 1;
      if (column.name === "account_id") values.account_id = id;
      else if (column.generated || (column as { autoIncrement?: boolean }).autoIncrement) continue;
      else if (column.dataType === "boolean") values[column.name] = 1;
      else if (column.dataType === "number") values[column.name] = n;
      else if (column.dataType === "json") values[column.name] = "{}";
      else values[column.name] = `${t.name}-${column.name}-${n}`;
    }
    const columns = Object.keys(values);
    await shardDb(shard)
      .prepare(`INSERT INTO ${t.name} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
      .bind(...columns.map((c) => values[c]))
      .run();
    filled.push(t.name);
  }
  return filled;
}

/** A shop with its catalogue, a person, bookings, an event, a web hook, a feed and an idempotent request, through the API. */
async function shopWithData() {
  const tenant = await newAccount({ email_notification: true });
  const { api, account } = tenant;
  const make = catalogue(api);
  const resource = await make.resource({ capacity: 2 });
  const service = await make.service({ title: "Cut", interval: 60 });
  await make.provider(resource.id, service.id);
  await must(api.post("/categories", { category: { title: "Hair", service_ids: [service.id] } }));
  await must(api.put(`/resources/${resource.id}/exception_dates/2031-01-02`, { resource_exception_date: { opening_hours: null } }));
  const person = await make.person({ name: "Ola Nordmann", email: "ola@example.com", national_id_no: "01017012345" });
  await must(
    api.post(
      "/bookings",
      { booking: { resource_id: resource.id, service_id: service.id, person_id: person.id, booked_from: "2031-01-06 10:00", booked_to: "2031-01-06 11:00" } },
      { "idempotency-key": `lifecycle-${account.id}` },
    ),
  );
  await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 5, starts: "2031-02-03 18:00", ends: "2031-02-03 19:00" });
  await must(api.post("/web_hooks", { web_hook: { target_url: "https://hooks.example.com/x", event: "*", active: false } }));
  await must(api.post("/calendar_feeds", {}));
  // The booking's notification is sent by the queue in the background: the rows compared must not change under the test.
  await eventually(
    () => env.DB.prepare("SELECT count(*) AS n FROM messages WHERE account_id = ? AND status IN ('queued', 'sending')").bind(account.id).first<{ n: number }>(),
    (r) => r?.n === 0,
  );
  return { ...tenant, resource, service, person };
}

/** Runs the cron past the grace period until the account is gone: accounts closed by earlier tests are due first (two per run and shard). */
async function untilDeleted(id: number): Promise<void> {
  const present = () => env.DB.prepare("SELECT id FROM accounts WHERE id = ?").bind(id).first();
  for (let run = 0; run < 20 && (await present()); run++) await runCron(Date.now() + 31 * DAY);
  expect(await present()).toBeNull();
}

async function closeAndDelete(id: number): Promise<void> {
  await must(operator.delete(`/accounts/${id}`));
  await untilDeleted(id);
}

describe("DELETE /admin/v1/accounts/{id}", () => {
  it("closes the account: its key answers as an unknown key, its booking site as no site, and the operator sees when it goes", async () => {
    const { api, account } = await newAccount();
    const closed = await must(operator.delete(`/accounts/${account.id}`));
    expect(closed.account.closed_at).toEqual(expect.any(String));
    expect(Date.parse(closed.account.delete_at) - Date.parse(closed.account.closed_at)).toBe(30 * DAY);
    const res = await api.get("/client");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "The API key is not valid." });
    expect((await publicSite(account.subdomain).get("/services")).status).toBe(404);
  });

  it("changes nothing when the account is closed already, its deletion date included", async () => {
    const { account } = await newAccount();
    const first = await must(operator.delete(`/accounts/${account.id}`));
    const again = await must(operator.delete(`/accounts/${account.id}`));
    expect(again.account.delete_at).toBe(first.account.delete_at);
  });

  it("answers 404 for an account that does not exist and for an id that is not a number", async () => {
    expect((await operator.delete("/accounts/987654321")).status).toBe(404);
    expect((await operator.delete("/accounts/abc")).status).toBe(404);
  });
});

describe("POST /admin/v1/accounts/{id}/restore", () => {
  it("opens a closed account again within its grace period, with its data", async () => {
    const { api, account, resource } = await shopWithData();
    await must(operator.delete(`/accounts/${account.id}`));
    const restored = await must(operator.post(`/accounts/${account.id}/restore`));
    expect(restored.account).toMatchObject({ closed_at: null, delete_at: null });
    expect((await must(api.get(`/resources/${resource.id}`))).resource.id).toBe(resource.id);
    expect((await publicSite(account.subdomain).get("/services")).status).toBe(200);
  });

  it("answers 409 once the deletion date has passed, and leaves the account closed", async () => {
    const { api, account } = await newAccount();
    await must(operator.delete(`/accounts/${account.id}`));
    await env.DB.prepare("UPDATE accounts SET delete_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, account.id)
      .run();
    const res = await operator.post(`/accounts/${account.id}/restore`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.stringContaining("export") });
    expect((await api.get("/client")).status).toBe(401);
  });

  it("answers an open account as it is", async () => {
    const { account } = await newAccount();
    expect((await must(operator.post(`/accounts/${account.id}/restore`))).account.closed_at).toBeNull();
  });
});

describe("the deletion pass (cron)", () => {
  it("leaves a closed account alone before its date, then deletes every row of it on its shard and in the directory", async () => {
    const { account } = await shopWithData();
    await fillEmptyTables(account.id, "DB");
    await must(operator.delete(`/accounts/${account.id}`));
    await runCron(Date.now() + 29 * DAY);
    expect(await env.DB.prepare("SELECT id FROM accounts WHERE id = ?").bind(account.id).first()).not.toBeNull();
    await untilDeleted(account.id);
    const left = await snapshot(account.id, "DB");
    expect(Object.entries(left).filter(([, rows]) => rows.length)).toEqual([]);
  });

  it("deletes a large account in bounded slices, one more each run, and the directory row only at the end", async () => {
    const { account } = await newAccount();
    // 2,500 people: more than one run's slice (4 rounds of 500 per table).
    await env.DB.prepare(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) INSERT INTO people (account_id, name, created_at, updated_at) SELECT ?, 'P' || i, 0, 0 FROM n",
    )
      .bind(account.id)
      .run();
    await must(operator.delete(`/accounts/${account.id}`));
    const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM people WHERE account_id = ?").bind(account.id).first<{ n: number }>())!.n;
    // Accounts closed by earlier tests are due first (two per run and shard): run until this one's turn.
    for (let run = 0; run < 10 && (await count()) === 2500; run++) await runCron(Date.now() + 31 * DAY);
    expect(await count()).toBe(500);
    expect(await env.DB.prepare("SELECT id FROM accounts WHERE id = ?").bind(account.id).first()).not.toBeNull();
    await runCron(Date.now() + 31 * DAY);
    expect(await count()).toBe(0);
    expect(await env.DB.prepare("SELECT id FROM accounts WHERE id = ?").bind(account.id).first()).toBeNull();
  });
});

describe("queued work of a closed account", () => {
  it("is acknowledged and dropped before its consumer runs; an open account's is handled as before", async () => {
    const open = await newAccount();
    const closed = await newAccount();
    await must(operator.delete(`/accounts/${closed.account.id}`));
    // A chunk whose collection is missing is a fault the consumer retries: only an open account's gets that far.
    const result = await runQueue(
      "booking-recurrence",
      [
        { collection_id: "missing", account_id: closed.account.id, shard: "DB", from: 0 },
        { collection_id: "missing", account_id: open.account.id, shard: "DB", from: 0 },
      ],
      {},
      1,
      ["closed", "open"],
    );
    expect(result.explicitAcks).toEqual(["closed"]);
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["open"]);
  });
});

describe("GET /admin/v1/accounts/{id}/export", () => {
  it("answers JSON lines: a header, every row of the account and of no other, and a trailer with the counts", async () => {
    const { account } = await shopWithData();
    const other = await shopWithData();
    const res = await exportOf(account.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = linesOf(res.body as string);
    expect(lines[0]).toMatchObject({ format: "booking-edge-api.account-export", version: 1, account_id: account.id, shard: "DB" });
    expect(lines[1]).toMatchObject({ table: "accounts", row: { id: account.id, subdomain: account.subdomain } });
    const rows = lines.slice(1, -1);
    expect(rows.every((l) => (l.table === "accounts" ? l.row.id : l.row.account_id) === account.id)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(other.account.subdomain);
    const counted: Record<string, number> = {};
    for (const l of rows) counted[l.table] = (counted[l.table] ?? 0) + 1;
    expect(lines.at(-1)).toEqual({ end: true, rows: expect.objectContaining(counted) });
    expect(counted).toMatchObject({ people: 1, bookings: 1, events: 1, resources: 1, web_hooks: 1, idempotency_keys: 1, api_keys: 1 });
  });

  it("answers 404 for an account that does not exist", async () => {
    const res = await exportOf(987654321);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});

describe("recovery: export, delete, import (docs/decisions/recovery.md)", () => {
  it("restores an account with a row in every table, row for row, after its deletion, and its key works again", async () => {
    const { api, account } = await shopWithData();
    const filled = await fillEmptyTables(account.id, "DB");
    const before = await snapshot(account.id, "DB");
    // Every table the account owns holds at least one row, so the comparison covers each of them.
    expect([...directoryTables, ...dataTables].filter((t) => before[t.name].length === 0).map((t) => t.name)).toEqual([]);
    expect(filled.length).toBeLessThan(dataTables.length);
    const text = (await exportOf(account.id)).body as string;

    await closeAndDelete(account.id);
    expect(Object.entries(await snapshot(account.id, "DB")).filter(([, rows]) => rows.length)).toEqual([]);

    const imported = await must(importOf(text));
    expect(imported.imported.shard).toBe("DB");
    expect(imported.account).toMatchObject({ id: account.id, closed_at: null });
    expect(await snapshot(account.id, "DB")).toEqual(before);
    expect((await must(api.get("/bookings"))).length).toBeGreaterThan(0);
  });

  it("restores into another shard, the same rows with the same ids", async () => {
    const { api, account } = await shopWithData();
    await fillEmptyTables(account.id, "DB");
    const before = await snapshot(account.id, "DB");
    const text = (await exportOf(account.id)).body as string;
    await closeAndDelete(account.id);

    const imported = await must(importOf(text, "?shard=DB_SHARD_1"));
    expect(imported.account.shard).toBe("DB_SHARD_1");
    const after = await snapshot(account.id, "DB_SHARD_1");
    const withoutShard = (rows: Row[]) => rows.map((r) => String(r).replace('"shard":"DB_SHARD_1"', '"shard":"DB"'));
    expect({ ...after, accounts: withoutShard(after.accounts) }).toEqual(before);
    expect((await must(api.get("/client"))).client.id).toBe(account.id);
  });
});

describe("POST /admin/v1/accounts/import", () => {
  it("answers 409 for an account this deployment holds, and changes nothing", async () => {
    const { account } = await shopWithData();
    const before = await snapshot(account.id, "DB");
    const res = await importOf((await exportOf(account.id)).body as string);
    expect(res.status).toBe(409);
    expect(await snapshot(account.id, "DB")).toEqual(before);
  });

  it("answers 400 for an export cut short, and keeps nothing of it", async () => {
    const { account } = await shopWithData();
    const text = (await exportOf(account.id)).body as string;
    await closeAndDelete(account.id);
    const cut = text.trim().split("\n").slice(0, -3).join("\n");
    const res = await importOf(cut);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ base: [expect.stringContaining("cut short")] });
    expect(Object.entries(await snapshot(account.id, "DB")).filter(([, rows]) => rows.length)).toEqual([]);
  });

  it("answers 400 naming the line for what is not an export: no header, a foreign row, an unknown column", async () => {
    const { account } = await shopWithData();
    const lines = ((await exportOf(account.id)).body as string).trim().split("\n");
    await closeAndDelete(account.id);
    const res1 = await importOf("not json\n");
    expect(res1.status).toBe(400);
    expect(res1.body).toEqual({ base: ["line 1: is not a JSON object"] });
    const people = lines.findIndex((l) => l.startsWith('{"table":"people"'));
    const foreign = [...lines];
    foreign[people] = foreign[people].replace(`"account_id":${account.id}`, '"account_id":1');
    const res2 = await importOf(foreign.join("\n"));
    expect(res2.status).toBe(400);
    expect(res2.body).toEqual({ base: [`line ${people + 1}: the row is not account ${account.id}'s`] });
    const unknown = [...lines];
    unknown[people] = unknown[people].replace('"name":', '"nickname":');
    const res3 = await importOf(unknown.join("\n"));
    expect(res3.status).toBe(400);
    expect(res3.body).toEqual({ base: [expect.stringContaining("people has no column nickname")] });
    expect((await importOf("")).status).toBe(400);
    expect(Object.entries(await snapshot(account.id, "DB")).filter(([, rows]) => rows.length)).toEqual([]);
  });

  it("answers 401 without the operator token", async () => {
    const res = await send("POST", "/admin/v1/accounts/import", { headers: { "content-type": "application/x-ndjson" }, body: "{}" });
    expect(res.status).toBe(401);
  });
});
