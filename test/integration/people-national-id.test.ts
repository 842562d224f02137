// National identity numbers at rest (issue 43, item 5): sealed with AES-256-GCM under
// PERSONAL_DATA_KEYS, found through a per-account keyed hash, answered as given; plain rows from
// before and rows under an older key are sealed again by the cron pass.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { sealNationalIds } from "../../src/cron/jobs/seal-national-ids";
import { nationalIdHash, openNationalId, parseNationalIdKeys, sealNationalId, type NationalIdKeys } from "../../src/db/national-id";
import worker from "../../src/index";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";

const ring = (text: string) => parseNationalIdKeys(text) as NationalIdKeys;
/** The pool's key (vitest.config.ts) and a newer one put in front of it: a rotation. */
const TEST_KEYS = env.PERSONAL_DATA_KEYS!;
const NEWER_KEY = `k2:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
const ROTATED = { ...env, PERSONAL_DATA_KEYS: `${NEWER_KEY},${TEST_KEYS}` };

type Row = { id: number; account_id: number; national_id_no: string | null; national_id_hash: string | null };
const rawPerson = (id: number) => env.DB.prepare("SELECT id, account_id, national_id_no, national_id_hash FROM people WHERE id = ?").bind(id).first<Row>();

/** A private API client on bindings of the test's choosing (the rotated ring), through the Worker's entry. */
function clientOn(apiKey: string, bindings: typeof env) {
  const call = async (method: string, path: string, payload?: unknown) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`http://api.test/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "user-agent": "tests", "content-type": "application/json" },
        body: payload === undefined ? null : JSON.stringify(payload),
      }),
      bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return { status: res.status, body: (await res.json()) as any };
  };
  return { call, get: (p: string) => call("GET", p), post: (p: string, b: unknown) => call("POST", p, b) };
}

/** Every pass of the cron job on DB until one finds nothing left (this file's rows only: storage is per file). */
async function sealAll(bindings: typeof env) {
  for (let run = 0; run < 10; run += 1) {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM people WHERE national_id_no IS NOT NULL AND (national_id_hash IS NULL OR national_id_no NOT LIKE ?)")
      .bind(`v1:${ring(bindings.PERSONAL_DATA_KEYS!).current.id}:%`)
      .first<{ n: number }>();
    if (before!.n === 0) return;
    await sealNationalIds(bindings, Date.now(), "DB");
  }
  throw new Error("the seal pass did not finish");
}

const digests = async (text: string) => {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const base64 = btoa(String.fromCharCode(...bytes));
  return [[...bytes].map((b) => b.toString(16).padStart(2, "0")).join(""), base64, base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")];
};

let api: Client;
let apiKey: string;
let accountId: number;
let sequence = 0;
const number = () => `0101${String(Date.now() % 1_000_000).padStart(6, "0")}${(sequence += 1)}`;
let bookable: { resource_id: number; service_id: number };
let day = 0;
/** A booking of this file's catalogue with these person attributes, each on a day of its own; answers its person. */
const bookAs = async (person_attributes: Record<string, unknown>, client: { post: (path: string, body: unknown) => Promise<{ status: number; body: any }> } = api) => {
  const date = `2031-03-${String((day += 1)).padStart(2, "0")}`;
  const res = await client.post("/bookings", { booking: { ...bookable, booked_from: `${date} 10:00`, booked_to: `${date} 11:00`, person_attributes } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.booking.person;
};

beforeAll(async () => {
  const mine = await newAccount();
  ({ api } = mine);
  apiKey = mine.api.apiKey;
  accountId = mine.account.id;
  const make = catalogue(api);
  const resource = await make.resource({ capacity: 10 });
  const service = await make.service({ title: "Check-up" });
  await make.provider(resource.id, service.id);
  bookable = { resource_id: resource.id, service_id: service.id };
});

describe("the synchronous ciphers in workerd (@noble/ciphers, fast-sha256)", () => {
  it("derive keys with the HKDF, seal with the AES-256-GCM and hash with the HMAC-SHA-256 that WebCrypto computes", async () => {
    const keys = ring(TEST_KEYS);
    const secret = Uint8Array.from(atob(TEST_KEYS.split(":")[1]), (c) => c.charCodeAt(0));
    const hkdfKey = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveBits"]);
    const derived = (use: string) =>
      crypto.subtle.deriveBits(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: new TextEncoder().encode(`booking-edge people.national_id_no ${use}`) },
        hkdfKey,
        256,
      );
    expect(new Uint8Array(await derived("aes-256-gcm"))).toEqual(keys.current.seal);
    expect(new Uint8Array(await derived("hmac-sha-256"))).toEqual(keys.current.hash);
    const sealed = sealNationalId(keys, 7, " 01017012345 ");
    expect(sealed.national_id_no).toMatch(/^v1:test1:[A-Za-z0-9_-]+$/);
    expect(openNationalId(keys, sealed.national_id_no)).toBe("01017012345");
    // The platform's own AES-GCM opens what noble sealed, with the derived key.
    const payload = Uint8Array.from(atob(sealed.national_id_no.split(":")[2].replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const aes = await crypto.subtle.importKey("raw", keys.current.seal, "AES-GCM", false, ["decrypt"]);
    const opened = await crypto.subtle.decrypt({ name: "AES-GCM", iv: payload.subarray(0, 12) }, aes, payload.subarray(12));
    expect(new TextDecoder().decode(opened)).toBe("01017012345");
    const mac = await crypto.subtle.importKey("raw", keys.current.hash, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const signed = new Uint8Array(await crypto.subtle.sign("HMAC", mac, new TextEncoder().encode("7:01017012345")));
    expect(sealed.national_id_hash).toBe(
      btoa(String.fromCharCode(...signed))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, ""),
    );
    // Two seals of one number differ (a random nonce each); a tampered value does not open.
    expect(sealNationalId(keys, 7, "01017012345").national_id_no).not.toBe(sealed.national_id_no);
    expect(openNationalId(keys, `${sealed.national_id_no.slice(0, -2)}AA`)).toBeNull();
  });

  it("refuses a key ring that is not id:32-byte-key pairs", () => {
    expect(parseNationalIdKeys("k1:c2hvcnQ=")).toMatch(/32 bytes/);
    expect(parseNationalIdKeys("just-a-string")).toMatch(/id:key pairs/);
    expect(parseNationalIdKeys(`${TEST_KEYS},${TEST_KEYS}`)).toMatch(/twice/);
  });
});

describe("POST /api/v1/people with a national_id_no", () => {
  it("stores no readable number and no plain SHA-256 of it, and answers the number as given", async () => {
    const nid = number();
    const created = await must(api.post("/people", { person: { name: "Ola", national_id_no: ` ${nid} ` } }));
    expect(created.person.national_id_no).toBe(nid);
    const row = (await rawPerson(created.person.id))!;
    expect(row.national_id_no).toMatch(/^v1:test1:/);
    expect(row.national_id_no).not.toContain(nid);
    expect(row.national_id_hash).not.toContain(nid);
    for (const digest of [...(await digests(nid)), ...(await digests(`${accountId}:${nid}`))]) expect(row.national_id_hash).not.toBe(digest);
    expect((await must(api.get(`/people/${created.person.id}`))).person.national_id_no).toBe(nid);
    expect((await must(api.get("/people"))).map((e: any) => e.person.national_id_no)).toContain(nid);
  });

  it("refuses a number another person of the account holds, with the spec's error, on create and update", async () => {
    const nid = number();
    await must(api.post("/people", { person: { name: "First", national_id_no: nid } }));
    const again = await api.post("/people", { person: { name: "Second", national_id_no: `  ${nid}` } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ national_id_no: ["has already been taken"] });
    const other = await must(api.post("/people", { person: { name: "Third" } }));
    const update = await api.put(`/people/${other.person.id}`, { person: { national_id_no: nid } });
    expect(update.status).toBe(400);
    expect(update.body).toEqual({ national_id_no: ["has already been taken"] });
  });

  it("keeps the same number in another account a separate person with an unrelated hash", async () => {
    const nid = number();
    const mine = await must(api.post("/people", { person: { name: "Here", national_id_no: nid } }));
    const elsewhere = await newAccount();
    const theirs = await must(elsewhere.api.post("/people", { person: { name: "There", national_id_no: nid } }));
    const [a, b] = [(await rawPerson(mine.person.id))!, (await rawPerson(theirs.person.id))!];
    expect(a.national_id_hash).not.toBe(b.national_id_hash);
    expect((await must(elsewhere.api.get(`/people?national_id_no=${nid}`))).map((e: any) => e.person.id)).toEqual([theirs.person.id]);
    expect((await must(api.get(`/people?national_id_no=${nid}`))).map((e: any) => e.person.id)).toEqual([mine.person.id]);
  });
});

describe("GET /api/v1/people by national id", () => {
  it("filters by the whole number and finds it by search only whole: a part of a sealed number is not stored to search", async () => {
    const nid = number();
    const { person } = await must(api.post("/people", { person: { name: "Findable", national_id_no: nid } }));
    await must(api.post("/people", { person: { name: "Someone else", national_id_no: number() } }));
    const ids = async (query: string) => (await must(api.get(`/people?${query}`))).map((e: any) => e.person.id);
    expect(await ids(`national_id_no=${nid}`)).toEqual([person.id]);
    expect(await ids(`national_id_no=%20${nid}%20`)).toEqual([person.id]);
    expect(await ids(`search=${nid}`)).toEqual([person.id]);
    expect(await ids(`search=${nid.slice(2, 9)}`)).toEqual([]);
  });
});

describe("POST /api/v1/bookings with person_attributes", () => {
  it("matches the person by national id before phone and e-mail, and answers the number", async () => {
    const make = catalogue(api);
    const nid = number();
    const known = await make.person({ name: "Known", national_id_no: nid });
    const byEmail = await make.person({ name: "By e-mail", email: `nid-${nid}@example.com` });
    expect(await bookAs({ national_id_no: nid, email: `nid-${nid}@example.com` })).toMatchObject({ id: known.id, national_id_no: nid });
    expect(byEmail.id).not.toBe(known.id);
    // A new person made by a booking is sealed like one made through /people.
    const newcomer = number();
    const made = await bookAs({ name: "Newcomer", national_id_no: newcomer });
    expect(made.national_id_no).toBe(newcomer);
    expect((await rawPerson(made.id))!.national_id_no).toMatch(/^v1:test1:/);
    // A matched person without a number is filled with the booking's, sealed.
    const bare = await make.person({ name: "Bare", email: `bare-${nid}@example.com` });
    const filled = number();
    expect(await bookAs({ email: `bare-${nid}@example.com`, national_id_no: filled })).toMatchObject({ id: bare.id, national_id_no: filled });
    expect((await rawPerson(bare.id))!.national_id_no).toMatch(/^v1:test1:/);
  });
});

describe("rows stored in plain text before encryption", () => {
  it("are answered, filtered, held unique and matched until the cron pass seals them, and after", async () => {
    const nid = number();
    const plain = (await env.DB.prepare("INSERT INTO people (account_id, name, national_id_no, created_at, updated_at) VALUES (?, 'Before', ?, 0, 0) RETURNING id")
      .bind(accountId, nid)
      .first<{ id: number }>())!;
    const check = async () => {
      expect((await must(api.get(`/people/${plain.id}`))).person.national_id_no).toBe(nid);
      expect((await must(api.get(`/people?national_id_no=${nid}`))).map((e: any) => e.person.id)).toEqual([plain.id]);
      expect((await must(api.get(`/people?search=${nid}`))).map((e: any) => e.person.id)).toEqual([plain.id]);
      const taken = await api.post("/people", { person: { name: "Copy", national_id_no: nid } });
      expect(taken.body).toEqual({ national_id_no: ["has already been taken"] });
      expect((await bookAs({ national_id_no: nid })).id).toBe(plain.id);
    };
    await check();
    await sealAll(env);
    const row = (await rawPerson(plain.id))!;
    expect(row.national_id_no).toMatch(/^v1:test1:/);
    expect(row.national_id_hash).toBe(nationalIdHash(ring(TEST_KEYS).current, accountId, nid));
    await check();
  });
});

describe("a Worker without PERSONAL_DATA_KEYS", () => {
  it("keeps numbers plain as before (substring search included), drops a stale hash, and the pass seals them once keys are back", async () => {
    const plainWorker = clientOn(apiKey, { ...env, PERSONAL_DATA_KEYS: undefined });
    const nid = number();
    const { person } = (await plainWorker.post("/people", { person: { name: "Unkeyed", national_id_no: nid } })).body;
    expect(await rawPerson(person.id)).toMatchObject({ national_id_no: nid, national_id_hash: null });
    expect((await plainWorker.get(`/people?search=${nid.slice(2, 9)}`)).body.map((e: any) => e.person.id)).toEqual([person.id]);
    // A sealed person's number changed by such a Worker is plain again, without the old number's hash.
    const sealed = await must(api.post("/people", { person: { name: "Was sealed", national_id_no: number() } }));
    const changed = number();
    const res = await clientOn(apiKey, { ...env, PERSONAL_DATA_KEYS: undefined }).call("PUT", `/people/${sealed.person.id}`, { person: { national_id_no: changed } });
    expect(res.status).toBe(200);
    expect(await rawPerson(sealed.person.id)).toMatchObject({ national_id_no: changed, national_id_hash: null });
    await sealAll(env);
    expect((await rawPerson(person.id))!.national_id_no).toMatch(/^v1:test1:/);
    expect((await must(api.get(`/people?national_id_no=${changed}`))).map((e: any) => e.person.id)).toEqual([sealed.person.id]);
  });
});

describe("a key rotation (a newer key in front of PERSONAL_DATA_KEYS)", () => {
  it("reads and matches rows under the older key, and the cron pass seals them under the newer one", async () => {
    const nid = number();
    const { person } = await must(api.post("/people", { person: { name: "Rotated", national_id_no: nid } }));
    const before = (await rawPerson(person.id))!;
    expect(before.national_id_no).toMatch(/^v1:test1:/);
    const rotated = clientOn(apiKey, ROTATED);
    const check = async () => {
      expect((await rotated.get(`/people/${person.id}`)).body.person.national_id_no).toBe(nid);
      expect((await rotated.get(`/people?national_id_no=${nid}`)).body.map((e: any) => e.person.id)).toEqual([person.id]);
      expect((await rotated.post("/people", { person: { name: "Copy", national_id_no: nid } })).body).toEqual({ national_id_no: ["has already been taken"] });
      expect((await bookAs({ national_id_no: nid }, rotated)).id).toBe(person.id);
    };
    await check();
    // A new number under the rotated ring is sealed with the newer key at once.
    const fresh = (await rotated.post("/people", { person: { name: "Fresh", national_id_no: number() } })).body.person;
    expect((await rawPerson(fresh.id))!.national_id_no).toMatch(/^v1:k2:/);

    await sealAll(ROTATED);
    const after = (await rawPerson(person.id))!;
    expect(after.national_id_no).toMatch(/^v1:k2:/);
    expect(after.national_id_hash).toBe(nationalIdHash(ring(NEWER_KEY).current, accountId, nid));
    expect(after.national_id_hash).not.toBe(before.national_id_hash);
    await check();
    // The older key alone can no longer open it: once the pass is done everywhere, it can be dropped.
    expect((await must(api.get(`/people/${person.id}`))).person.national_id_no).toBeNull();
  });

  it("costs a quiet shard one read, and logs nothing", async () => {
    await sealAll(ROTATED);
    let statements = 0;
    const counted = new Proxy(env.DB, {
      get(target, name) {
        if (name === "prepare") {
          return (query: string) => {
            statements += 1;
            return target.prepare(query);
          };
        }
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const log = vi.spyOn(console, "log");
    await sealNationalIds({ ...ROTATED, DB: counted }, Date.now(), "DB");
    expect(statements).toBe(1);
    expect(log.mock.calls.filter(([line]) => String(line).includes("seal-national-ids"))).toEqual([]);
    log.mockRestore();
  });
});
