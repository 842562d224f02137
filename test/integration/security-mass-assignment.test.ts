// Mass assignment on every write route: ids, account_id, state, active, timestamps,
// verification_code, collection_id, the web hook secret and the operator-only account fields
// are sent everywhere (in the wrapper and beside it) and never stored.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, publicSite, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { uniquePhone } from "../support/messages";
import { settledCollection } from "../support/security";

let api: Client;
let account: any;
let otherAccountId: number;
let webhookSecret: string;
let ids: Record<string, number>;
const STARTED = Date.now();
const FORGED_ID = 987_654;
const FORGED_UUID = "00000000-0000-4000-8000-000000000000";

/**
 * Everything a client must never set, in input form. `expires_at` is not here: it is a booking
 * input (spec: Booking; compat.md), tested in compat-points.test.ts.
 */
const forged = () => ({
  id: FORGED_ID,
  account_id: otherAccountId,
  state: "cancelled",
  active: false,
  created_at: "2001-01-01 00:00",
  updated_at: "2001-01-01 00:00",
  verification_code: "00000",
  collection_id: FORGED_UUID,
  reminded_at: "2001-01-01 00:00",
  availability: 999,
  user_id: FORGED_ID,
  webhook_secret: "whsec_forged",
  secret: "forged",
  api_enabled: false,
  billing_status: "unpaid",
  phone_e164: "+4700000000",
  key_hash: "forged",
});
const withForged = (wrapper: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...forged(),
  ...extra,
  [wrapper]: { ...forged(), ...attributes },
});

const row = (table: string, id: number) => env.DB.prepare(`SELECT * FROM "${table}" WHERE id = ?`).bind(id).first<Record<string, any>>();

/** A stored row that took none of the forged values: own account, real id, timestamps of now. */
function expectUnforged(stored: Record<string, any> | null, opts: { active?: boolean } = {}) {
  expect(stored).not.toBeNull();
  expect(stored!.id).not.toBe(FORGED_ID);
  expect(stored!.account_id).toBe(account.id);
  if ("created_at" in stored!) expect(stored!.created_at).toBeGreaterThanOrEqual(STARTED);
  if ("updated_at" in stored!) expect(stored!.updated_at).toBeGreaterThanOrEqual(STARTED);
  if ("active" in stored! && opts.active !== undefined) expect(Boolean(stored!.active)).toBe(opts.active);
  if ("collection_id" in stored!) expect(stored!.collection_id).not.toBe(FORGED_UUID);
  if ("verification_code" in stored!) expect(stored!.verification_code).not.toBe("00000");
}

beforeAll(async () => {
  const created = await newAccount();
  ({ api, account, webhookSecret } = created);
  otherAccountId = (await newAccount()).account.id;
  const make = catalogue(api);
  const resource = await make.resource();
  const service = await make.service();
  const attendance = await make.service({ booking_type: "attendance" });
  await make.provider(resource.id, service.id);
  ids = { resource: resource.id, service: service.id, attendance: attendance.id };
});

describe("creates", () => {
  const creates: [string, string, () => Record<string, unknown>, string, string][] = [
    ["POST /resources", "/resources", () => withForged("resource", { title: "Room 2" }), "resource", "resources"],
    ["POST /services", "/services", () => withForged("service", { title: "Colour" }), "service", "services"],
    ["POST /people", "/people", () => withForged("person", { name: "Ann" }), "person", "people"],
    ["POST /categories", "/categories", () => withForged("category", { title: "Hair" }), "category", "categories"],
    ["POST /providers", "/providers", () => withForged("provider", { resource_id: ids.resource, service_id: ids.attendance }), "provider", "providers"],
    [
      "POST /events",
      "/events",
      () => withForged("event", { resource_id: ids.resource, service_id: ids.attendance, capacity: 2, starts_at: "2030-01-07 10:00", ends_at: "2030-01-07 11:00" }),
      "event",
      "events",
    ],
    ["POST /web_hooks", "/web_hooks", () => withForged("web_hook", { target_url: "https://hooks.example.com/a", event: "*", active: false }), "web_hook", "web_hooks"],
    [
      "POST /bookings",
      "/bookings",
      () => withForged("booking", { resource_id: ids.resource, booked_from: "2030-01-08 10:00", booked_to: "2030-01-08 11:00" }),
      "booking",
      "bookings",
    ],
  ];

  it.each(creates)("%s stores none of the forged attributes", async (_name, path, payload, kind, table) => {
    const res = await api.post(path, payload());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await row(table, res.body[kind].id);
    // A web hook's `active` is input (the only way to pause one), so its row is inactive as asked.
    expectUnforged(stored, { active: kind !== "web_hook" });
    if (kind === "booking") expect(stored).toMatchObject({ state: "confirmed", verification_code: null, expires_at: null, reminded_at: null, collection_id: null });
    if (kind === "event") expect(stored!.collection_id).toBeNull();
  });

  it("POST /client/users links a user of this account with the role asked for, whatever ids are sent", async () => {
    const res = await api.post("/client/users", withForged("user", { name: "Staff", email: "staff@example.com" }, { role: "manager" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const link = await row("user_links", res.body.client_user_link.id);
    expectUnforged(link);
    expect(link!.user_id).not.toBe(FORGED_ID);
    expectUnforged(await row("users", link!.user_id));
  });

  it("POST /bookings/recurring and /events/recurring get a collection id of their own", async () => {
    const bookings = await api.post(
      "/bookings/recurring",
      withForged(
        "booking",
        { resource_id: ids.resource, booked_from: "2030-02-01 10:00", booked_to: "2030-02-01 11:00" },
        { recurring: { rrule: "FREQ=DAILY;COUNT=2", collection_id: FORGED_UUID } },
      ),
    );
    const events = await api.post(
      "/events/recurring",
      withForged(
        "event",
        { resource_id: ids.resource, service_id: ids.attendance, capacity: 2, starts_at: "2030-02-01 12:00", ends_at: "2030-02-01 13:00" },
        { recurrence: { rrule: "FREQ=DAILY;COUNT=2", collection_id: FORGED_UUID } },
      ),
    );
    for (const [res, kind, table] of [
      [bookings, "bookings", "bookings"],
      [events, "events", "events"],
    ] as const) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.collection_id).not.toBe(FORGED_UUID);
      await settledCollection(api, kind, res.body.collection_id);
      const { results } = await env.DB.prepare(`SELECT * FROM ${table} WHERE collection_id = ?`).bind(res.body.collection_id).all<Record<string, any>>();
      expect(results).toHaveLength(2);
      for (const stored of results) expectUnforged(stored, { active: true });
    }
  });

  it("the site's POST /bookings takes no state, code, person id or account from its visitor", async () => {
    const person = await catalogue(api).person({ name: "Stored", email: "stored@example.com" });
    const res = await publicSite(account.subdomain).post(
      "/bookings",
      withForged(
        "booking",
        {
          service_id: ids.service,
          booked_from: "2030-01-09 10:00",
          booked_to: "2030-01-09 11:00",
          person_id: person.id,
          person_attributes: { name: "Visitor", phone_number: uniquePhone() },
        },
        { confirm: true },
      ),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await rawBooking(res.body.booking.id);
    expectUnforged(stored, { active: true });
    expect(stored!.state).toBe("confirmed");
    expect(stored!.person_id).not.toBe(person.id);
    expect(stored!.verification_code).toBeNull();
  });
});

describe("updates and actions", () => {
  it("PUT on resources, services, people, categories, events and web hooks keeps id, account, active and created_at", async () => {
    const make = catalogue(api);
    const targets: [string, string, string, number][] = [
      ["/resources", "resource", "resources", (await make.resource()).id],
      ["/services", "service", "services", (await make.service()).id],
      ["/people", "person", "people", (await make.person()).id],
      ["/categories", "category", "categories", (await must(api.post("/categories", { category: { title: "C" } }))).category.id],
      [
        "/events",
        "event",
        "events",
        await make.event({ resourceId: ids.resource, serviceId: ids.attendance, capacity: 2, starts: "2030-01-10 10:00", ends: "2030-01-10 11:00" }),
      ],
      [
        "/web_hooks",
        "web_hook",
        "web_hooks",
        (await must(api.post("/web_hooks", { web_hook: { target_url: "https://hooks.example.com/b", event: "*", active: false } }))).web_hook.id,
      ],
    ];
    for (const [path, kind, table, id] of targets) {
      const before = await row(table, id);
      const res = await api.put(`${path}/${id}`, withForged(kind, { title: "Renamed", name: "Renamed" }));
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
      const after = await row(table, id);
      expect({ path, id: after!.id, account_id: after!.account_id, created_at: after!.created_at, active: after!.active, collection_id: after!.collection_id }).toEqual({
        path,
        id,
        account_id: account.id,
        created_at: before!.created_at,
        active: before!.active,
        collection_id: before!.collection_id,
      });
      expect(after!.updated_at).toBeGreaterThanOrEqual(before!.updated_at);
    }
  });

  it("PUT /bookings/{id}, its actions and status never take state, active, code, collection or timestamps from the body", async () => {
    const booking = await catalogue(api).booking({ resource_id: ids.resource, booked_from: "2030-01-11 10:00", booked_to: "2030-01-11 11:00" });
    const before = await rawBooking(booking.id);
    for (const [path, body] of [
      [`/bookings/${booking.id}`, withForged("booking", { title: "Moved" })],
      [`/bookings/${booking.id}/status`, { ...forged(), status: "paid", booking: forged() }],
      [`/bookings/${booking.id}/verify_code`, { ...forged(), verification_code: "00000" }],
    ] as const) {
      const res = await api.put(path, body);
      expect([200, 400], path).toContain(res.status);
      const after = await rawBooking(booking.id);
      expect({
        path,
        state: after!.state,
        active: after!.active,
        code: after!.verification_code,
        collection: after!.collection_id,
        created_at: after!.created_at,
        account: after!.account_id,
        expires_at: after!.expires_at,
      }).toEqual({
        path,
        state: "confirmed",
        active: before!.active,
        code: null,
        collection: null,
        created_at: before!.created_at,
        account: account.id,
        expires_at: null,
      });
    }
    const cancelled = await api.put(`/bookings/${booking.id}/cancel`, { ...forged(), state: "confirmed", active: true });
    expect(cancelled.body.booking).toMatchObject({ state: "cancelled", active: false });
    expect(await rawBooking(booking.id)).toMatchObject({ state: "cancelled", active: 0, account_id: account.id });
  });

  it("exception dates keep their resource and created_at whatever the body names", async () => {
    const path = `/resources/${ids.resource}/exception_dates/2030-03-03`;
    await must(api.put(path, { resource_exception_date: { opening_hours: ["09:00", "10:00"] } }));
    // Every row the forged body could have moved or added: its resources and its accounts, ours included.
    const read = () =>
      env.DB.prepare("SELECT * FROM resource_exception_dates WHERE exception_date = '2030-03-03' AND (resource_id IN (?, ?) OR account_id IN (?, ?))")
        .bind(ids.resource, FORGED_ID, account.id, otherAccountId)
        .all<Record<string, any>>();
    const [before] = (await read()).results;
    await must(
      api.put(path, {
        ...forged(),
        resource_id: FORGED_ID,
        resource_exception_date: { ...forged(), resource_id: FORGED_ID, exception_date: "2030-04-04", opening_hours: ["10:00", "11:00"] },
      }),
    );
    const after = (await read()).results;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ resource_id: ids.resource, account_id: account.id, created_at: before.created_at });
  });

  it("merge keeps the kept person active and in this account whatever the person body says", async () => {
    const make = catalogue(api);
    const kept = await make.person({ name: "Kept" });
    const merged = await make.person({ name: "Merged" });
    const res = await api.post(`/people/${kept.id}/merge?merge_person_id=${merged.id}`, withForged("person", { city: "Oslo" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await row("people", kept.id)).toMatchObject({ id: kept.id, account_id: account.id, active: 1, city: "Oslo" });
  });

  it("PUT /client takes neither api_enabled, billing_status, the web hook secret nor ids", async () => {
    const before = await row("accounts", account.id);
    const res = await api.put("/client", { ...forged(), client: { ...forged(), name: "Renamed studio" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await row("accounts", account.id);
    expect({
      id: after!.id,
      api_enabled: after!.api_enabled,
      billing_status: after!.billing_status,
      webhook_secret: after!.webhook_secret,
      created_at: after!.created_at,
    }).toEqual({
      id: account.id,
      api_enabled: before!.api_enabled,
      billing_status: before!.billing_status,
      webhook_secret: webhookSecret,
      created_at: before!.created_at,
    });
    expect(after!.name).toBe("Renamed studio");
    expect((await api.get("/client")).status).toBe(200);
  });
});
