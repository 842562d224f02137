// The sync contract (docs/decisions/sync.md): a client that pages through a `since` listing by its
// Link headers, while others write, then syncs again from the latest updated_at it saw, ends with
// every change, for bookings, people and events.
import { describe, expect, it } from "vitest";
import { newAccount, send, type Client } from "../support/api";
import { catalogue, env, must } from "../support/bookings";

const HOUR = 3_600_000;

interface Page {
  items: any[];
  next: string | null;
  headers: Headers;
}

async function readPage(api: Client, url: string): Promise<Page> {
  const res = await send("GET", url, { headers: { authorization: `Bearer ${api.apiKey}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1] ?? null;
  return { items: res.body, next, headers: res.headers };
}

/** What an integrator keeps: the newest version of each object, and the latest updated_at seen. */
class Mirror {
  readonly objects = new Map<number, any>();
  latest = "2000-01-01T00:00:00Z";

  constructor(readonly kind: string) {}

  take(items: any[]) {
    for (const item of items) {
      const object = item[this.kind];
      this.objects.set(object.id, object);
      if (Date.parse(object.updated_at) > Date.parse(this.latest)) this.latest = object.updated_at;
    }
  }
}

/** Every page of a listing, following rel="next" until there is none. */
async function syncPass(api: Client, mirror: Mirror, firstUrl: string, between: (page: number) => Promise<void> = async () => {}) {
  let url: string | null = firstUrl;
  let page = 0;
  while (url) {
    const read: Page = await readPage(api, url);
    mirror.take(read.items);
    page += 1;
    if (read.next) await between(page);
    url = read.next;
  }
  return page;
}

/** Waits into the next wall-clock second: answers show updated_at in whole seconds. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));

const sinceUrl = (path: string, since: string) => `http://api.test/api/v1${path}?since=${encodeURIComponent(since)}`;

/** The server's view when nobody writes: the listing read from the beginning of time. */
async function serverView(api: Client, kind: string, path: string) {
  const truth = new Mirror(kind);
  await syncPass(api, truth, sinceUrl(path, "2000-01-01"));
  return truth.objects;
}

/** `n` rows stamped one millisecond apart an hour ago, oldest first, as an earlier import left them. */
async function seedChanged(table: "bookings" | "people" | "events", n: number, columns: string, values: string, params: unknown[]) {
  const stampedAt = Date.now() - HOUR;
  await env.DB.prepare(
    `INSERT INTO ${table} (${columns}, created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
     SELECT ${values}, ${stampedAt} + i, ${stampedAt} + i FROM n`,
  )
    .bind(...params)
    .run();
}

/** `n` confirmed half-hour bookings an hour apart from `firstSlot`, each changed after the one before. */
const seedBookings = (accountId: number, resourceId: number, n: number, firstSlot: number, dated: "later" | "earlier") => {
  const sign = dated === "later" ? "+" : "-";
  return seedChanged(
    "bookings",
    n,
    "account_id, resource_id, booked_from, booked_to, state, active, count, title",
    `?, ?, ? ${sign} i * 3600000, ? ${sign} i * 3600000 + 1800000, 'confirmed', 1, 1, 'seeded ' || i`,
    [accountId, resourceId, firstSlot, firstSlot],
  );
};

const idsOfAccount = async (table: string, accountId: number) =>
  (await env.DB.prepare(`SELECT id FROM ${table} WHERE account_id = ? ORDER BY id`).bind(accountId).all<{ id: number }>()).results.map((r) => r.id);

describe("a since sync of bookings while bookings change", () => {
  it("pages through more than one page of 750 and, after one more sync, has every change", async () => {
    const { api, account } = await newAccount({ time_zone: "America/New_York", country_code: "US" });
    const make = catalogue(api);
    const resource = await make.resource({ capacity: 1000 });
    const firstSlot = Date.parse("2031-03-01T14:00:00Z");
    await seedBookings(account.id, resource.id, 800, firstSlot, "later");
    const seeded = await idsOfAccount("bookings", account.id);
    const book = (from: string, to: string, title: string) => make.booking({ resource_id: resource.id, booked_from: from, booked_to: to, title });

    const mirror = new Mirror("booking");
    let added: number[] = [];
    const pages = await syncPass(api, mirror, sinceUrl("/bookings/all", "2020-01-01"), async (page) => {
      if (page !== 1) return;
      // Between page 1 and page 2: bookings dated before and after the seeded ones, an edit and a
      // cancel of bookings already read, a move of one not read yet.
      added = [(await book("2030-01-02 09:00", "2030-01-02 10:00", "before everything")).id, (await book("2033-01-02 09:00", "2033-01-02 10:00", "after everything")).id];
      await must(api.put(`/bookings/${seeded[3]}`, { booking: { title: "edited after it was read" } }));
      await must(api.put(`/bookings/${seeded[10]}/cancel`));
      // A second later, so the latest updated_at the pass sees is not the second of the changes above.
      await nextSecond();
      await must(api.put(`/bookings/${seeded[780]}`, { booking: { booked_from: "2030-06-01 08:00", booked_to: "2030-06-01 09:00" } }));
      await must(api.put(`/bookings/${seeded[795]}`, { booking: { title: "edited before it was read" } }));
    });
    expect(pages).toBeGreaterThanOrEqual(2);

    // Changes after the pass: caught by the next sync from the latest updated_at seen.
    await must(api.put(`/bookings/${seeded[0]}`, { booking: { title: "edited after the pass" } }));
    added.push((await book("2029-12-31 09:00", "2029-12-31 10:00", "created after the pass")).id);
    await syncPass(api, mirror, sinceUrl("/bookings/all", mirror.latest));

    const truth = await serverView(api, "booking", "/bookings/all");
    expect(truth.size).toBe(803);
    expect([...mirror.objects.keys()].sort((a, b) => a - b)).toEqual([...truth.keys()].sort((a, b) => a - b));
    for (const [id, object] of truth) expect(mirror.objects.get(id), `booking ${id}`).toEqual(object);
    expect(mirror.objects.get(seeded[3]).title).toBe("edited after it was read");
    expect(mirror.objects.get(seeded[10]).state).toBe("cancelled");
    expect(mirror.objects.get(seeded[780]).booked_from).toBe("2030-06-01T08:00:00-04:00");
    expect(mirror.objects.get(seeded[795]).title).toBe("edited before it was read");
    expect(mirror.objects.get(seeded[0]).title).toBe("edited after the pass");
    for (const id of added) expect(mirror.objects.has(id)).toBe(true);
  });

  it("orders a since listing by updated_at then id, and carries a cursor in the next link only", async () => {
    const { api, account } = await newAccount();
    const resource = await catalogue(api).resource({ capacity: 1000 });
    const firstSlot = Date.parse("2031-03-01T10:00:00Z");
    // Booked in reverse: the latest slot changed first, so booked_from order would differ.
    await seedBookings(account.id, resource.id, 760, firstSlot, "earlier");
    const first = await readPage(api, sinceUrl("/bookings", "2020-01-01"));
    const stamps = first.items.map((i) => Date.parse(i.booking.updated_at));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    expect(first.items.map((i) => i.booking.id)).toEqual([...first.items.map((i) => i.booking.id)].sort((a, b) => a - b));
    expect(first.headers.get("total-count")).toBe("760");
    const link = first.headers.get("link")!;
    expect(first.next).toMatch(/[?&]cursor=\d+\.\d+/);
    expect(first.next).toMatch(/[?&]page=2/);
    expect(/<([^>]+)>;\s*rel="last"/.exec(link)![1]).not.toMatch(/cursor=/);

    const second = await readPage(api, first.next!);
    expect(second.items).toHaveLength(10);
    expect(second.next).toBeNull();
    expect(second.headers.get("current-page")).toBe("2");
    expect(second.headers.get("total-count")).toBe("760");

    // Without since, the listing keeps its booked_from order and has no cursor.
    const plain = await readPage(api, "http://api.test/api/v1/bookings");
    const froms = plain.items.map((i) => Date.parse(i.booking.booked_from));
    expect(froms).toEqual([...froms].sort((a, b) => a - b));
    expect(plain.next).not.toMatch(/cursor=/);
  });

  it("keeps an explicit order when asked, and refuses a cursor there", async () => {
    const { api } = await newAccount();
    const make = catalogue(api);
    const resource = await make.resource();
    const late = await make.booking({ resource_id: resource.id, booked_from: "2031-05-02 10:00", booked_to: "2031-05-02 11:00" });
    const early = await make.booking({ resource_id: resource.id, booked_from: "2031-05-01 10:00", booked_to: "2031-05-01 11:00" });
    const ordered = await api.get("/bookings?since=2020-01-01&order=booked_from_asc");
    expect(ordered.body.map((i: any) => i.booking.id)).toEqual([early.id, late.id]);
    const bySync = await api.get("/bookings?since=2020-01-01");
    expect(bySync.body.map((i: any) => i.booking.id)).toEqual([late.id, early.id]);
    const refused = await api.get("/bookings?since=2020-01-01&order=booked_from_asc&cursor=1.1");
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ cursor: [expect.stringContaining("since")] });
    expect((await api.get("/bookings?since=2020-01-01&cursor=yesterday")).body).toEqual({ cursor: [expect.any(String)] });
  });

  it("never skips a change made in the same second as the latest one seen", async () => {
    const { api, account } = await newAccount();
    const make = catalogue(api);
    const resource = await make.resource();
    const seen = await make.booking({ resource_id: resource.id, booked_from: "2031-05-01 10:00", booked_to: "2031-05-01 11:00" });
    const mirror = new Mirror("booking");
    await syncPass(api, mirror, sinceUrl("/bookings/all", "2020-01-01"));
    expect(mirror.latest).toBe(seen.updated_at);
    // A write whose clock read the start of that second (e.g. it waited on a capacity guard) commits now.
    const second = Math.floor(Date.parse(seen.updated_at) / 1000) * 1000;
    await env.DB.prepare(
      `INSERT INTO bookings (account_id, resource_id, booked_from, booked_to, state, active, count, title, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'confirmed', 1, 1, 'late commit', ?, ?)`,
    )
      .bind(account.id, resource.id, Date.parse("2031-05-03T10:00:00Z"), Date.parse("2031-05-03T11:00:00Z"), second, second)
      .run();
    await syncPass(api, mirror, sinceUrl("/bookings/all", mirror.latest));
    expect([...mirror.objects.values()].map((b) => b.title)).toContain("late commit");
  });

  it("stores a lagging write's updated_at no earlier than the account's latest change", async () => {
    const { api, account } = await newAccount();
    const make = catalogue(api);
    const resource = await make.resource();
    const newest = await make.booking({ resource_id: resource.id, booked_from: "2031-05-01 10:00", booked_to: "2031-05-01 11:00" });
    const stored = await env.DB.prepare("SELECT updated_at FROM bookings WHERE id = ?").bind(newest.id).first<{ updated_at: number }>();
    await env.DB.prepare(
      `INSERT INTO bookings (account_id, resource_id, booked_from, booked_to, state, active, count, title, created_at, updated_at)
       VALUES (?, ?, 0, 1, 'confirmed', 1, 1, 'lagging', 5, 5)`,
    )
      .bind(account.id, resource.id)
      .run();
    const lagging = await env.DB.prepare("SELECT updated_at FROM bookings WHERE title = 'lagging' AND account_id = ?").bind(account.id).first<{ updated_at: number }>();
    expect(lagging!.updated_at).toBe(stored!.updated_at);
    // Another account's clock is its own.
    const other = await newAccount();
    await env.DB.prepare(
      `INSERT INTO bookings (account_id, resource_id, booked_from, booked_to, state, active, count, title, created_at, updated_at)
       VALUES (?, ?, 0, 1, 'confirmed', 1, 1, 'other', 5, 5)`,
    )
      .bind(other.account.id, resource.id)
      .run();
    const untouched = await env.DB.prepare("SELECT updated_at FROM bookings WHERE title = 'other' AND account_id = ?")
      .bind(other.account.id)
      .first<{ updated_at: number }>();
    expect(untouched!.updated_at).toBe(5);
  });
});

describe("GET /api/v1/bookings/recent while bookings change", () => {
  it("pages newest first; what changes during the pass is read by the next sync", async () => {
    const { api, account } = await newAccount();
    const make = catalogue(api);
    const resource = await make.resource({ capacity: 1000 });
    await seedBookings(account.id, resource.id, 760, Date.parse("2031-03-01T10:00:00Z"), "later");
    const seeded = await idsOfAccount("bookings", account.id);
    const mirror = new Mirror("booking");
    await syncPass(api, mirror, "http://api.test/api/v1/bookings/recent", async () => {
      // Page 1 holds the newest 750; a cancel there leaves the listing, which must not cost an
      // unread booking its place on page 2.
      await must(api.put(`/bookings/${seeded[700]}/cancel`));
    });
    for (const id of seeded) if (id !== seeded[700]) expect(mirror.objects.has(id), `booking ${id}`).toBe(true);

    // An edit during the next pass moves an unread booking to the top, already read: the sync after reads it.
    await syncPass(api, mirror, "http://api.test/api/v1/bookings/recent", async () => {
      await nextSecond();
      await must(api.put(`/bookings/${seeded[2]}`, { booking: { title: "edited while unread" } }));
    });
    await syncPass(api, mirror, sinceUrl("/bookings/recent", mirror.latest));
    expect(mirror.objects.get(seeded[2]).title).toBe("edited while unread");
  });
});

describe("a since sync of people while people change", () => {
  it("pages by 50 and, after one more sync, has every change", async () => {
    const { api, account } = await newAccount();
    await seedChanged("people", 70, "account_id, name, active", "?, 'Seeded ' || i, 1", [account.id]);
    const seeded = await idsOfAccount("people", account.id);
    const mirror = new Mirror("person");
    let added = 0;
    await syncPass(api, mirror, sinceUrl("/people/all", "2020-01-01"), async (page) => {
      if (page !== 1) return;
      added = (await must(api.post("/people", { person: { name: "New during the pass" } }))).person.id;
      await must(api.put(`/people/${seeded[4]}`, { person: { name: "Edited after it was read" } }));
      await must(api.delete(`/people/${seeded[6]}`));
      await nextSecond();
      await must(api.put(`/people/${seeded[60]}`, { person: { name: "Edited before it was read" } }));
    });
    await must(api.put(`/people/${seeded[1]}`, { person: { name: "Edited after the pass" } }));
    await syncPass(api, mirror, sinceUrl("/people/all", mirror.latest));

    const truth = await serverView(api, "person", "/people/all");
    expect(truth.size).toBe(71);
    for (const [id, object] of truth) expect(mirror.objects.get(id), `person ${id}`).toEqual(object);
    expect(mirror.objects.get(seeded[4]).name).toBe("Edited after it was read");
    expect(mirror.objects.get(seeded[6]).active).toBe(false);
    expect(mirror.objects.get(seeded[1]).name).toBe("Edited after the pass");
    expect(mirror.objects.has(added)).toBe(true);
  });
});

describe("a since sync of events while events change", () => {
  it("pages by 50 and, after one more sync, has every change, deletions included", async () => {
    const { api, account } = await newAccount();
    const make = catalogue(api);
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const firstStart = Date.parse("2031-03-01T17:00:00Z");
    await seedChanged(
      "events",
      70,
      "account_id, resource_id, service_id, capacity, starts_at, ends_at, title, active, published",
      "?, ?, ?, 10, ? + i * 86400000, ? + i * 86400000 + 3600000, 'Seeded ' || i, 1, 1",
      [account.id, resource.id, service.id, firstStart, firstStart],
    );
    const seeded = await idsOfAccount("events", account.id);
    const mirror = new Mirror("event");
    let early = 0;
    await syncPass(api, mirror, sinceUrl("/events", "2020-01-01"), async (page) => {
      if (page !== 1) return;
      early = await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 5, starts: "2030-01-05 18:00", ends: "2030-01-05 19:00" });
      await must(api.put(`/events/${seeded[2]}`, { event: { title: "Edited after it was read" } }));
      await must(api.delete(`/events/${seeded[5]}`));
      await nextSecond();
      await must(api.put(`/events/${seeded[65]}`, { event: { starts_at: "2030-02-01 18:00", ends_at: "2030-02-01 19:00" } }));
    });
    await must(api.put(`/events/${seeded[0]}`, { event: { title: "Edited after the pass" } }));
    await syncPass(api, mirror, sinceUrl("/events", mirror.latest));

    const truth = await serverView(api, "event", "/events");
    expect(truth.size).toBe(71);
    for (const [id, object] of truth) expect(mirror.objects.get(id), `event ${id}`).toEqual(object);
    expect(mirror.objects.get(seeded[2]).title).toBe("Edited after it was read");
    expect(mirror.objects.get(seeded[5]).active).toBe(false);
    expect(mirror.objects.get(seeded[0]).title).toBe("Edited after the pass");
    expect(mirror.objects.has(early)).toBe(true);
    // Without since, deleted events stay out of the list.
    expect((await api.get("/events?page=1")).body.map((i: any) => i.event.id)).not.toContain(seeded[5]);
  });
});
