import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, send, type Client } from "../support/api";
import { openDb } from "../../src/db/client";
import type { Account } from "../../src/db/schema";
import { rethrowUniqueViolation } from "../../src/features/people/identity";
import { findMatchingPerson } from "../../src/features/people/service";
import { people } from "../../src/db/schema";
import { ApiError } from "../../src/http/errors";
import { durableCapacityGuard } from "../../src/durable-objects/guard-client";

let api: Client;
let other: Client;
let accountId: number;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  other = (await newAccount()).api;
});

let sequence = 0;
/** A person with unique identifiers unless the test names its own. */
const createPerson = async (attributes: Record<string, unknown> = {}, client = api) => {
  sequence += 1;
  const res = await client.post("/people", { person: { name: `Person ${sequence}`, ...attributes } });
  expect(res.status).toBe(200);
  return res.body.person;
};

const show = async (id: number) => (await api.get(`/people/${id}`)).body.person;
const ids = (body: any[]) => body.map((e) => e.person.id);

/** Bookings are another feature: rows go straight into D1 so merge has something to move. */
async function seedBooking(personId: number, account = accountId): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO bookings (account_id, resource_id, person_id, booked_from, booked_to, state, created_at, updated_at)
     VALUES (?, 1, ?, 0, 3600000, 'confirmed', 0, 0) RETURNING id`,
  )
    .bind(account, personId)
    .first<{ id: number }>();
  return row!.id;
}

const bookingOwner = async (bookingId: number) =>
  (await env.DB.prepare("SELECT person_id, updated_at FROM bookings WHERE id = ?").bind(bookingId).first<{ person_id: number; updated_at: number }>())!;

const OSLO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;

describe("POST /api/v1/people", () => {
  it("creates a person and answers every field, phone_number_formatted in E.164 from the account country", async () => {
    const parent = await createPerson();
    const res = await api.post("/people", {
      person: {
        name: "Kari Nordmann",
        email: "  Kari@Example.COM ",
        phone_number: "912 34 567",
        external_id: "crm-1",
        custom_data: { vip: true, seen_at: "2030-01-07 10:00" },
        date_of_birth: "1990-05-17",
        national_id_no: "17059012345",
        street: "Storgata 1",
        city: "Oslo",
        postal_code: "0155",
        state: "Oslo",
        country_code: "no",
        notes: "Prefers mornings",
        parent_id: parent.id,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      person: {
        id: expect.any(Number),
        name: "Kari Nordmann",
        email: "kari@example.com",
        phone_number: "912 34 567",
        phonenumber: "912 34 567",
        phone_number_formatted: "+4791234567",
        external_id: "crm-1",
        custom_data: { vip: true, seen_at: "2030-01-07T10:00:00+01:00" },
        date_of_birth: "1990-05-17",
        national_id_no: "17059012345",
        street: "Storgata 1",
        city: "Oslo",
        postal_code: "0155",
        state: "Oslo",
        country_code: "NO",
        notes: "Prefers mornings",
        parent_id: parent.id,
        active: true,
        created_at: expect.stringMatching(OSLO),
        updated_at: expect.stringMatching(OSLO),
      },
    });
  });

  it("takes form data with bracket names", async () => {
    const res = await api.form("POST", "/people", "person[name]=Ola&person[phone_number]=%2B46 70 123 45 67&person[custom_data][size]=M");
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({
      name: "Ola",
      phone_number: "+46 70 123 45 67",
      phone_number_formatted: "+46701234567",
      custom_data: { size: "M" },
    });
  });

  it("accepts the deprecated phonenumber alias as input", async () => {
    const person = await createPerson({ phonenumber: "22 33 44 55" });
    expect(person).toMatchObject({ phone_number: "22 33 44 55", phonenumber: "22 33 44 55", phone_number_formatted: "+4722334455" });
  });

  it("needs one of name, email, national id number or phone number; blank ones do not count", async () => {
    const res = await api.post("/people", { person: { name: "   ", city: "Oslo" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ base: ["Name, email, national id number or phone number must be given"] });
  });

  it("answers 400 keyed by attribute for each invalid field", async () => {
    const res = await api.post("/people", {
      person: {
        name: "X",
        email: "not-an-email",
        phone_number: "call me",
        date_of_birth: "1990-02-30",
        country_code: "XX",
        custom_data: { nested: { no: 1 } },
        parent_id: "abc",
        notes: "n".repeat(20_001),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      email: ["is not a valid email address"],
      phone_number: ["is not a valid phone number"],
      date_of_birth: ["is not a valid date: use YYYY-MM-DD"],
      country_code: ["is not an ISO 3166-1 alpha-2 country code"],
      custom_data: ["value of nested must be text, a number or a boolean"],
      parent_id: ["is not an integer"],
      notes: ["is too long (maximum is 20000 characters)"],
    });
  });

  it("answers 400 on phone_number when the digits make no number, read in the account's country", async () => {
    const res = await api.post("/people", { person: { name: "Short", phone_number: "12" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ phone_number: ["is not a valid phone number"] });
  });

  it("answers 400 on parent_id for an unknown person and for another tenant's person", async () => {
    const foreign = await createPerson({}, other);
    for (const parent_id of [999999, foreign.id]) {
      const res = await api.post("/people", { person: { name: "Child", parent_id } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ parent_id: ["is not a person of this account"] });
    }
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/people", { name: "Bare" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ person: [expect.stringContaining('{"person"')] });
  });

  it("rejects email (any case), phone (any formatting) and national id already taken, also by a deactivated person", async () => {
    const holder = await createPerson({ email: "taken@example.com", phone_number: "+47 40 00 00 01", national_id_no: "NID-1" });
    await api.delete(`/people/${holder.id}`);
    const res = await api.post("/people", { person: { email: "TAKEN@example.com", phone_number: "400 00 001", national_id_no: "NID-1" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      email: ["has already been taken"],
      phone_number: ["has already been taken"],
      national_id_no: ["has already been taken"],
    });
    expect((await api.get("/people/all?national_id_no=NID-1")).body).toHaveLength(1);
  });

  it("allows the same email in another account", async () => {
    await createPerson({ email: "shared@example.com" });
    expect((await createPerson({ email: "shared@example.com" }, other)).email).toBe("shared@example.com");
  });

  it("answers 400, never 500, when two creates race for the same email", async () => {
    const attempt = () => api.post("/people", { person: { email: "race@example.com" } });
    const results = await Promise.all([attempt(), attempt(), attempt()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const r of results.filter((r) => r.status === 400)) expect(r.body).toEqual({ email: ["has already been taken"] });
  });

  it("ignores read-only and unknown attributes", async () => {
    const person = await createPerson({ id: 999999, active: false, account_id: 1, phone_e164: "+1", created_at: "2001-01-01 00:00", shoe: 42 });
    expect(person.id).not.toBe(999999);
    expect(person.active).toBe(true);
    expect(person.phone_number_formatted).toBeNull();
    expect(person.created_at.startsWith("2001")).toBe(false);
    expect(person).not.toHaveProperty("shoe");
    expect(person).not.toHaveProperty("account_id");
    expect(person).not.toHaveProperty("phone_e164");
  });
});

describe("GET /api/v1/people", () => {
  // A tenant of its own, so these lists hold only what each test seeds.
  let listApi: Client;
  beforeAll(async () => {
    listApi = (await newAccount()).api;
  });

  const seed = async (attributes: Record<string, unknown>) => {
    const res = await listApi.post("/people", { person: attributes });
    expect(res.status).toBe(200);
    return res.body.person;
  };

  it("lists active people only, wrapped as person, oldest first", async () => {
    const a = await seed({ name: "Alice" });
    const b = await seed({ name: "Bob" });
    const gone = await seed({ name: "Gone" });
    await listApi.delete(`/people/${gone.id}`);
    const res = await listApi.get("/people");
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([a.id, b.id]);
    expect(res.body[0]).toEqual({ person: a });
  });

  // A national id is sealed at rest and found only whole, through its keyed hash (docs/decisions/personal-data.md).
  it("filters by a case-insensitive substring search over name, email and phone, and by a whole national id", async () => {
    const byName = await seed({ name: "Ingrid Søvik" });
    const byEmail = await seed({ email: "ingrid.b@example.com" });
    const byNid = await seed({ national_id_no: "XINGRIDX" });
    const byPhone = await seed({ phone_number: "915 55 123" });
    await seed({ name: "Unrelated" });
    expect(ids((await listApi.get("/people?search=INGRID")).body)).toEqual([byName.id, byEmail.id]);
    expect(ids((await listApi.get("/people?search=XINGRIDX")).body)).toEqual([byNid.id]);
    expect(ids((await listApi.get("/people?search=55%20123")).body)).toEqual([byPhone.id]);
    expect(ids((await listApi.get("/people?search=%2B4791555123")).body)).toEqual([byPhone.id]);
    expect((await listApi.get("/people?search=%25")).body).toEqual([]);
  });

  it("filters by exact email, phone (by E.164), external_id, name, date_of_birth and national_id_no, combined", async () => {
    const p = await seed({
      name: "Filter Me",
      email: "filter@example.com",
      phone_number: "+47 916 00 000",
      external_id: "ext-9",
      date_of_birth: "1980-01-02",
      national_id_no: "NID-F",
    });
    const twin = await seed({ name: "Filter Me", date_of_birth: "1980-01-02" });
    const one = async (q: string) => ids((await listApi.get(`/people?${q}`)).body);
    expect(await one("email=FILTER@example.com")).toEqual([p.id]);
    expect(await one("phone_number=91600000")).toEqual([p.id]);
    expect(await one("phone_number=not-a-phone")).toEqual([]);
    expect(await one("external_id=ext-9")).toEqual([p.id]);
    expect(await one("name=filter%20me")).toEqual([p.id, twin.id]);
    expect(await one("date_of_birth=1980-01-02")).toEqual([p.id, twin.id]);
    expect(await one("national_id_no=NID-F")).toEqual([p.id]);
    expect(await one("name=Filter%20Me&date_of_birth=1980-01-02&external_id=ext-9")).toEqual([p.id]);
  });

  it("filters by since: updated_at after the value, read in the account zone", async () => {
    const early = await seed({ name: "Early" });
    const late = await seed({ name: "Late" });
    const at = (wall: string) => Date.parse(wall);
    await env.DB.batch([
      env.DB.prepare("UPDATE people SET updated_at = ? WHERE id = ?").bind(at("2040-01-01T09:00:00Z"), early.id),
      env.DB.prepare("UPDATE people SET updated_at = ? WHERE id = ?").bind(at("2040-01-01T11:00:00Z"), late.id),
    ]);
    // 11:00 Oslo is 10:00 UTC: after Early, before Late.
    const res = await listApi.get("/people?since=2040-01-01%2011:00");
    expect(ids(res.body)).toEqual([late.id]);
    expect(res.body[0].person.updated_at).toBe("2040-01-01T12:00:00+01:00");
    expect(ids((await listApi.get("/people?since=2040-01-01T10:30:00Z")).body)).toEqual([late.id]);
  });

  it("answers 400 on since, date_of_birth and page when they are not readable", async () => {
    for (const [q, attribute] of [
      ["since=yesterday", "since"],
      ["since=2040-02-30", "since"],
      ["date_of_birth=1980-13-01", "date_of_birth"],
      ["page=0", "page"],
    ]) {
      const res = await listApi.get(`/people?${q}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [attribute]: [expect.any(String)] });
    }
  });

  it("pages by 50 with the RFC 8288 Link and count headers", async () => {
    const fresh = await newAccount();
    const freshId = fresh.account.id;
    await env.DB.batch(
      Array.from({ length: 51 }, (_, i) =>
        env.DB.prepare("INSERT INTO people (account_id, name, active, created_at, updated_at) VALUES (?, ?, 1, 0, 0)").bind(freshId, `P${i}`),
      ),
    );
    const first = await fresh.api.get("/people");
    expect(first.body).toHaveLength(50);
    const second = await fresh.api.get("/people?page=2");
    expect(second.body.map((e: any) => e.person.name)).toEqual(["P50"]);
    expect(Object.fromEntries(["Current-Page", "Page-Items", "Total-Count", "Total-Pages"].map((h) => [h, second.headers.get(h)]))).toEqual({
      "Current-Page": "2",
      "Page-Items": "1",
      "Total-Count": "51",
      "Total-Pages": "2",
    });
    expect(second.headers.get("Link")).toContain('page=1>; rel="first"');
    expect(second.headers.get("Link")).toContain('page=1>; rel="prev"');
    expect(second.headers.get("Link")).toContain('page=2>; rel="last"');
  });

  it("never shows another tenant's people", async () => {
    const foreign = await createPerson({ name: "Foreign Only" }, other);
    expect(ids((await listApi.get("/people/all?name=Foreign%20Only")).body)).not.toContain(foreign.id);
  });
});

describe("GET /api/v1/people/all", () => {
  it("includes deactivated people, and takes the same filters", async () => {
    const active = await createPerson({ external_id: "all-1" });
    const gone = await createPerson({ external_id: "all-1-gone" });
    await api.delete(`/people/${gone.id}`);
    const byExternal = await api.get("/people/all?external_id=all-1-gone");
    expect(byExternal.status).toBe(200);
    expect(byExternal.body).toEqual([{ person: expect.objectContaining({ id: gone.id, active: false }) }]);
    expect(ids((await api.get("/people?external_id=all-1-gone")).body)).toEqual([]);
    expect(ids((await api.get("/people/all?external_id=all-1")).body)).toEqual([active.id]);
    expect((await api.get("/people/all?since=soon")).status).toBe(400);
  });
});

describe("GET /api/v1/people/{id}", () => {
  it("returns a deactivated person with active=false", async () => {
    const person = await createPerson();
    await api.delete(`/people/${person.id}`);
    const res = await api.get(`/people/${person.id}`);
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({ id: person.id, active: false });
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's id", async () => {
    const person = await createPerson();
    expect((await api.get("/people/999999")).status).toBe(404);
    expect((await api.get("/people/perishable_token")).status).toBe(404);
    const foreign = await other.get(`/people/${person.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("PUT /api/v1/people/{id}", () => {
  it("updates only the attributes sent; empty values clear; custom_data is replaced whole", async () => {
    const person = await createPerson({ email: "keep@example.com", city: "Bergen", phone_number: "91234000", custom_data: { a: "1" } });
    const res = await api.put(`/people/${person.id}`, { person: { city: "", phone_number: null, custom_data: { b: "2" } } });
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({
      name: person.name,
      email: "keep@example.com",
      city: null,
      phone_number: null,
      phonenumber: null,
      phone_number_formatted: null,
      custom_data: { b: "2" },
    });
  });

  it("takes form data", async () => {
    const person = await createPerson();
    const res = await api.form("PUT", `/people/${person.id}`, "person[postal_code]=5003");
    expect(res.status).toBe(200);
    expect(res.body.person.postal_code).toBe("5003");
  });

  it("keeps the person's own identifiers without calling them taken", async () => {
    const person = await createPerson({ email: "self@example.com", national_id_no: "SELF-1" });
    const res = await api.put(`/people/${person.id}`, { person: { email: "SELF@example.com", national_id_no: "SELF-1" } });
    expect(res.status).toBe(200);
  });

  it("answers 400 on base when the update would leave no identifier, and changes nothing", async () => {
    const person = await createPerson({ name: null, email: "only@example.com" });
    const res = await api.put(`/people/${person.id}`, { person: { email: "", city: "Tromsø" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ base: ["Name, email, national id number or phone number must be given"] });
    expect(await show(person.id)).toMatchObject({ email: "only@example.com", city: null });
  });

  it("answers 400 on identifiers another person holds, and on invalid values, changing nothing", async () => {
    await createPerson({ email: "holder@example.com", phone_number: "41 11 11 11" });
    const person = await createPerson();
    const res = await api.put(`/people/${person.id}`, { person: { email: "holder@example.com", phone_number: "+4741111111", city: "Oslo" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: ["has already been taken"], phone_number: ["has already been taken"] });
    const invalid = await api.put(`/people/${person.id}`, { person: { date_of_birth: "17.05.1990", city: "Oslo" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ date_of_birth: ["is not a valid date: use YYYY-MM-DD"] });
    expect(await show(person.id)).toMatchObject({ email: null, city: null, date_of_birth: null });
  });

  it("answers 400 on parent_id for the person itself and for one of its descendants", async () => {
    const grandparent = await createPerson();
    const parent = await createPerson({ parent_id: grandparent.id });
    const child = await createPerson({ parent_id: parent.id });
    const self = await api.put(`/people/${grandparent.id}`, { person: { parent_id: grandparent.id } });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ parent_id: ["can't be the person itself"] });
    const loop = await api.put(`/people/${grandparent.id}`, { person: { parent_id: child.id } });
    expect(loop.status).toBe(400);
    expect(loop.body).toEqual({ parent_id: ["can't be one of the person's own children"] });
    expect((await show(grandparent.id)).parent_id).toBeNull();
  });

  it("answers 404 for an unknown id, and for another tenant's person without changing it", async () => {
    const person = await createPerson();
    expect((await api.put("/people/999999", { person: { name: "Nobody" } })).status).toBe(404);
    const foreign = await other.put(`/people/${person.id}`, { person: { name: "Hijacked" } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect((await show(person.id)).name).toBe(person.name);
  });
});

describe("DELETE /api/v1/people/{id}", () => {
  it("deactivates and answers the person as it now is", async () => {
    const person = await createPerson();
    const res = await api.delete(`/people/${person.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ person: { ...person, active: false, updated_at: expect.any(String) } });
    expect(ids((await api.get(`/people?name=${encodeURIComponent(person.name)}`)).body)).toEqual([]);
  });

  it("answers 404 for an unknown id and for another tenant's person, which stays active", async () => {
    const person = await createPerson();
    expect((await api.delete("/people/999999")).status).toBe(404);
    expect((await other.delete(`/people/${person.id}`)).status).toBe(404);
    expect((await show(person.id)).active).toBe(true);
  });
});

describe("PUT /api/v1/people/{id}/undelete", () => {
  it("reactivates a deactivated person", async () => {
    const person = await createPerson();
    await api.delete(`/people/${person.id}`);
    const res = await api.put(`/people/${person.id}/undelete`);
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({ id: person.id, active: true });
    expect(ids((await api.get(`/people?name=${encodeURIComponent(person.name)}`)).body)).toEqual([person.id]);
  });

  it("answers 404 for an unknown id and for another tenant's person, which stays deactivated", async () => {
    const person = await createPerson();
    await api.delete(`/people/${person.id}`);
    expect((await api.put("/people/999999/undelete")).status).toBe(404);
    expect((await other.put(`/people/${person.id}/undelete`)).status).toBe(404);
    expect((await show(person.id)).active).toBe(false);
  });
});

describe("POST /api/v1/people/{id}/merge", () => {
  it("moves the merged person's bookings and children, deactivates it, and answers the kept person", async () => {
    const kept = await createPerson({ email: "kept@example.com" });
    const merged = await createPerson({ phone_number: "45 00 00 45" });
    const child = await createPerson({ parent_id: merged.id });
    const [b1, b2] = [await seedBooking(merged.id), await seedBooking(merged.id)];
    const untouched = await seedBooking(kept.id);

    // Sent as a bare POST, without body or Content-Type, as `curl -X POST` would.
    const res = await send("POST", `/api/v1/people/${kept.id}/merge?merge_person_id=${merged.id}`, {
      headers: { authorization: `Bearer ${api.apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({ id: kept.id, email: "kept@example.com", active: true });
    for (const b of [b1, b2, untouched]) expect((await bookingOwner(b)).person_id).toBe(kept.id);
    expect((await bookingOwner(b1)).updated_at).toBeGreaterThan(0);
    expect(await show(merged.id)).toMatchObject({ active: false, phone_number: "45 00 00 45" });
    expect((await show(child.id)).parent_id).toBe(kept.id);
  });

  it("updates the kept person from an optional person body, which may take over the merged person's identifiers", async () => {
    const kept = await createPerson({ name: "Kept" });
    const merged = await createPerson({ email: "move@example.com", national_id_no: "MOVE-1" });
    const res = await api.post(`/people/${kept.id}/merge?merge_person_id=${merged.id}`, {
      person: { email: "move@example.com", national_id_no: "MOVE-1", city: "Oslo" },
    });
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({ name: "Kept", email: "move@example.com", national_id_no: "MOVE-1", city: "Oslo" });
    expect(await show(merged.id)).toMatchObject({ active: false, email: null, national_id_no: null });
  });

  it("answers 400 on merge_person_id when missing, the same person, unknown or another tenant's", async () => {
    const kept = await createPerson();
    const foreign = await createPerson({}, other);
    const cases: [string, string][] = [
      ["", "can't be blank"],
      [`?merge_person_id=${kept.id}`, "can't be the person merged into"],
      ["?merge_person_id=999999", "is not a person of this account"],
      [`?merge_person_id=${foreign.id}`, "is not a person of this account"],
      ["?merge_person_id=abc", "is not an integer"],
    ];
    for (const [q, message] of cases) {
      const res = await api.post(`/people/${kept.id}/merge${q}`, {});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ merge_person_id: [message] });
    }
    expect((await other.get(`/people/${foreign.id}`)).body.person.active).toBe(true);
  });

  it("answers 400 for an invalid person body and moves nothing", async () => {
    const kept = await createPerson();
    const merged = await createPerson();
    const booking = await seedBooking(merged.id);
    const bad = await api.post(`/people/${kept.id}/merge?merge_person_id=${merged.id}`, { person: { email: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ email: ["is not a valid email address"] });
    const parent = await api.post(`/people/${kept.id}/merge?merge_person_id=${merged.id}`, { person: { parent_id: merged.id } });
    expect(parent.status).toBe(400);
    expect(parent.body).toEqual({ parent_id: ["can't be the person being merged"] });
    expect((await bookingOwner(booking)).person_id).toBe(merged.id);
    expect((await show(merged.id)).active).toBe(true);
  });

  it("answers 404 for an unknown id and for another tenant's person, moving nothing", async () => {
    const merged = await createPerson();
    const booking = await seedBooking(merged.id);
    const foreign = await createPerson({}, other);
    expect((await api.post(`/people/999999/merge?merge_person_id=${merged.id}`, {})).status).toBe(404);
    const res = await api.post(`/people/${foreign.id}/merge?merge_person_id=${merged.id}`, {});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await bookingOwner(booking)).person_id).toBe(merged.id);
    expect((await show(merged.id)).active).toBe(true);
  });
});

describe("GET /api/v1/people/{id}/children", () => {
  it("lists the person's active children with page headers", async () => {
    const parent = await createPerson();
    const a = await createPerson({ parent_id: parent.id });
    const b = await createPerson({ parent_id: parent.id });
    const gone = await createPerson({ parent_id: parent.id });
    await createPerson();
    await api.delete(`/people/${gone.id}`);
    const res = await api.get(`/people/${parent.id}/children`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([a.id, b.id]);
    expect(res.headers.get("Total-Count")).toBe("2");
    expect((await api.get(`/people/${parent.id}/children?page=x`)).status).toBe(400);
  });

  it("answers 404 for an unknown id and for another tenant's person", async () => {
    const parent = await createPerson();
    await createPerson({ parent_id: parent.id });
    expect((await api.get("/people/999999/children")).status).toBe(404);
    expect((await other.get(`/people/${parent.id}/children`)).status).toBe(404);
  });
});

describe("findMatchingPerson (booking person_attributes)", () => {
  it("matches by national id, then phone (by E.164), then email, within the account", async () => {
    const account = (await env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(accountId).first<Account>())!;
    const deps = { db: openDb(env.DB), env, account, now: Date.now(), surface: "private_api" as const, capacityGuard: durableCapacityGuard(env, "DB") };
    const byNid = await createPerson({ national_id_no: "MATCH-NID" });
    const byPhone = await createPerson({ phone_number: "+47 933 33 333" });
    const byEmail = await createPerson({ email: "match@example.com" });
    const match = (input: Record<string, string>) => findMatchingPerson(deps, input).then((p) => p?.id);
    expect(await match({ national_id_no: "MATCH-NID", phone_number: "93333333", email: "match@example.com" })).toBe(byNid.id);
    expect(await match({ phone_number: "933 33 333", email: "match@example.com" })).toBe(byPhone.id);
    expect(await match({ email: "match@example.com" })).toBe(byEmail.id);
    expect(await match({ email: "nobody@example.com" })).toBeUndefined();
  });
});

describe("unique indexes as the second line of defence", () => {
  it("turns a UNIQUE failure from D1 into 400 has already been taken on the attribute", async () => {
    await createPerson({ phone_number: "+47 977 77 777" });
    const db = openDb(env.DB);
    const duplicate = { account_id: accountId, phone_number: "97777777", phone_e164: "+4797777777", created_at: 0, updated_at: 0 };
    const error = await db
      .insert(people)
      .values(duplicate)
      .catch(rethrowUniqueViolation)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, body: { phone_number: ["has already been taken"] } });
  });
});
