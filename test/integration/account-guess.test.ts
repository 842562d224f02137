// An account this isolate saw more than 30 s ago is a guess: the route runs on it while the
// directory confirms it, so the lookup adds no wait; what the directory says still decides
// (http/account-cache.ts, http/auth.ts; docs/decisions/latency.md "Who is asking, at distance").
import { describe, expect, it } from "vitest";
import { distrustAccounts } from "../../src/http/account-cache";
import { env, newAccount, publicSite } from "../support/api";
import { costOf } from "../support/server-timing";

/** What another isolate's write would leave this one not knowing: the directory changed under its cache. */
const directly = (sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .run();

describe("a guessed account", () => {
  it("answers a read with one wait: the route's read beside the directory's", async () => {
    const { api } = await newAccount();
    expect((await api.get("/services")).status).toBe(200);
    distrustAccounts();
    const res = await api.get("/services");
    expect(res.status).toBe(200);
    // Two round trips (the directory, the services), one wait: they overlap.
    expect(costOf(res.headers)).toMatchObject({ roundTrips: 2, waits: 1, d1Waits: 1 });
    // The confirmation made the entry trusted again: no directory read.
    expect(costOf((await api.get("/services")).headers)).toMatchObject({ roundTrips: 1, waits: 1 });
  });

  it("writes once the directory confirms it, within two waits", async () => {
    const { api } = await newAccount();
    await api.get("/client");
    distrustAccounts();
    const res = await api.post("/resources", { resource: { title: "Room" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(costOf(res.headers).waits).toBeLessThanOrEqual(2);
    expect((await api.get("/resources")).body.map((e: any) => e.resource.title)).toEqual(["Room"]);
  });

  it("a key revoked elsewhere: 401, and the write it carried is not made", async () => {
    const { api, account } = await newAccount();
    await api.get("/client");
    await directly("UPDATE api_keys SET revoked_at = ? WHERE account_id = ?", Date.now(), account.id);
    distrustAccounts();
    const res = await api.post("/resources", { resource: { title: "Never" } });
    expect(res.status).toBe(401);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM resources WHERE account_id = ?").bind(account.id).first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it("an account closed elsewhere (unpaid): 402 for a read too", async () => {
    const { api, account } = await newAccount();
    await api.get("/client");
    await directly("UPDATE accounts SET billing_status = 'unpaid' WHERE id = ?", account.id);
    distrustAccounts();
    expect((await api.get("/services")).status).toBe(402);
  });

  it("an account changed elsewhere: the request is answered on the account as it is now, and its write made once", async () => {
    const { api, account } = await newAccount({ time_zone: "Europe/Oslo" });
    await api.get("/client");
    await directly("UPDATE accounts SET time_zone = 'America/New_York' WHERE id = ?", account.id);
    distrustAccounts();
    const client = await api.get("/client");
    expect(client.status).toBe(200);
    expect(client.body.client.time_zone).toBe("America/New_York");

    await directly("UPDATE accounts SET name = 'Renamed' WHERE id = ?", account.id);
    distrustAccounts();
    const created = await api.post("/resources", { resource: { title: "Once" } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await api.get("/resources")).body.map((e: any) => e.resource.title)).toEqual(["Once"]);
  });

  it("a booking site: its services with one wait; closed elsewhere, a 404", async () => {
    const { account } = await newAccount();
    const site = publicSite(account.subdomain);
    expect((await site.get("/services")).status).toBe(200);
    distrustAccounts();
    const res = await site.get("/services");
    expect(res.status).toBe(200);
    expect(costOf(res.headers)).toMatchObject({ waits: 1, d1Waits: 1 });
    await directly("UPDATE accounts SET public_access = 0 WHERE id = ?", account.id);
    distrustAccounts();
    expect((await site.get("/services")).status).toBe(404);
  });
});
