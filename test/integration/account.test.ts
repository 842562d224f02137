import { beforeEach, describe, expect, it } from "vitest";
import { env, newAccount, operator, send, type Client } from "../support/api";

let api: Client;
let account: any;
let webhookSecret: string;

beforeEach(async () => {
  ({ api, account, webhookSecret } = await newAccount());
});

const put = (attributes: Record<string, unknown>) => api.put("/client", { client: attributes });
const current = async () => (await api.get("/client")).body.client;

describe("GET /api/v1/client", () => {
  it("answers the caller's own account wrapped as client, datetimes in its zone", async () => {
    const res = await api.get("/client");
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({
      id: account.id,
      subdomain: account.subdomain,
      time_zone: "Europe/Oslo",
      country_code: "NO",
      locale: "en",
      verification_method: 0,
      slot_generation_type: 2,
      interval_rounding: 15,
      public_access: true,
    });
    expect(res.body.client.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
  });
});

describe("PUT /api/v1/client", () => {
  it("updates the account from JSON and answers it wrapped as client", async () => {
    const res = await put({
      name: "Salon Nord",
      email: "post@salon.no",
      time_zone: "America/New_York",
      country_code: "se",
      locale: "sv",
      currency: "sek",
      verification_method: 2,
      slot_generation_type: 1,
      interval_rounding: 30,
      first_bookable_period: "2 hours",
      future_bookable_period: "+3 days",
      cancellation_period: "1 month",
      confirm_manually: true,
      closed_for_holidays: true,
      public_access: false,
      mail_notification_recipient: "alerts@salon.no",
      settings: { theme: "dark" },
      footer: "Welcome",
    });
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({
      id: account.id,
      name: "Salon Nord",
      email: "post@salon.no",
      time_zone: "America/New_York",
      country_code: "SE",
      locale: "sv",
      currency: "SEK",
      verification_method: 2,
      slot_generation_type: 1,
      interval_rounding: 30,
      first_bookable_period: "2 hours",
      future_bookable_period: "+3 days",
      cancellation_period: "1 month",
      confirm_manually: true,
      closed_for_holidays: true,
      public_access: false,
      mail_notification_recipient: "alerts@salon.no",
      settings: { theme: "dark" },
      footer: "Welcome",
    });
    expect(res.body.client.updated_at).toMatch(/-0[45]:00$/);
    expect(await current()).toEqual(res.body.client);
  });

  it("updates the account from bracket form data", async () => {
    const res = await api.form(
      "PUT",
      "/client",
      "client[name]=Form+Salon&client[confirm_manually]=1&client[verification_method]=1&client[first_bookable_period]=2+hours&client[locale]=nb",
    );
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({
      name: "Form Salon",
      confirm_manually: true,
      verification_method: 1,
      first_bookable_period: "2 hours",
      locale: "nb",
    });
  });

  it("changes only the attributes sent", async () => {
    const before = await current();
    const res = await put({ footer: "Only this" });
    expect(res.status).toBe(200);
    const { footer, updated_at, ...rest } = res.body.client;
    const { footer: _f, updated_at: _u, ...restBefore } = before;
    expect(footer).toBe("Only this");
    expect(rest).toEqual(restBefore);
  });

  it.each(["2 hours", "+3 days", "1 month", "1 day 2 hours", "PT30M"])("accepts the period %j", async (period) => {
    const res = await put({ first_bookable_period: period, future_bookable_period: period, cancellation_period: period });
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({ first_bookable_period: period, future_bookable_period: period, cancellation_period: period });
  });

  it("clears optional settings with null or an empty value", async () => {
    await put({ currency: "NOK", first_bookable_period: "2 hours", footer: "x", mail_notification_recipient: "a@b.no" });
    const json = await put({ currency: null, first_bookable_period: null, footer: null });
    expect(json.body.client).toMatchObject({ currency: null, first_bookable_period: null, footer: null });
    const form = await api.form("PUT", "/client", "client[mail_notification_recipient]=&client[currency]=&client[cancellation_period]=+&client[settings]=");
    expect(form.status).toBe(200);
    expect(form.body.client).toMatchObject({ mail_notification_recipient: null, currency: null, cancellation_period: null, settings: null });
  });

  it("keeps its own subdomain and stores a new one in lower case", async () => {
    expect((await put({ subdomain: account.subdomain })).status).toBe(200);
    const res = await put({ subdomain: `New-${account.subdomain}` });
    expect(res.status).toBe(200);
    expect(res.body.client.subdomain).toBe(`new-${account.subdomain}`);
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ["a time zone that is not IANA", { time_zone: "Mars/Base" }, { time_zone: ["is not a known IANA time zone"] }],
    ["a bare offset as time zone", { time_zone: "+01:00" }, { time_zone: ["is not a known IANA time zone"] }],
    ["a locale other than en, sv, nb", { locale: "de" }, { locale: ["is not included in the list (en, sv, nb)"] }],
    ["an unknown country code", { country_code: "ZZ" }, { country_code: ["is not an ISO 3166-1 alpha-2 country code"] }],
    ["an alpha-3 country code", { country_code: "NOR" }, { country_code: ["is not an ISO 3166-1 alpha-2 country code"] }],
    ["an unknown currency", { currency: "ABC" }, { currency: ["is not an ISO 4217 currency code"] }],
    ["a currency name", { currency: "Euro" }, { currency: ["is not an ISO 4217 currency code"] }],
    ["an unreadable first_bookable_period", { first_bookable_period: "soon" }, { first_bookable_period: ["is not a period such as '2 hours', '+3 days' or '1 month'"] }],
    [
      "an unreadable future_bookable_period",
      { future_bookable_period: "later" },
      { future_bookable_period: ["is not a period such as '2 hours', '+3 days' or '1 month'"] },
    ],
    ["a negative cancellation_period", { cancellation_period: "-1 day" }, { cancellation_period: ["is not a period such as '2 hours', '+3 days' or '1 month'"] }],
    ["verification_method above 2", { verification_method: 3 }, { verification_method: ["must be less than or equal to 2"] }],
    ["verification_method below 0", { verification_method: -1 }, { verification_method: ["must be greater than or equal to 0"] }],
    ["verification_method as a word", { verification_method: "email" }, { verification_method: ["is not an integer"] }],
    ["slot_generation_type 0", { slot_generation_type: 0 }, { slot_generation_type: ["must be greater than or equal to 1"] }],
    ["slot_generation_type 3", { slot_generation_type: 3 }, { slot_generation_type: ["must be less than or equal to 2"] }],
    ["interval_rounding 0", { interval_rounding: 0 }, { interval_rounding: ["must be greater than or equal to 1"] }],
    ["interval_rounding over a day", { interval_rounding: 1441 }, { interval_rounding: ["must be less than or equal to 1440"] }],
    ["interval_rounding as a fraction", { interval_rounding: 7.5 }, { interval_rounding: ["is not an integer"] }],
    ["an email without a domain", { email: "owner@" }, { email: ["is not a valid email address"] }],
    ["a blank email", { email: "" }, { email: ["is not a valid email address"] }],
    ["an invalid notification recipient", { mail_notification_recipient: "alerts at salon" }, { mail_notification_recipient: ["is not a valid email address"] }],
    ["a blank name", { name: " " }, { name: ["can't be blank"] }],
    ["a subdomain with dots", { subdomain: "a.b" }, { subdomain: ["may contain only letters, digits and hyphens"] }],
    ["settings that are not an object", { settings: "dark" }, { settings: ["must be an object of named settings"] }],
    ["a bare number as period", { first_bookable_period: 5 }, { first_bookable_period: ["is not a period such as '2 hours', '+3 days' or '1 month'"] }],
    ["a boolean that is not one", { confirm_manually: "maybe" }, { confirm_manually: ["must be true or false"] }],
  ])("answers 400 for %s and changes nothing", async (_case, attributes, expected) => {
    const before = await current();
    const res = await put(attributes);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(await current()).toEqual(before);
  });

  it("answers every invalid attribute at once and changes nothing", async () => {
    const before = await current();
    const res = await put({ name: "Changed", locale: "fr", time_zone: "Nowhere", first_bookable_period: "soon", verification_method: 9 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["first_bookable_period", "locale", "time_zone", "verification_method"]);
    expect(await current()).toEqual(before);
  });

  it("answers 400 on subdomain when another account has it, and changes nothing", async () => {
    const { account: other } = await newAccount();
    const before = await current();
    const res = await put({ subdomain: other.subdomain.toUpperCase(), name: "Taken" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ subdomain: ["has already been taken"] });
    expect(await current()).toEqual(before);
  });

  it("answers 400 on the wrapper when the attributes are not wrapped in client", async () => {
    const res = await api.put("/client", { name: "Bare" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ client: [expect.stringContaining('{"client"')] });
  });

  it("answers 400 on base for a body that is not JSON", async () => {
    const broken = await send("PUT", "/api/v1/client", {
      headers: { authorization: `Bearer ${api.apiKey}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ base: [expect.any(String)] });
  });

  it("ignores operator-only and read-only attributes", async () => {
    const before = await current();
    const res = await put({
      id: account.id + 1000,
      api_enabled: false,
      billing_status: "unpaid",
      webhook_secret: "whsec_mine",
      created_at: "2001-01-01 00:00",
      account_id: 1,
      name: "Still me",
    });
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({ id: account.id, name: "Still me", api_enabled: true, billing_status: "ok", created_at: before.created_at });
    expect((await api.get("/client")).status).toBe(200);
    const row = await env.DB.prepare("select webhook_secret from accounts where id = ?").bind(account.id).first();
    expect(row).toEqual({ webhook_secret: webhookSecret });
  });

  it("clears the logo with remove_logo, and keeps it without", async () => {
    await put({ logo: "https://cdn.example.com/logo.png" });
    expect((await put({ remove_logo: false, footer: "f" })).body.client.logo).toBe("https://cdn.example.com/logo.png");
    const res = await put({ remove_logo: true });
    expect(res.status).toBe(200);
    expect(res.body.client.logo).toBeNull();
    expect(res.body.client).not.toHaveProperty("remove_logo");
  });

  it("never shows the webhook secret or the merchant key", async () => {
    const res = await put({ gateway_merchant_id: "merchant-1", gateway_merchant_key: "merchant-secret-key" });
    expect(res.status).toBe(200);
    expect(res.body.client.gateway_merchant_id).toBe("merchant-1");
    for (const body of [res.body, (await api.get("/client")).body, (await operator.get("/accounts")).body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain("merchant-secret-key");
      expect(text).not.toContain(webhookSecret);
      expect(text).not.toContain("webhook_secret");
      expect(text).not.toContain("gateway_merchant_key");
    }
    const row = await env.DB.prepare("select gateway_merchant_key from accounts where id = ?").bind(account.id).first();
    expect(row).toEqual({ gateway_merchant_key: "merchant-secret-key" });
  });

  it("does not touch another account", async () => {
    const other = await newAccount();
    const before = (await other.api.get("/client")).body.client;
    await put({ name: "Mine only", locale: "sv" });
    expect((await other.api.get("/client")).body.client).toEqual(before);
  });
});

describe("GET /api/v1/client/holidays", () => {
  const norway2026 = [
    { date: "2026-01-01", name: "New Year's Day" },
    { date: "2026-04-02", name: "Maundy Thursday" },
    { date: "2026-04-03", name: "Good Friday" },
    { date: "2026-04-05", name: "Easter Sunday" },
    { date: "2026-04-06", name: "Easter Monday" },
    { date: "2026-05-01", name: "Labour Day" },
    { date: "2026-05-14", name: "Ascension Day" },
    { date: "2026-05-17", name: "Constitution Day" },
    { date: "2026-05-24", name: "Pentecost" },
    { date: "2026-05-25", name: "Whit Monday" },
    { date: "2026-12-25", name: "Christmas Day" },
    { date: "2026-12-26", name: "Boxing Day" },
  ];
  const holidays = (res: { body: { holiday: { date: string; name: string } }[] }) => res.body.map((e) => e.holiday);

  it("lists the public holidays of the account's country for the range, keyed holiday, in date order", async () => {
    const res = await api.get("/client/holidays?from=2026-01-01&to=2026-12-31");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(norway2026.map((holiday) => ({ holiday })));
  });

  it("includes both ends of the range", async () => {
    const res = await api.get("/client/holidays?from=2026-05-17&to=2026-05-24");
    expect(holidays(res)).toEqual([
      { date: "2026-05-17", name: "Constitution Day" },
      { date: "2026-05-24", name: "Pentecost" },
    ]);
  });

  it("names holidays in the account locale", async () => {
    await put({ locale: "nb" });
    expect(holidays(await api.get("/client/holidays?from=2026-05-17&to=2026-05-17"))).toEqual([{ date: "2026-05-17", name: "Grunnlovsdagen" }]);
    await put({ locale: "sv", country_code: "SE" });
    expect(holidays(await api.get("/client/holidays?from=2026-06-01&to=2026-06-30"))).toEqual([
      { date: "2026-06-06", name: "nationaldagen" },
      { date: "2026-06-20", name: "midsommardagen" },
    ]);
  });

  it("falls back to English names where the library has none in the locale", async () => {
    await put({ locale: "sv", country_code: "US" });
    expect(holidays(await api.get("/client/holidays?from=2026-11-01&to=2026-11-30"))).toEqual([
      { date: "2026-11-11", name: "Veterans Day" },
      { date: "2026-11-26", name: "Thanksgiving Day" },
    ]);
  });

  it("follows the account's own country: another account sees its own", async () => {
    const swedish = await newAccount({ country_code: "SE" });
    const range = "/client/holidays?from=2026-06-06&to=2026-06-06";
    expect(holidays(await swedish.api.get(range))).toEqual([{ date: "2026-06-06", name: "National Day" }]);
    expect(holidays(await api.get(range))).toEqual([]);
  });

  it("runs to one year after from, less a day, when to is left out", async () => {
    const list = holidays(await api.get("/client/holidays?from=2026-05-17"));
    expect(list[0]).toEqual({ date: "2026-05-17", name: "Constitution Day" });
    expect(list.at(-1)).toEqual({ date: "2027-05-16", name: "Pentecost" });
    expect(list).toHaveLength(13);
  });

  it("starts today in the account zone when from is left out", async () => {
    const today = new Date().toLocaleDateString("sv-SE", { timeZone: "Europe/Oslo" });
    const res = await api.get("/client/holidays");
    expect(res.status).toBe(200);
    const dates = holidays(res).map((h) => h.date);
    expect(dates.length).toBeGreaterThanOrEqual(10);
    expect(dates[0] >= today).toBe(true);
    expect(dates.at(-1)! < `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`).toBe(true);
    expect([...dates].sort()).toEqual(dates);
  });

  it("treats empty from and to as left out", async () => {
    expect((await api.get("/client/holidays?from=2026-01-01&to=")).status).toBe(200);
  });

  it("accepts a range of three years less a day", async () => {
    const res = await api.get("/client/holidays?from=2026-01-01&to=2028-12-31");
    expect(res.status).toBe(200);
    expect(
      holidays(res)
        .filter((h) => h.name === "Constitution Day")
        .map((h) => h.date),
    ).toEqual(["2026-05-17", "2027-05-17", "2028-05-17"]);
  });

  it.each<[string, string, Record<string, string[]>]>([
    ["to before from", "from=2026-05-01&to=2026-04-30", { to: ["must be on or after from"] }],
    ["a range of three years or more", "from=2026-01-01&to=2029-01-01", { to: ["must be less than 3 years after from"] }],
    ["an impossible from date", "from=2026-02-30", { from: ["is not a valid date: use YYYY-MM-DD"] }],
    ["a to that is not a date", "from=2026-01-01&to=tomorrow", { to: ["is not a valid date: use YYYY-MM-DD"] }],
    ["a from with a time", "from=2026-01-01T10:00", { from: ["is not a valid date: use YYYY-MM-DD"] }],
    [
      "a year the holiday data does not cover",
      "from=1850-01-01&to=1850-12-31",
      { from: ["must be between 1900-01-01 and 2199-12-31"], to: ["must be between 1900-01-01 and 2199-12-31"] },
    ],
  ])("answers 400 for %s", async (_case, queryString, expected) => {
    const res = await api.get(`/client/holidays?${queryString}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });
});
