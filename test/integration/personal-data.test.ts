// A person's export and erasure on the private API, and a visitor's export of their own booking:
// every place the registry names is covered, erasure leaves no trace of the person's data in any
// table of the account, and a booking racing the erasure leaves none either.
import { beforeAll, describe, expect, it } from "vitest";
import { PERSONAL_DATA } from "../../src/db/personal-data";
import { env, newAccount, publicSite, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { runQueue } from "../support/queues";
import { eventually } from "../support/queues";
import { receiver } from "../support/webhooks";

function nextMonday(weeks: number): string {
  const d = new Date(Date.now() + weeks * 7 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.toISOString().slice(0, 10);
}
const MONDAY = nextMonday(1);

let api: Client;
let other: Client;
let accountId: number;
let subdomain: string;
let resourceId: number;
let serviceId: number;

beforeAll(async () => {
  const mine = await newAccount({ verification_method: 2 });
  api = mine.api;
  accountId = mine.account.id;
  subdomain = mine.account.subdomain;
  other = (await newAccount()).api;
  const make = catalogue(api);
  const resource = await make.resource({ title: "Chair", capacity: 3 });
  const service = await make.service({ title: "Cut", interval: 30 });
  await make.provider(resource.id, service.id);
  resourceId = resource.id;
  serviceId = service.id;
});

let serial = 0;
/** Identifiers no other row of the file holds, so finding one of them anywhere is a trace. */
function marked() {
  serial += 1;
  const tag = `zq${serial}${Math.random().toString(36).slice(2, 8)}`;
  return {
    name: `Name ${tag}`,
    email: `${tag}@example.com`,
    phone_number: `+4741${String(100000 + serial * 7919 + Math.floor(Math.random() * 1000)).slice(0, 6)}`,
    national_id_no: `nid${tag}`,
    notes: `notes ${tag}`,
    street: `Street ${tag}`,
    custom_data: { allergy: `custom ${tag}` },
    tag,
  };
}

async function person(m: ReturnType<typeof marked>) {
  const { tag: _tag, ...attributes } = m;
  return (await must(api.post("/people", { person: attributes }))).person;
}

let hour = 0;
async function bookingOf(personId: number, m: ReturnType<typeof marked>) {
  const h = 8 + (hour++ % 18) / 2;
  const at = (x: number) => `${String(Math.floor(x)).padStart(2, "0")}:${x % 1 ? "30" : "00"}`;
  return (
    await must(
      api.post("/bookings", {
        booking: {
          resource_id: resourceId,
          service_id: serviceId,
          person_id: personId,
          booked_from: `${MONDAY} ${at(h)}`,
          booked_to: `${MONDAY} ${at(h + 0.5)}`,
          title: `Title ${m.tag}`,
          notes: `Booking notes ${m.tag}`,
          custom_data: { answer: `booking custom ${m.tag}` },
        },
      }),
    )
  ).booking;
}

const q = (query: string, ...bind: unknown[]) => env.DB.prepare(query).bind(...bind);

/** Rows in every other place the registry names, as other features would leave them. */
async function seedEverywhere(p: { id: number }, bookingId: number, m: ReturnType<typeof marked>) {
  const e164 = m.phone_number;
  const hook = await q(
    `INSERT INTO web_hooks (account_id, target_url, event, active, created_at, updated_at) VALUES (?, 'http://127.0.0.1:9/x', '*', 0, 0, 0) RETURNING id`,
    accountId,
  ).first<{
    id: number;
  }>();
  const payload = (object: string, id: number, data: unknown) =>
    JSON.stringify({
      event: `${object}.created`,
      idempotency_id: crypto.randomUUID(),
      generated_at: "x",
      performed_by: { via: "private_api" },
      data: { object, id, [object]: data },
    });
  await env.DB.batch([
    q(
      `INSERT INTO messages (account_id, booking_id, person_id, kind, channel, recipient, subject, body, status, created_at, updated_at)
       VALUES (?, ?, ?, 'confirmation', 'email', ?, ?, ?, 'queued', 1, 1)`,
      accountId,
      bookingId,
      p.id,
      m.email,
      `Subject ${m.tag}`,
      `Dear ${m.name}`,
    ),
    q(
      `INSERT INTO waitlist_entries (account_id, service_id, resource_id, booked_from, booked_to, count, person_attributes, token_hash, state, created_at, updated_at)
       VALUES (?, ?, ?, 0, 1, 1, ?, ?, 'waiting', 1, 1)`,
      accountId,
      serviceId,
      resourceId,
      JSON.stringify({ name: m.name, email: m.email.toUpperCase() }),
      `wt-${m.tag}`,
    ),
    q(
      `INSERT INTO slot_holds (account_id, service_id, resource_id, booked_from, booked_to, occupied_from, occupied_to, count, secret_hash, client_hash, expires_at, ended_at, ended_by, booking_id, created_at)
       VALUES (?, ?, ?, 0, 1, 0, 1, 1, ?, ?, 1, 1, 'converted', ?, 1)`,
      accountId,
      serviceId,
      resourceId,
      `hs-${m.tag}`,
      `client ${m.tag}`,
      bookingId,
    ),
    q(
      `INSERT INTO recurring_collections (id, account_id, kind, template, occurrences, status, skipped, created_at, updated_at)
       VALUES (?, ?, 'booking', ?, '[]', 'completed', '[]', 1, 1)`,
      `rc-${m.tag}`,
      accountId,
      JSON.stringify({ booking: { person_attributes: { name: m.name }, title: `Title ${m.tag}`, resource_id: resourceId, person_id: p.id } }),
    ),
    q(
      `INSERT INTO webhook_deliveries (account_id, web_hook_id, idempotency_id, event, payload, state, attempts, created_at, updated_at) VALUES (?, ?, ?, 'person.created', ?, 'delivered', 1, 1, 1)`,
      accountId,
      hook!.id,
      crypto.randomUUID(),
      payload("person", p.id, { id: p.id, name: m.name, email: m.email }),
    ),
    q(
      `INSERT INTO webhook_deliveries (account_id, web_hook_id, idempotency_id, event, payload, state, attempts, created_at, updated_at) VALUES (?, ?, ?, 'booking.created', ?, 'pending', 0, 1, 1)`,
      accountId,
      hook!.id,
      crypto.randomUUID(),
      payload("booking", bookingId, { id: bookingId, person_id: p.id, title: `Title ${m.tag}` }),
    ),
    q(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, response_status, response_body, created_at) VALUES (?, ?, 'h', 200, ?, 1)`,
      accountId,
      `key-${m.tag}`,
      JSON.stringify({ booking: { id: bookingId, person_id: p.id, title: `Title ${m.tag}` } }),
    ),
    q(`INSERT INTO perishable_tokens (account_id, identifier, code_hash, attempts, expires_at, created_at) VALUES (?, ?, 'c', 0, 9999999999999, 1)`, accountId, e164),
    q(
      `INSERT INTO undeliverable_recipients (account_id, channel, recipient, reason, detail, created_at) VALUES (?, 'email', ?, 'bounced', ?, 1)`,
      accountId,
      m.email,
      `550 no such user ${m.email}`,
    ),
  ]);
}

/** Every row of every table of the registry that belongs to the account, as text. */
async function accountText(): Promise<string> {
  const parts: string[] = [];
  for (const t of PERSONAL_DATA) {
    if (t.table === "accounts") continue;
    const rows = await q(`SELECT * FROM ${t.table} WHERE account_id = ?`, accountId).all();
    parts.push(JSON.stringify(rows.results));
  }
  return parts.join("\n");
}

const traces = (m: ReturnType<typeof marked>) => [
  m.name,
  m.email,
  m.phone_number.slice(1),
  // Not the national identity number: it is stored encrypted (people-national-id.test.ts reads the raw row).
  m.notes,
  m.street,
  `custom ${m.tag}`,
  `Title ${m.tag}`,
  `Subject ${m.tag}`,
  `client ${m.tag}`,
];

describe("GET /api/v1/people/{id}/export", () => {
  it("answers the person and every section the registry reaches, bodies and payments included", async () => {
    const m = marked();
    const p = await person(m);
    const booking = await bookingOf(p.id, m);
    await seedEverywhere(p, booking.id, m);
    const res = await api.get(`/people/${p.id}/export`);
    expect(res.status).toBe(200);
    const data = res.body.personal_data;
    expect(data.person).toMatchObject({ id: p.id, name: m.name, email: m.email, national_id_no: m.national_id_no, erased_at: null });
    expect(data.page).toBe(1);
    expect(data.next_page).toBeNull();
    expect(data.bookings.map((b: any) => b.id)).toEqual([booking.id]);
    expect(data.bookings[0]).toMatchObject({ title: `Title ${m.tag}`, custom_data: { answer: `booking custom ${m.tag}` }, state: booking.state });
    expect(data.bookings[0]).not.toHaveProperty("public_token_hash");
    expect(data.messages.map((x: any) => x.body)).toContain(`Dear ${m.name}`);
    expect(data.waitlist_entries[0].person_attributes).toEqual({ name: m.name, email: m.email.toUpperCase() });
    expect(data.slot_holds).toHaveLength(1);
    expect(data.slot_holds[0]).not.toHaveProperty("client_hash");
    expect(data.recurring_collections).toHaveLength(1);
    expect(data.webhook_deliveries.map((d: any) => d.event).sort()).toEqual(["booking.created", "person.created"]);
    expect(data.webhook_deliveries[0]).not.toHaveProperty("payload");
    expect(data.idempotency_keys.map((k: any) => k.key)).toEqual([`key-${m.tag}`]);
    expect(data.perishable_tokens.map((t: any) => t.identifier)).toEqual([m.phone_number]);
    expect(data.undeliverable_recipients.map((r: any) => r.recipient)).toEqual([m.email]);
  });

  it("pages sections longer than 500 rows", async () => {
    const m = marked();
    const p = await person(m);
    const inserts = Array.from({ length: 501 }, (_, i) =>
      q(
        `INSERT INTO messages (account_id, person_id, kind, channel, recipient, body, status, created_at, updated_at) VALUES (?, ?, 'token', 'sms', ?, ?, 'sent', 1, 1)`,
        accountId,
        p.id,
        m.phone_number,
        `code ${i}`,
      ),
    );
    await env.DB.batch(inserts);
    const first = (await api.get(`/people/${p.id}/export`)).body.personal_data;
    expect(first.messages).toHaveLength(500);
    expect(first.next_page).toBe(2);
    const second = (await api.get(`/people/${p.id}/export?page=2`)).body.personal_data;
    expect(second.messages.map((x: any) => x.body)).toEqual(["code 500"]);
    expect(second.next_page).toBeNull();
  });

  it("answers 404 for another account's person and an unknown id, and 400 for an unreadable page", async () => {
    const p = await person(marked());
    expect((await other.get(`/people/${p.id}/export`)).status).toBe(404);
    expect((await api.get("/people/999999999/export")).status).toBe(404);
    const bad = await api.get(`/people/${p.id}/export?page=0`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ page: [expect.any(String)] });
  });
});

describe("POST /api/v1/people/{id}/erase", () => {
  it("leaves no trace of the person in any table of the account, and keeps the bookings' times, counts and state", async () => {
    const m = marked();
    const p = await person(m);
    const booking = await bookingOf(p.id, m);
    await seedEverywhere(p, booking.id, m);
    const before = await rawBooking(booking.id);
    for (const trace of traces(m)) expect(await accountText()).toContain(trace);

    const res = await api.post(`/people/${p.id}/erase`);
    expect(res.status).toBe(200);
    expect(res.body.erasure).toMatchObject({ already_erased: false, person: { id: p.id, name: null, email: null, national_id_no: null, active: false } });
    expect(res.body.erasure.person.erased_at).toEqual(expect.any(String));
    expect(res.body.erasure.rows).toMatchObject({
      people: 1,
      bookings: 1,
      messages: expect.any(Number),
      waitlist_entries: 1,
      perishable_tokens: 1,
      undeliverable_recipients: 1,
    });

    const text = await accountText();
    for (const trace of traces(m)) expect(text).not.toContain(trace);
    // The encrypted number and the keyed hash that matched it are gone too: the number no longer counts as taken.
    expect(await q("SELECT national_id_no, national_id_hash FROM people WHERE id = ?", p.id).first()).toEqual({ national_id_no: null, national_id_hash: null });
    expect((await api.post("/people", { person: { name: "Someone else", national_id_no: m.national_id_no } })).status).toBe(200);
    const after = await rawBooking(booking.id);
    for (const column of ["booked_from", "booked_to", "count", "resource_id", "service_id", "state", "active", "person_id", "payment"]) {
      expect(after![column], column).toEqual(before![column]);
    }
    expect(after!.updated_at).toBeGreaterThan(before!.updated_at);
    const message = await q("SELECT status, error FROM messages WHERE booking_id = ? AND kind = 'confirmation' AND recipient = ''", booking.id).first<any>();
    expect(message).toMatchObject({ status: "failed", error: "not sent: the person was erased" });
    const key = await q("SELECT response_status FROM idempotency_keys WHERE key = ?", `key-${m.tag}`).first<any>();
    expect(key.response_status).toBe(410);
    const entry = await q("SELECT state FROM waitlist_entries WHERE token_hash = ?", `wt-${m.tag}`).first<any>();
    expect(entry.state).toBe("left");
  });

  it("erases a person with 1,000 bookings and 1,000 messages in bounded rounds, every row of them", async () => {
    const m = marked();
    const p = await person(m);
    const rows = Array.from({ length: 1000 }, (_, i) => i);
    for (let i = 0; i < rows.length; i += 100) {
      await env.DB.batch(
        rows.slice(i, i + 100).flatMap((n) => [
          q(
            `INSERT INTO bookings (account_id, resource_id, person_id, booked_from, booked_to, state, active, title, notes, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, 'cancelled', 0, ?, ?, 1, 1)`,
            accountId,
            resourceId,
            p.id,
            n * 3_600_000,
            n * 3_600_000 + 1_800_000,
            `Title ${m.tag}`,
            `notes ${n}`,
          ),
          q(
            `INSERT INTO messages (account_id, person_id, kind, channel, recipient, body, status, created_at, updated_at) VALUES (?, ?, 'reminder', 'sms', ?, ?, 'sent', 1, 1)`,
            accountId,
            p.id,
            m.phone_number,
            `Hi ${m.name} ${n}`,
          ),
        ]),
      );
    }
    const res = await api.post(`/people/${p.id}/erase`);
    expect(res.status).toBe(200);
    expect(res.body.erasure.rows).toMatchObject({ people: 1, bookings: 1000, messages: 1000 });
    const left = await q(
      "SELECT (SELECT COUNT(*) FROM bookings WHERE person_id = ? AND title IS NOT NULL) + (SELECT COUNT(*) FROM messages WHERE person_id = ? AND body <> '') AS n",
      p.id,
      p.id,
    ).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it("shows the erased person in the since listing of /people/all with its fields gone", async () => {
    const m = marked();
    const p = await person(m);
    const since = encodeURIComponent(p.updated_at);
    await must(api.post(`/people/${p.id}/erase`));
    const listed = (await api.get(`/people/all?since=${since}`)).body.map((e: any) => e.person);
    const erased = listed.find((x: any) => x.id === p.id);
    expect(erased).toMatchObject({ name: null, email: null, phone_number: null, national_id_no: null, custom_data: null, active: false });
    expect(Date.parse(erased.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.updated_at));
  });

  it("changes nothing when the person was erased already, and says so", async () => {
    const p = await person(marked());
    const first = (await must(api.post(`/people/${p.id}/erase`))).erasure;
    const row = await q("SELECT updated_at, erased_at FROM people WHERE id = ?", p.id).first<any>();
    const again = await api.post(`/people/${p.id}/erase`);
    expect(again.status).toBe(200);
    expect(again.body.erasure).toEqual({ person: first.person, already_erased: true, rows: {} });
    expect(await q("SELECT updated_at, erased_at FROM people WHERE id = ?", p.id).first<any>()).toEqual(row);
  });

  it("keeps an erased person erased: update, undelete and merging into it are a 400 on base", async () => {
    const p = await person(marked());
    const other = await person(marked());
    await must(api.post(`/people/${p.id}/erase`));
    for (const res of [
      await api.put(`/people/${p.id}`, { person: { name: "Back again" } }),
      await api.put(`/people/${p.id}/undelete`, {}),
      await api.post(`/people/${p.id}/merge?merge_person_id=${other.id}`, {}),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ base: ["can't be changed: the person was erased"] });
    }
    expect(await q("SELECT name, active FROM people WHERE id = ?", p.id).first()).toEqual({ name: null, active: 0 });
  });

  it("answers 404 for another account's person, which stays as it was", async () => {
    const m = marked();
    const p = await person(m);
    expect((await other.post(`/people/${p.id}/erase`)).status).toBe(404);
    expect((await api.get(`/people/${p.id}`)).body.person.email).toBe(m.email);
  });

  it("tells subscribed integrators with person.erased, carrying the blank person", async () => {
    const hook = receiver();
    await must(api.post("/web_hooks", { web_hook: { target_url: hook.url, event: "person.erased" } }));
    const p = await person(marked());
    await must(api.post(`/people/${p.id}/erase`));
    // Earlier tests' erasures reach the hook too, when their events leave the queue after it was made.
    const mine = (r: { body: string }[]) => r.map((x) => JSON.parse(x.body)).find((body) => body.data.id === p.id);
    const sent = mine(await eventually(hook.requests, (r) => mine(r) !== undefined));
    expect(sent).toMatchObject({ event: "person.erased", data: { object: "person", id: p.id, person: { id: p.id, name: null, email: null } } });
  });

  it("never sends a message queued before the erasure", async () => {
    const m = marked();
    const p = await person(m);
    const row = await q(
      `INSERT INTO messages (account_id, person_id, kind, channel, recipient, body, status, created_at, updated_at) VALUES (?, ?, 'token', 'email', ?, 'hello', 'queued', 1, 1) RETURNING id`,
      accountId,
      p.id,
      m.email,
    ).first<{ id: number }>();
    await must(api.post(`/people/${p.id}/erase`));
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: row!.id, secret_body: `secret ${m.tag}` }]);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await q("SELECT status, provider, sent_at, recipient, body FROM messages WHERE id = ?", row!.id).first()).toEqual({
      status: "failed",
      provider: null,
      sent_at: null,
      recipient: "",
      body: "",
    });
  });

  it("leaves no personal field and no capacity wrong when bookings of the person race the erasure", async () => {
    const m = marked();
    const p = await person(m);
    const at = (i: number) => ({ from: `${MONDAY} 17:00`, to: `${MONDAY} 17:30`, i });
    const book = (i: number) =>
      api.post("/bookings", {
        booking: {
          resource_id: resourceId,
          service_id: serviceId,
          booked_from: at(i).from,
          booked_to: at(i).to,
          title: `Race ${m.tag}`,
          notes: `Race notes ${m.tag}`,
          custom_data: { k: `race ${m.tag}` },
          person_attributes: { email: m.email },
        },
      });
    const answers = await Promise.all([book(1), book(2), api.post(`/people/${p.id}/erase`), book(3), book(4), book(5)]);
    expect(answers[2].status).toBe(200);
    const statuses = answers.filter((_, i) => i !== 2).map((a) => a.status);
    for (const s of statuses) expect([200, 400]).toContain(s);

    const linked = await q("SELECT title, notes, custom_data FROM bookings WHERE account_id = ? AND person_id = ?", accountId, p.id).all();
    for (const row of linked.results) expect(row).toEqual({ title: null, notes: null, custom_data: null });
    const erased = await q("SELECT name, email, erased_at FROM people WHERE id = ?", p.id).first<any>();
    expect(erased).toMatchObject({ name: null, email: null });
    expect(erased.erased_at).not.toBeNull();

    // The chair seats 3: the race made at most 3 active bookings of that half hour, and the slot says what is left.
    const active = await q(
      "SELECT COALESCE(SUM(count), 0) AS n FROM bookings WHERE resource_id = ? AND active = 1 AND booked_from = (SELECT booked_from FROM bookings WHERE resource_id = ? AND title IS NULL AND person_id = ? LIMIT 1)",
      resourceId,
      resourceId,
      p.id,
    ).first<{ n: number }>();
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(3);
    expect(active!.n).toBeLessThanOrEqual(3);
  });
});

describe("GET /bookings/{id}/export on the booking site", () => {
  it("answers what the visitor's token opens, and 404 without it, with another booking's token or on another site", async () => {
    const site = publicSite(subdomain);
    const make = (email: string) =>
      site.post("/bookings", {
        booking: { service_id: serviceId, booked_from: `${MONDAY} 13:00`, booked_to: `${MONDAY} 13:30`, person_attributes: { name: "Vis", email } },
      });
    const a = await make(`visa${serial}@example.com`);
    const b = await make(`visb${serial}@example.com`);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const id = a.body.booking.id;
    const res = await site.get(`/bookings/${id}/export`, { "x-booking-token": a.body.booking_token });
    expect(res.status).toBe(200);
    expect(res.body.personal_data.booking_id).toBe(id);
    expect(res.body.personal_data.bookings.map((x: any) => x.id)).toEqual([id]);
    expect(res.body.personal_data.messages.every((x: any) => x.booking_id === id)).toBe(true);
    expect(res.body.personal_data).not.toHaveProperty("person");
    expect((await site.get(`/bookings/${id}/export`)).status).toBe(404);
    expect((await site.get(`/bookings/${id}/export`, { "x-booking-token": b.body.booking_token })).status).toBe(404);
    const elsewhere = publicSite((await newAccount()).account.subdomain);
    expect((await elsewhere.get(`/bookings/${id}/export`, { "x-booking-token": a.body.booking_token })).status).toBe(404);
  });
});

describe("the race triggers of drizzle/0026", () => {
  it("blank every personal column the registry names for bookings and messages", async () => {
    const triggers = await q("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%erased_person%'").all<{ name: string; sql: string }>();
    const bySql = (name: string) => triggers.results.find((t) => t.name === name)!.sql;
    for (const table of ["bookings", "messages"]) {
      const entry = PERSONAL_DATA.find((t) => t.table === table)!;
      if (entry.erasure.kind !== "overwrite") throw new Error(table);
      // What erasure writes to the column: its `also` where it has one (it wins over `set`), else its `set`.
      const writes = { ...entry.erasure.set, ...entry.erasure.also };
      for (const column of Object.keys(entry.erasure.set)) expect(bySql(`${table}_erased_person_insert`)).toContain(`${column} = ${writes[column]}`);
    }
  });
});
