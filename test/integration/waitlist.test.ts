// The waitlist (issue 23, docs/decisions/waitlist.md): joining the line of a full time, offers as
// slot holds to the first in line when a seat frees, accepting, and offers passed on when they lapse.
import { createScheduledController } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { env, newAccount, send, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { eventually, recordingQueue } from "../support/queues";
import { receiver } from "../support/webhooks";

const DAY = "2030-01-07";
const TIME = { booked_from: `${DAY} 10:00`, booked_to: `${DAY} 11:00` };
const FULL = { booked_from: ["is not available: the resource is fully booked at this time"] };

let api: Client;
let subdomain: string;
let accountId: number;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  subdomain = mine.account.subdomain;
  accountId = mine.account.id;
  await must(api.put("/client", { client: { waitlist_enabled: true } }));
});

let visitors = 0;
function site(sub = subdomain) {
  const origin = `http://${sub}.localhost`;
  const ip = `203.0.113.${(visitors += 1) % 250}`;
  const headers = (extra: Record<string, string> = {}) => ({ "content-type": "application/json", "cf-connecting-ip": ip, ...extra });
  return {
    post: (path: string, payload: unknown, extra: Record<string, string> = {}) =>
      send("POST", `${origin}${path}`, { headers: headers(extra), body: JSON.stringify(payload) }),
    get: (path: string, extra: Record<string, string> = {}) => send("GET", `${origin}${path}`, { headers: headers(extra) }),
    delete: (path: string, extra: Record<string, string> = {}) => send("DELETE", `${origin}${path}`, { headers: headers(extra) }),
  };
}

/** A capacity-1 resource with its service and one confirmed booking filling TIME. */
async function fullTime(client: Client = api) {
  const make = catalogue(client);
  const room = await make.resource();
  const cut = await make.service({ title: "Cut", interval: 60 });
  await make.provider(room.id, cut.id);
  const booking = await make.booking({ service_id: cut.id, resource_id: room.id, ...TIME });
  return { room, cut, booking };
}

const join = (serviceId: number, name: string) =>
  site().post("/waitlist", { waitlist_entry: { service_id: serviceId, ...TIME, person_attributes: { name, email: `${name.toLowerCase()}@example.com` } } });

/** One run of the every-minute cron, which passes freed seats to the lines. */
const cron = () => worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env);

const stateOf = async (id: number) => (await must(api.get(`/waitlist/${id}`))).waitlist_entry.state;

describe("joining", () => {
  it("is refused on a site that has not enabled it, and on a time with a free seat", async () => {
    const { api: other, account } = await newAccount();
    const { cut } = await fullTime(other);
    const refused = await site(account.subdomain).post("/waitlist", { waitlist_entry: { service_id: cut.id, ...TIME, person_attributes: { name: "Ola" } } });
    expect(refused.status).toBe(403);
    const { cut: mine } = await fullTime();
    const free = await site().post("/waitlist", {
      waitlist_entry: { service_id: mine.id, booked_from: `${DAY} 12:00`, booked_to: `${DAY} 13:00`, person_attributes: { name: "Ola" } },
    });
    expect([free.status, free.body]).toEqual([400, { booked_from: ["has a free seat: book it instead of waiting"] }]);
  });

  it("answers the place and a token that alone opens it", async () => {
    const { cut } = await fullTime();
    const joined = await must(join(cut.id, "Kari"));
    expect(joined.waitlist_entry).toMatchObject({ service_id: cut.id, state: "waiting", booked_from: `${DAY}T10:00:00+01:00`, count: 1 });
    const id = joined.waitlist_entry.id;
    expect((await site().get(`/waitlist/${id}`)).status).toBe(404);
    expect((await site().get(`/waitlist/${id}`, { "x-waitlist-token": "wrong" })).status).toBe(404);
    expect((await must(site().get(`/waitlist/${id}`, { "x-waitlist-token": joined.waitlist_token }))).waitlist_entry.id).toBe(id);
    const { api: other } = await newAccount();
    expect((await other.get(`/waitlist/${id}`)).status).toBe(404);
  });
});

describe("offers", () => {
  it("a cancel offers the seat to the first in line only; nobody else can book it meanwhile; accepting books it", async () => {
    const { cut, booking } = await fullTime();
    const first = await must(join(cut.id, "Anna"));
    const second = await must(join(cut.id, "Berit"));
    await must(api.put(`/bookings/${booking.id}/cancel`, {}));
    await cron();
    expect(await stateOf(first.waitlist_entry.id)).toBe("offered");
    expect(await stateOf(second.waitlist_entry.id)).toBe("waiting");
    expect((await api.post("/bookings", { booking: { service_id: cut.id, ...TIME } })).body).toEqual(FULL);
    const accepted = await must(site().post(`/waitlist/${first.waitlist_entry.id}/accept`, {}, { "x-waitlist-token": first.waitlist_token }));
    expect(accepted.waitlist_entry.state).toBe("accepted");
    expect(accepted.booking).toMatchObject({ booked_from: `${DAY}T10:00:00+01:00`, service_id: cut.id });
    await cron();
    expect(await stateOf(second.waitlist_entry.id)).toBe("waiting");
  });

  it("two freed seats go to the first two", async () => {
    const { room, cut, booking } = await fullTime();
    await must(api.put(`/resources/${room.id}`, { resource: { capacity: 2 } }));
    const other = await catalogue(api).booking({ service_id: cut.id, resource_id: room.id, ...TIME });
    const line = [await must(join(cut.id, "A")), await must(join(cut.id, "B")), await must(join(cut.id, "C"))];
    await must(api.put(`/bookings/${booking.id}/cancel`, {}));
    await must(api.put(`/bookings/${other.id}/cancel`, {}));
    await cron();
    expect(await Promise.all(line.map((e) => stateOf(e.waitlist_entry.id)))).toEqual(["offered", "offered", "waiting"]);
  });

  it("an offer that lapses passes to the next in line with no write to notice it", async () => {
    const { cut, booking } = await fullTime();
    const first = await must(join(cut.id, "Anna"));
    const second = await must(join(cut.id, "Berit"));
    await must(api.put(`/bookings/${booking.id}/cancel`, {}));
    await cron();
    const { hold_id } = (await env.DB.prepare("SELECT hold_id FROM waitlist_entries WHERE id = ?").bind(first.waitlist_entry.id).first<{ hold_id: number }>())!;
    await env.DB.prepare("UPDATE slot_holds SET expires_at = ? WHERE id = ?")
      .bind(Date.now() + 300, hold_id)
      .run();
    await new Promise((r) => setTimeout(r, 400));
    await cron();
    expect(await stateOf(first.waitlist_entry.id)).toBe("expired");
    expect(await stateOf(second.waitlist_entry.id)).toBe("offered");
  });

  it("a cancel racing 20 public creates for the seat sells it at most once, offer or create", async () => {
    const { room, cut, booking } = await fullTime();
    await must(join(cut.id, "Anna"));
    const creates = Array.from({ length: 20 }, (_, i) =>
      site().post("/bookings", { booking: { service_id: cut.id, ...TIME, person_attributes: { name: `V${i}`, email: `v${i}@example.com` } } }),
    );
    await Promise.all([api.put(`/bookings/${booking.id}/cancel`, {}), ...creates, cron()]);
    await cron();
    const taken = (await env.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM bookings WHERE resource_id = ?1 AND active = 1)
            + (SELECT COUNT(*) FROM slot_holds WHERE resource_id = ?1 AND ended_at IS NULL AND expires_at > ?2) AS n`,
    )
      .bind(room.id, Date.now())
      .first<{ n: number }>())!.n;
    expect(taken).toBe(1);
  });

  it("leaving with an offer releases the seat to the next in line", async () => {
    const { cut, booking } = await fullTime();
    const first = await must(join(cut.id, "Anna"));
    const second = await must(join(cut.id, "Berit"));
    await must(api.put(`/bookings/${booking.id}/cancel`, {}));
    await cron();
    const left = await must(site().delete(`/waitlist/${first.waitlist_entry.id}`, { "x-waitlist-token": first.waitlist_token }));
    expect(left.waitlist_entry.state).toBe("left");
    await cron();
    expect(await stateOf(second.waitlist_entry.id)).toBe("offered");
  });
});

describe("offers right after the write that frees the seat", () => {
  it("a cancel offers the seat at once on an account with the waitlist on, and a declined offer passes on at once", async () => {
    const { cut, booking } = await fullTime();
    const first = await must(join(cut.id, "Anna"));
    const second = await must(join(cut.id, "Berit"));
    await must(api.put(`/bookings/${booking.id}/cancel`, {}));
    expect(await stateOf(first.waitlist_entry.id)).toBe("offered");
    await must(site().delete(`/waitlist/${first.waitlist_entry.id}`, { "x-waitlist-token": first.waitlist_token }));
    expect(await stateOf(second.waitlist_entry.id)).toBe("offered");
  });
});

describe("the offer's message", () => {
  it("tells the person by e-mail with a link whose secret opens and accepts the offer", async () => {
    const { cut, booking } = await fullTime();
    const first = await must(join(cut.id, "Anna"));
    await must(api.put(`/bookings/${booking.id}/cancel`, {}));
    const message = await env.DB.prepare("SELECT * FROM messages WHERE account_id = ? AND kind = 'offer' AND recipient = 'anna@example.com' ORDER BY id DESC")
      .bind(accountId)
      .first<{ body: string; subject: string; channel: string }>();
    expect(message).toMatchObject({ channel: "email", subject: expect.stringContaining("A seat is free for you") });
    expect(message!.body).toContain("Hello Anna");
    const link = new URL(message!.body.match(/https?:\/\/\S+/)![0]);
    expect(link.host).toBe(`${subdomain}.localhost`);
    expect(link.searchParams.get("waitlist")).toBe(String(first.waitlist_entry.id));
    const secret = link.searchParams.get("offer")!;
    const seen = await must(site().get(`/waitlist/${first.waitlist_entry.id}`, { "x-waitlist-token": secret }));
    expect(seen.waitlist_entry.state).toBe("offered");
    expect(Date.parse(seen.waitlist_entry.offer_expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);
    const accepted = await must(site().post(`/waitlist/${first.waitlist_entry.id}/accept`, {}, { "x-waitlist-token": secret }));
    expect(accepted.booking.booked_from).toBe(`${DAY}T10:00:00+01:00`);
    // The secret opened only that offer: once accepted, it opens nothing.
    expect((await site().get(`/waitlist/${first.waitlist_entry.id}`, { "x-waitlist-token": secret })).status).toBe(404);
  });
});

describe("webhooks", () => {
  it("a waitlist.* subscription receives joined, offered, expired (the cron's pass passing a lapsed offer on) and accepted, each with the entry", async () => {
    // Waitlist off on the site: the private API joins, and only the cron's pass offers.
    const { api: mine, account } = await newAccount();
    const hooks = receiver();
    await must(mine.post("/web_hooks", { web_hook: { target_url: hooks.url, event: "waitlist.*" } }));
    const { cut, booking } = await fullTime(mine);
    const joinHere = (name: string) =>
      mine.post("/waitlist", { waitlist_entry: { service_id: cut.id, ...TIME, person_attributes: { name, email: `${name.toLowerCase()}.hook@example.com` } } });
    const first = (await must(joinHere("Anna"))).waitlist_entry;
    const second = (await must(joinHere("Berit"))).waitlist_entry;
    await must(mine.put(`/bookings/${booking.id}/cancel`, {}));
    const webhooks = recordingQueue(env.WEBHOOK_QUEUE);
    const pass = () => worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), { ...env, WEBHOOK_QUEUE: webhooks.recorder });
    await pass();
    const { hold_id } = (await env.DB.prepare("SELECT hold_id FROM waitlist_entries WHERE id = ?").bind(first.id).first<{ hold_id: number }>())!;
    await env.DB.prepare("UPDATE slot_holds SET expires_at = ? WHERE id = ?")
      .bind(Date.now() + 300, hold_id)
      .run();
    await new Promise((r) => setTimeout(r, 400));
    await pass();
    const mineSent = webhooks.sent.map((m) => m.body).filter((b) => b.account_id === account.id);
    expect(mineSent.map((b) => `${b.event} ${b.data.id}`)).toEqual([`waitlist.offered ${first.id}`, `waitlist.expired ${first.id}`, `waitlist.offered ${second.id}`]);
    // The person offered accepts with the link from their message.
    const message = await env.DB.prepare("SELECT body FROM messages WHERE account_id = ? AND kind = 'offer' AND body LIKE ? ORDER BY id DESC")
      .bind(account.id, `%waitlist=${second.id}&%`)
      .first<{ body: string }>();
    const secret = new URL(message!.body.match(/https?:\/\/\S+/)![0]).searchParams.get("offer")!;
    await must(site(account.subdomain).post(`/waitlist/${second.id}/accept`, {}, { "x-waitlist-token": secret }));
    // The real queue fans them out in the background, with the joins the private API sent.
    const requests = await eventually(hooks.requests, (r) => r.length >= 6);
    expect(
      requests
        .map((r) => JSON.parse(r.body))
        .map((b) => `${b.event} ${b.data.waitlist_entry.id} ${b.data.waitlist_entry.state}`)
        .sort(),
    ).toEqual([
      `waitlist.accepted ${second.id} accepted`,
      `waitlist.expired ${first.id} expired`,
      `waitlist.joined ${first.id} waiting`,
      `waitlist.joined ${second.id} waiting`,
      `waitlist.offered ${first.id} offered`,
      `waitlist.offered ${second.id} offered`,
    ]);
  });
});

describe("the private API's line", () => {
  it("lists a service's entries in order", async () => {
    const { cut } = await fullTime();
    const a = await must(join(cut.id, "A"));
    const b = await must(join(cut.id, "B"));
    const line = await must(api.get(`/waitlist?service_id=${cut.id}`));
    expect(line.map((e: any) => e.waitlist_entry.id)).toEqual([a.waitlist_entry.id, b.waitlist_entry.id]);
    expect(accountId).toBeGreaterThan(0);
  });
});
