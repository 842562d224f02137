import { createExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { env, newAccount, publicSite, type Client } from "../support/api";
import { must } from "../support/bookings";
import { messagesOf, settledMessagesOf, uniquePhone } from "../support/messages";

const SEND = "/people/perishable_token/send";
const VERIFY = "/people/perishable_token/verify";

let api: Client;
let other: Client;
let account: any;

beforeAll(async () => {
  ({ api, account } = await newAccount({ name: "Clinic" }));
  other = (await newAccount()).api;
});

/** The code as the development sink delivered it (the sink keeps the delivered text). */
async function deliveredCode(client: Client, phone: string): Promise<string> {
  const [latest] = await settledMessagesOf(client, "?kind=token");
  expect(latest.recipient).toBe(phone);
  return /(\d{5})/.exec(latest.body)![1];
}

const tokenRow = (phone: string) => env.DB.prepare("SELECT * FROM perishable_tokens WHERE identifier = ? ORDER BY id DESC").bind(phone).first<Record<string, any>>();

describe("POST /api/v1/people/perishable_token/send", () => {
  it("queues a token SMS, stores only the code's hash, and answers the number and expiry", async () => {
    const phone = uniquePhone();
    const res = await api.post(SEND, { person: { phone_number: phone.slice(3) } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ perishable_token: { phone_number: phone, expires_at: expect.stringMatching(/\+0[12]:00$/) } });

    const [message] = await messagesOf(api, "?kind=token");
    expect(message).toMatchObject({ kind: "token", channel: "sms", recipient: phone, booking_id: null });
    const row = await tokenRow(phone);
    expect(row).toMatchObject({ account_id: account.id, attempts: 0, code_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(row!.expires_at - row!.created_at).toBe(10 * 60 * 1000);
    const code = await deliveredCode(api, phone);
    expect(row!.code_hash).not.toContain(code);
  });

  it("takes form data with bracket names", async () => {
    const phone = uniquePhone();
    const res = await api.form("POST", SEND, `person[phone_number]=${encodeURIComponent(phone)}`);
    expect(res.status).toBe(200);
    expect(res.body.perishable_token.phone_number).toBe(phone);
  });

  it("refuses email with 400 on email", async () => {
    const res = await api.post(SEND, { person: { email: "kari@example.com" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: ["sending email is not supported; use phone_number"] });
  });

  it("answers 400 on phone_number when it is missing or not a valid number, and on person when unwrapped", async () => {
    expect((await api.post(SEND, { person: {} })).body).toEqual({ phone_number: ["can't be blank"] });
    const invalid = await api.post(SEND, { person: { phone_number: "12" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ phone_number: ["is not a valid phone number"] });
    const bare = await api.post(SEND, { phone_number: uniquePhone() });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ person: [expect.stringContaining('{"person"')] });
  });

  it("answers 429 with Retry-After after five SMS an hour to one number, and creates no token", async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 5; i += 1) await must(api.post(SEND, { person: { phone_number: phone } }));
    const before = await tokenRow(phone);
    const res = await api.post(SEND, { person: { phone_number: phone } });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: "SMS limit reached: at most 5 SMS an hour to one phone number." });
    expect(res.headers.get("Retry-After")).toBe("3600");
    expect(await tokenRow(phone)).toEqual(before);
  });

  it("answers 429 when the account has sent its daily number of SMS", async () => {
    const { api: capped } = await newAccount();
    // An app that answers where it runs: the cap is this request's setting, which a NearDatabase
    // object (where the Worker's entry sends writes) would not see.
    const app = buildApp();
    const send = async (phone: string) => {
      const request = new Request(`http://api.test/api/v1${SEND}`, {
        method: "POST",
        headers: { authorization: `Bearer ${capped.apiKey}`, "content-type": "application/json", "user-agent": "tests" },
        body: JSON.stringify({ person: { phone_number: phone } }),
      });
      return app.fetch(request, { ...env, SMS_DAILY_CAP_PER_ACCOUNT: "2" }, createExecutionContext());
    };
    expect((await send(uniquePhone())).status).toBe(200);
    expect((await send(uniquePhone())).status).toBe(200);
    const refused = await send(uniquePhone());
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "SMS limit reached: the account has sent its daily number of SMS." });
    expect(refused.headers.get("Retry-After")).toBe("86400");
    expect((await messagesOf(capped, "?kind=token")).length).toBe(2);
  });

  it("is served on the public booking site too", async () => {
    const phone = uniquePhone();
    const res = await publicSite(account.subdomain).post(SEND, { person: { phone_number: phone } });
    expect(res.status).toBe(200);
    expect(res.body.perishable_token.phone_number).toBe(phone);
  });
});

describe("POST /api/v1/people/perishable_token/verify", () => {
  it("answers the existing person with that number and consumes the token", async () => {
    const phone = uniquePhone();
    const person = (await must(api.post("/people", { person: { name: "Kari", phone_number: phone } }))).person;
    await must(api.post(SEND, { person: { phone_number: phone } }));
    const code = await deliveredCode(api, phone);

    const res = await api.post(VERIFY, { perishable_token: code, person: { phone_number: phone } });
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({ id: person.id, name: "Kari", phone_number_formatted: phone });
    expect(await tokenRow(phone)).toBeNull();
    const again = await api.post(VERIFY, { perishable_token: code, person: { phone_number: phone } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ perishable_token: ["is invalid"] });
  });

  it("answers an empty person when nobody has the number, also from form data", async () => {
    const phone = uniquePhone();
    await must(api.post(SEND, { person: { phone_number: phone } }));
    const code = await deliveredCode(api, phone);
    const res = await api.form("POST", VERIFY, `perishable_token=${code}&person[phone_number]=${encodeURIComponent(phone)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ person: {} });
  });

  it("answers 400 on a wrong code, and burns the token after five attempts", async () => {
    const phone = uniquePhone();
    await must(api.post(SEND, { person: { phone_number: phone } }));
    const code = await deliveredCode(api, phone);
    const wrong = code === "00000" ? "11111" : "00000";
    for (let i = 0; i < 5; i += 1) {
      const res = await api.post(VERIFY, { perishable_token: wrong, person: { phone_number: phone } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ perishable_token: ["is invalid"] });
    }
    const burned = await api.post(VERIFY, { perishable_token: code, person: { phone_number: phone } });
    expect(burned.status).toBe(400);
    expect(burned.body).toEqual({ perishable_token: ["has been tried too many times: send a new one"] });
    expect((await tokenRow(phone))!.attempts).toBe(5);
  });

  it("answers 400 when the token has expired", async () => {
    const phone = uniquePhone();
    await must(api.post(SEND, { person: { phone_number: phone } }));
    const code = await deliveredCode(api, phone);
    await env.DB.prepare("UPDATE perishable_tokens SET expires_at = ? WHERE identifier = ?")
      .bind(Date.now() - 1, phone)
      .run();
    const res = await api.post(VERIFY, { perishable_token: code, person: { phone_number: phone } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ perishable_token: ["has expired: send a new one"] });
  });

  it("refuses email with 400 on email, and a missing code with 400 on perishable_token", async () => {
    const email = await api.post(VERIFY, { perishable_token: "12345", person: { email: "kari@example.com" } });
    expect(email.status).toBe(400);
    expect(email.body).toEqual({ email: ["sending email is not supported; use phone_number"] });
    const blank = await api.post(VERIFY, { person: { phone_number: uniquePhone() } });
    expect(blank.body).toEqual({ perishable_token: ["can't be blank"] });
  });

  it("does not accept another tenant's token, and leaves it usable for its own account", async () => {
    const phone = uniquePhone();
    await must(api.post(SEND, { person: { phone_number: phone } }));
    const code = await deliveredCode(api, phone);
    const foreign = await other.post(VERIFY, { perishable_token: code, person: { phone_number: phone } });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ perishable_token: ["is invalid"] });
    expect((await tokenRow(phone))!.attempts).toBe(0);
    expect((await api.post(VERIFY, { perishable_token: code, person: { phone_number: phone } })).status).toBe(200);
  });

  it("shows a visitor on the booking site who they are, without the account's notes", async () => {
    const phone = uniquePhone();
    await must(api.post("/people", { person: { name: "Ola", phone_number: phone, notes: "pays late", national_id_no: "01019012345" } }));
    const site = publicSite(account.subdomain);
    await must(site.post(SEND, { person: { phone_number: phone } }));
    const code = await deliveredCode(api, phone);
    const res = await site.post(VERIFY, { perishable_token: code, person: { phone_number: phone } });
    expect(res.status).toBe(200);
    expect(res.body.person).toMatchObject({ name: "Ola", phone_number_formatted: phone });
    expect(res.body.person).not.toHaveProperty("notes");
    expect(res.body.person).not.toHaveProperty("national_id_no");
  });
});
