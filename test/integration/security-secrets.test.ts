// API keys, web hook secrets, verification codes and token codes never reach a log, and keys and
// secrets reach no answer but the operator's create and rotate. The Worker runs in the test's
// isolate in this pool, so spying on console sees what the Worker logs.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { env, newAccount, operator, publicSite, send, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { settledMessagesOf, uniquePhone } from "../support/messages";
import { runQueue } from "../support/queues";
import { drive, eventMessage, receiver } from "../support/webhooks";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;
const logged: string[] = [];
const spies = METHODS.map((m) =>
  vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
    logged.push(args.map((a) => (typeof a === "string" ? a : a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a))).join(" "));
  }),
);
afterAll(() => {
  for (const s of spies) s.mockRestore();
});

/** Every answer the run received, except the operator's create and rotate (which must show them). */
const answers: string[] = [];
/** The booking site's answers among them. */
const siteAnswers: string[] = [];
const keep = async <T extends { status: number; body: unknown; headers: Headers }>(res: Promise<T>, fromSite = false) => {
  const r = await res;
  const text = [JSON.stringify(r.body), JSON.stringify([...r.headers])];
  answers.push(...text);
  if (fromSite) siteAnswers.push(...text);
  return r;
};

let api: Client;
let account: any;
let apiKey: string;
let webhookSecret: string;
let rotatedKey: string;
const codes: string[] = [];

beforeAll(async () => {
  const created = await newAccount({ verification_method: 1 });
  ({ api, account, webhookSecret } = created);
  apiKey = api.apiKey;
});

describe("a run of key-using requests", () => {
  it("logs the Worker's own output through the spied console (the canary)", async () => {
    await runQueue("booking-messages-dlq", [{ unreadable: true }]);
    expect(logged.some((line) => line.includes("unreadable message body"))).toBe(true);
  });

  it("answers the run without keys or secrets, and logs none of them nor any code", async () => {
    const make = catalogue(api);
    const resource = await make.resource();
    const service = await make.service();
    await make.provider(resource.id, service.id);
    const phone = uniquePhone();
    // Booking events only: a message.processed payload carries a token SMS's text, code included,
    // to the account's own receiver when the sink stored it (security.md), so with `*` the
    // deliveries answer below had the code or not depending on how fast the queue ran.
    const hook = (await must(keep(api.post("/web_hooks", { web_hook: { target_url: receiver().url, event: "booking.*" } })))).web_hook;

    // A booking awaiting SMS verification carries a code in the private answer (docs/decisions/bookings.md).
    const pending = (
      await must(
        keep(
          api.post("/bookings", {
            confirm: false,
            booking: {
              resource_id: resource.id,
              service_id: service.id,
              booked_from: "2030-01-07 10:00",
              booked_to: "2030-01-07 11:00",
              person_attributes: { name: "Ann", phone_number: phone },
            },
          }),
        ),
      )
    ).booking;
    codes.push((await rawBooking(pending.id))!.verification_code);
    await keep(api.put(`/bookings/${pending.id}/verify_code`, { verification_code: "00000" }));
    await keep(api.put(`/bookings/${pending.id}/verify_code`, { verification_code: codes[0] }));

    const site = publicSite(account.subdomain);
    const visitor = await keep(
      site.post("/bookings", {
        booking: {
          service_id: service.id,
          booked_from: "2030-01-08 10:00",
          booked_to: "2030-01-08 11:00",
          person_attributes: { name: "Vis", phone_number: uniquePhone() },
        },
      }),
      true,
    );
    expect(visitor.status, JSON.stringify(visitor.body)).toBe(200);
    codes.push((await rawBooking(visitor.body.booking.id))!.verification_code);

    await must(keep(site.post("/people/perishable_token/send", { person: { phone_number: phone } }), true));
    const [token] = await settledMessagesOf(api, "?kind=token");
    const tokenCode = /(\d{5})/.exec(token.body)![1];
    codes.push(tokenCode);
    await keep(site.post("/people/perishable_token/verify", { perishable_token: tokenCode === "00000" ? "11111" : "00000", person: { phone_number: phone } }), true);
    await keep(site.post("/people/perishable_token/verify", { perishable_token: tokenCode, person: { phone_number: phone } }), true);

    await drive([eventMessage(account.id, "booking.created", pending.id)]);
    await keep(api.get(`/web_hooks/${hook.id}/deliveries`));
    await keep(api.get("/client"));
    await keep(api.put("/client", { client: { name: "Renamed", webhook_secret: "whsec_mine", api_key: "bk_mine" } }));
    await keep(operator.get("/accounts"));
    await keep(operator.put(`/accounts/${account.id}`, { account: { billing_status: "paid" } }));
    await keep(send("GET", "/api/v1/client", { headers: { authorization: `Bearer ${apiKey}x` } }));
    await keep(send("GET", "/api/v1/client", { headers: { authorization: `Basic ${btoa(`${apiKey}:`)}` } }));
    await keep(api.get("/bookings/999999"));
    await keep(api.post("/services", { service: { title: { a: apiKey } } }));

    const rotated = await operator.post(`/accounts/${account.id}/api_key`);
    rotatedKey = rotated.body.api_key;
    expect(rotatedKey).toMatch(/^bk_/);
    await keep(send("GET", "/api/v1/client", { headers: { authorization: `Bearer ${apiKey}` } }));
    await keep(send("GET", "/api/v1/client", { headers: { authorization: `Bearer ${rotatedKey}`, "user-agent": "t" } }));

    // Queue consumers given a token SMS's real text for a row that does not exist, and unreadable.
    await runQueue("booking-messages", [{ account_id: account.id, message_id: 999_999, secret_body: `Your code is ${tokenCode}` }]);
    await runQueue("booking-messages-dlq", [{ account_id: "x", message_id: 1, secret_body: `Your code is ${tokenCode}` }]);

    const secrets = [apiKey, rotatedKey, webhookSecret, webhookSecret.slice("whsec_".length)];
    for (const secret of secrets) {
      expect(
        answers.filter((a) => a.includes(secret)),
        secret,
      ).toEqual([]);
      expect(
        logged.filter((l) => l.includes(secret)),
        secret,
      ).toEqual([]);
    }
    for (const code of codes)
      expect(
        logged.filter((l) => l.includes(code)),
        code,
      ).toEqual([]);
    expect(answers.filter((a) => a.includes(tokenCode))).toEqual([]);
  });

  it("stores no key, secret or code in readable form", async () => {
    const { results } = await env.DB.prepare("SELECT key_hash FROM api_keys WHERE account_id = ?").bind(account.id).all<{ key_hash: string }>();
    expect(results.map((r) => r.key_hash).filter((h) => h.includes(apiKey) || h.includes(rotatedKey))).toEqual([]);
    const tokens = await env.DB.prepare("SELECT * FROM perishable_tokens WHERE account_id = ?").bind(account.id).all();
    expect(JSON.stringify(tokens.results)).not.toContain(codes[2]);
  });

  it("keeps the verification code of a booking out of every answer of the booking site", async () => {
    expect(siteAnswers.length).toBeGreaterThan(0);
    expect(siteAnswers.filter((a) => a.includes("verification_code") || codes.some((code) => a.includes(code)))).toEqual([]);
  });
});
