// Two accounts on two shards (docs/scaling.md): each works end to end on its own database, neither
// sees the other's ids, background work (cron, queues, capacity guards) reaches the right shard,
// and an account moves between shards keeping its ids.
import { createScheduledController } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { guardKey } from "../../src/durable-objects/capacity-guard";
import { ID_RANGE } from "../../src/db/shards";
import { env, newAccount, publicSite, send, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { eventually, runQueue } from "../support/queues";
import { receiver } from "../support/webhooks";

const ADMIN = { authorization: "Bearer test-admin-token", "content-type": "application/json" };
const operator = (method: string, path: string, body?: unknown) =>
  send(method, `/admin/v1${path}`, { headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });

const shardDb = (shard: "DB" | "DB_SHARD_1") => (env as unknown as Record<string, D1Database>)[shard];
const rowOn = (shard: "DB" | "DB_SHARD_1", table: string, id: number | string) =>
  shardDb(shard).prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first<Record<string, any>>();

interface Tenant {
  shard: "DB" | "DB_SHARD_1";
  other: "DB" | "DB_SHARD_1";
  api: Client;
  account: any;
  resource: any;
  service: any;
}

async function tenantOn(shard: "DB" | "DB_SHARD_1"): Promise<Tenant> {
  const { api, account } = await newAccount({ shard, verification_method: 1 });
  const make = catalogue(api);
  const resource = await make.resource({ title: `Room on ${shard}`, capacity: 1 });
  const service = await make.service({ title: "Cut", interval: 60 });
  await make.provider(resource.id, service.id);
  return { shard, other: shard === "DB" ? "DB_SHARD_1" : "DB", api, account, resource, service };
}

let tenants: Tenant[];

beforeAll(async () => {
  tenants = [await tenantOn("DB"), await tenantOn("DB_SHARD_1")];
});

describe("POST /admin/v1/accounts with shard", () => {
  it("places the account on the shard named and says so to the operator only", async () => {
    const [main, sharded] = tenants;
    expect(main.account.shard).toBe("DB");
    expect(sharded.account.shard).toBe("DB_SHARD_1");
    expect((await must(sharded.api.get("/client"))).client).not.toHaveProperty("shard");
    const listed = await must(operator("GET", "/accounts"));
    expect(listed.find((e: any) => e.account.id === sharded.account.id).account.shard).toBe("DB_SHARD_1");
  });

  it("answers 400 on shard for a shard this deployment does not bind, and creates nothing", async () => {
    const res = await operator("POST", "/accounts", {
      account: { subdomain: "nowhere", name: "N", email: "n@example.com", time_zone: "Europe/Oslo", country_code: "NO", shard: "DB_SHARD_9" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ shard: [expect.stringContaining("DB, DB_SHARD_1")] });
    expect(await shardDb("DB").prepare("SELECT id FROM accounts WHERE subdomain = 'nowhere'").first()).toBeNull();
  });

  it("keeps the directory on DB: a sharded account's row and key are there, not on its shard", async () => {
    const [, sharded] = tenants;
    expect(await rowOn("DB", "accounts", sharded.account.id)).toMatchObject({ shard: "DB_SHARD_1" });
    expect(await rowOn("DB_SHARD_1", "accounts", sharded.account.id)).toBeNull();
  });
});

describe("two accounts on two shards", () => {
  it("writes each account's catalogue to its own shard, ids of shard 1 above its range start", async () => {
    for (const t of tenants) {
      expect(await rowOn(t.shard, "resources", t.resource.id)).toMatchObject({ account_id: t.account.id, title: `Room on ${t.shard}` });
      expect(await rowOn(t.other, "resources", t.resource.id)).toBeNull();
    }
    expect(tenants[1].resource.id).toBeGreaterThan(ID_RANGE);
    expect(tenants[0].resource.id).toBeLessThan(ID_RANGE);
  });

  it("serves slots and takes a booking on each shard, and answers 404 for the other account's ids", async () => {
    for (const [i, t] of tenants.entries()) {
      const slots = await must(t.api.get(`/services/${t.service.id}/slots?from=2030-01-07&to=2030-01-07`));
      const ten = slots.find((e: any) => e.slot.timestamp === "2030-01-07T10:00:00+01:00").slot;
      expect(ten).toMatchObject({ free: 1, available_resources: [t.resource.id] });
      const booking = (
        await must(
          t.api.post("/bookings", { booking: { resource_id: t.resource.id, service_id: t.service.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" } }),
        )
      ).booking;
      expect(await rowOn(t.shard, "bookings", booking.id)).toMatchObject({ account_id: t.account.id, state: "confirmed" });
      expect(await rowOn(t.other, "bookings", booking.id)).toBeNull();
      const full = await must(t.api.get(`/services/${t.service.id}/slots?from=2030-01-07&to=2030-01-07`));
      expect(full.find((e: any) => e.slot.timestamp === "2030-01-07T10:00:00+01:00").slot.free).toBe(0);

      const stranger = tenants[1 - i];
      expect((await stranger.api.get(`/bookings/${booking.id}`)).status).toBe(404);
      expect((await stranger.api.get(`/resources/${t.resource.id}`)).status).toBe(404);
    }
  });

  it("shows a visitor their booking on the booking page of a shard 1 account (ids above its range start)", async () => {
    const t = tenants[1];
    const site = publicSite(t.account.subdomain);
    const created = await must(
      site.post("/bookings", {
        booking: {
          service_id: t.service.id,
          booked_from: "2030-01-08 10:00",
          booked_to: "2030-01-08 11:00",
          person_attributes: { name: "Vis", phone_number: "+4791234567" },
        },
      }),
    );
    expect(created.booking.id).toBeGreaterThan(ID_RANGE);
    const res = await send("GET", `http://${t.account.subdomain}.localhost/?booking=${created.booking.id}&token=${encodeURIComponent(created.booking_token)}`, {
      headers: { accept: "text/html" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('data-state="awaiting_verification"');
    expect(res.body).toContain("Tuesday, 8 January 2030, 10:00–11:00");
  });

  it("answers bookmarks named by the account's shard, and reads with them", async () => {
    for (const t of tenants) {
      const read = await t.api.get("/services");
      const bookmark = read.headers.get("x-d1-bookmark")!;
      expect(bookmark.startsWith(`${t.shard}:`)).toBe(true);
      const again = await t.api.get("/services", { "x-d1-bookmark": bookmark });
      expect(again.status).toBe(200);
      expect(again.headers.get("x-d1-bookmark")!.startsWith(`${t.shard}:`)).toBe(true);
    }
  });

  it("delivers a web hook from each shard", async () => {
    for (const t of tenants) {
      const target = receiver();
      await must(t.api.post("/web_hooks", { web_hook: { target_url: target.url, event: "person.created" } }));
      const person = (await must(t.api.post("/people", { person: { name: `Person on ${t.shard}` } }))).person;
      const requests = await eventually(
        () => target.requests(),
        (r) => r.length > 0,
      );
      expect(requests.map((r) => JSON.parse(r.body))).toEqual([expect.objectContaining({ event: "person.created", id: person.id })]);
      expect(
        await eventually(
          async () => (await shardDb(t.shard).prepare("SELECT state FROM webhook_deliveries WHERE account_id = ?").bind(t.account.id).first<{ state: string }>())?.state,
          (s) => s === "delivered",
        ),
      ).toBe("delivered");
    }
  });

  it("expires an unverified booking on every shard in one cron run", async () => {
    const made = [];
    for (const t of tenants) {
      const booking = (
        await must(
          t.api.post("/bookings", {
            confirm: false,
            booking: {
              resource_id: t.resource.id,
              booked_from: "2030-01-08 12:00",
              booked_to: "2030-01-08 13:00",
              person_attributes: { name: "Kari", phone_number: `+4791${String(t.account.id % 1_000_000).padStart(6, "0")}` },
            },
          }),
        )
      ).booking;
      expect(booking.state).toBe("awaiting_verification");
      made.push({ t, booking });
    }
    const latest = Math.max(...made.map((m) => Date.parse(m.booking.expires_at)));
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(latest + 60_000), cron: "* * * * *" }), env);
    for (const { t, booking } of made) {
      expect(await rowOn(t.shard, "bookings", booking.id)).toMatchObject({ state: "verification_expired", active: 0 });
    }
  });

  it("expands a recurring booking on shard 1 through the queue", async () => {
    const t = tenants[1];
    const { collection_id } = await must(
      t.api.post("/bookings/recurring", {
        booking: { resource_id: t.resource.id, booked_from: "2030-02-04 09:00", booked_to: "2030-02-04 10:00", title: "Weekly" },
        recurring: { rrule: "FREQ=WEEKLY;COUNT=3" },
      }),
    );
    const status = await eventually(
      async () => (await must(t.api.get(`/bookings/recurring/${collection_id}/status`))).recurring_collection,
      (s) => s.status === "completed",
    );
    expect(status).toMatchObject({ status: "completed", created: 3 });
    const rows = await shardDb("DB_SHARD_1").prepare("SELECT count(*) AS n FROM bookings WHERE collection_id = ?").bind(collection_id).first<number>("n");
    expect(rows).toBe(3);
    expect(await shardDb("DB").prepare("SELECT count(*) AS n FROM recurring_collections WHERE id = ?").bind(collection_id).first<number>("n")).toBe(0);

    // The message's shard is what routes it: without one it means DB, where this collection is not.
    const [withoutShard] = (await runQueue("booking-recurrence", [{ collection_id, account_id: t.account.id, from: 0 }])).retryMessages;
    expect(withoutShard).toMatchObject({ msgId: "m0" });
    const withShard = await runQueue("booking-recurrence", [{ collection_id, account_id: t.account.id, shard: "DB_SHARD_1", from: 0 }]);
    expect(withShard.explicitAcks).toEqual(["m0"]);
  });

  it("lets one of many concurrent requests for the last seat on a shard 1 resource through", async () => {
    const t = tenants[1];
    const attempt = () => t.api.post("/bookings", { booking: { resource_id: t.resource.id, booked_from: "2030-01-09 10:00", booked_to: "2030-01-09 11:00" } });
    const answers = await Promise.all(Array.from({ length: 8 }, attempt));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    const held = await shardDb("DB_SHARD_1")
      .prepare("SELECT count(*) AS n FROM bookings WHERE resource_id = ? AND booked_from = ? AND active = 1")
      .bind(t.resource.id, Date.parse("2030-01-09T09:00:00Z"))
      .first<number>("n");
    expect(held).toBe(1);
  });

  it("names capacity guards by shard: equal resource ids on two shards never share a guard", () => {
    expect(guardKey("DB", { kind: "resource", id: 7 })).not.toBe(guardKey("DB_SHARD_1", { kind: "resource", id: 7 }));
    expect(guardKey("DB_SHARD_1", { kind: "event", id: 7 })).toBe("DB_SHARD_1:event:7");
  });
});

describe("POST /admin/v1/accounts/{id}/move", () => {
  it("refuses to move an account that is not frozen, and changes nothing", async () => {
    const { account } = await newAccount({ shard: "DB" });
    const res = await operator("POST", `/accounts/${account.id}/move`, { shard: "DB_SHARD_1" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ base: [expect.stringContaining("freeze")] });
    expect(await rowOn("DB", "accounts", account.id)).toMatchObject({ shard: "DB" });
  });

  it("exports, imports, switches and cleans up: the account works on its new shard with the same ids", async () => {
    const { api, account } = await newAccount({ shard: "DB" });
    const make = catalogue(api);
    const resource = await make.resource({ title: "Moving room" });
    const service = await make.service({ title: "Cut" });
    await make.provider(resource.id, service.id);
    const booking = await make.booking({
      resource_id: resource.id,
      service_id: service.id,
      booked_from: "2030-03-04 10:00",
      booked_to: "2030-03-04 11:00",
      person_attributes: { name: "Ola", email: "ola@example.no" },
    });

    await must(operator("PUT", `/accounts/${account.id}`, { account: { api_enabled: false, public_access: false } }));
    const moved = await must(operator("POST", `/accounts/${account.id}/move`, { shard: "DB_SHARD_1" }));
    expect(moved).toMatchObject({
      account: { id: account.id, shard: "DB_SHARD_1" },
      moved: { from: "DB", to: "DB_SHARD_1", rows: { resources: 1, services: 1, providers: 1, bookings: 1, people: 1 } },
    });
    await must(operator("PUT", `/accounts/${account.id}`, { account: { api_enabled: true, public_access: true } }));

    expect(await rowOn("DB_SHARD_1", "bookings", booking.id)).toMatchObject({ account_id: account.id, resource_id: resource.id });
    expect(await rowOn("DB", "bookings", booking.id)).toBeNull();
    expect(await rowOn("DB", "resources", resource.id)).toBeNull();
    expect((await must(api.get(`/bookings/${booking.id}`))).booking).toMatchObject({ id: booking.id, person: { id: booking.person.id } });
    // The capacity guard of the new shard sees the moved booking: the slot is still taken.
    const retry = await api.post("/bookings", {
      booking: { resource_id: resource.id, service_id: service.id, booked_from: "2030-03-04 10:00", booked_to: "2030-03-04 11:00" },
    });
    expect(retry.status).toBe(400);
    const next = await make.booking({ resource_id: resource.id, service_id: service.id, booked_from: "2030-03-04 12:00", booked_to: "2030-03-04 13:00" });
    expect(next.id).toBeGreaterThan(ID_RANGE);
    expect(await rowOn("DB_SHARD_1", "bookings", next.id)).toMatchObject({ account_id: account.id });
  });

  it("never answers a booking list cached on the shard the account left, also after it comes back", async () => {
    const { api, account } = await newAccount({ shard: "DB" });
    const make = catalogue(api);
    const resource = await make.resource({ title: "Travelling room" });
    const slot = (hour: number) => ({ resource_id: resource.id, booked_from: `2030-03-05 ${hour}:00`, booked_to: `2030-03-05 ${hour + 1}:00` });
    const first = await make.booking(slot(10));
    const listed = async () => (await must(api.get(`/bookings?resource_id=${resource.id}`))).map((e: any) => e.booking.id);
    const move = async (shard: string) => {
      await must(operator("PUT", `/accounts/${account.id}`, { account: { api_enabled: false, public_access: false } }));
      await must(operator("POST", `/accounts/${account.id}/move`, { shard }));
      await must(operator("PUT", `/accounts/${account.id}`, { account: { api_enabled: true, public_access: true } }));
    };
    // Cached on DB (features/bookings/list-cache.ts), then the account leaves and changes elsewhere.
    expect([await listed(), await listed()]).toEqual([[first.id], [first.id]]);
    await move("DB_SHARD_1");
    expect(await listed()).toEqual([first.id]);
    const second = await make.booking(slot(12));
    expect(await listed()).toEqual([first.id, second.id]);
    // Back on DB: its listing version of the account moved on with the clean-up and the import.
    await move("DB");
    expect(await listed()).toEqual([first.id, second.id]);
  });

  it("answers 409 and moves nothing when the target already uses one of the account's ids", async () => {
    const { api, account } = await newAccount({ shard: "DB" });
    const resource = await catalogue(api).resource({ title: "Clashing room" });
    // Another account's row on the target under the same id (as after a move to a lower shard).
    await shardDb("DB_SHARD_1")
      .prepare("INSERT INTO resources (id, account_id, title, capacity, created_at, updated_at) VALUES (?, ?, 'Theirs', 1, 0, 0)")
      .bind(resource.id, tenants[1].account.id)
      .run();
    await must(operator("PUT", `/accounts/${account.id}`, { account: { api_enabled: false, public_access: false } }));
    const res = await operator("POST", `/accounts/${account.id}/move`, { shard: "DB_SHARD_1" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.stringContaining(`resources ${resource.id}`) });
    expect(await rowOn("DB", "accounts", account.id)).toMatchObject({ shard: "DB" });
    expect(await rowOn("DB", "resources", resource.id)).toMatchObject({ account_id: account.id });
    expect(await rowOn("DB_SHARD_1", "resources", resource.id)).toMatchObject({ account_id: tenants[1].account.id, title: "Theirs" });
  });

  it("answers 400 on shard when the account is already there", async () => {
    const { account } = await newAccount({ shard: "DB_SHARD_1" });
    await must(operator("PUT", `/accounts/${account.id}`, { account: { api_enabled: false, public_access: false } }));
    const res = await operator("POST", `/accounts/${account.id}/move`, { shard: "DB_SHARD_1" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ shard: [expect.any(String)] });
  });
});
