// The demo account `demo`: believable data a newcomer's first curl can show. Built through the
// operator and private APIs themselves, so the seed exercises the same paths as any client.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { call, STATE_DIR } from "./local-config.mjs";

// Beside the state it unlocks, so a throwaway `--persist-to` directory never overwrites the usual key.
const KEY_FILE = path.join(STATE_DIR, "demo-api-key");
const SUBDOMAIN = "demo";
/** The demo's service that takes payment online, at the local Stripe stand-in (scripts/dev.mjs). */
const PAID_SERVICE = "Massage, paid online";

const weekdays = (hours) => ({
  opening_hours_mon: hours,
  opening_hours_tue: hours,
  opening_hours_wed: hours,
  opening_hours_thu: hours,
  opening_hours_fri: hours,
});

async function must(promise, what) {
  const res = await promise;
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Returns the demo account's API key, creating and seeding the account on first run. With `stripe`
 * (the stand-in's origin and a secret key it takes), the demo takes payment for one service.
 */
export async function seedDemo(adminToken, stripe) {
  const accounts = await must(call("GET", "/admin/v1/accounts", { token: adminToken }), "listing accounts");
  let account = accounts.map((e) => e.account).find((a) => a.subdomain === SUBDOMAIN);
  let key;
  if (account) key = await reuseKey(account, adminToken);
  else ({ account, api_key: key } = await createDemoAccount(adminToken));
  // A run that stopped half-way left the account empty: fill it on the next run.
  const services = await must(call("GET", "/api/v1/services", { token: key }), "listing services");
  if (services.length === 0) await seedCatalogue(key);
  if (stripe) await seedPayments(key, adminToken, account.id, stripe);
  return key;
}

async function createDemoAccount(adminToken) {
  const created = await must(
    call("POST", "/admin/v1/accounts", {
      token: adminToken,
      body: {
        account: {
          subdomain: SUBDOMAIN,
          name: "Fjord Hair & Yoga",
          email: "hello@fjord.example",
          time_zone: "Europe/Oslo",
          country_code: "NO",
          locale: "en",
          currency: "NOK",
          interval_rounding: 15,
          first_bookable_period: "2 hours",
          future_bookable_period: "3 months",
        },
      },
    }),
    "creating the demo account",
  );
  saveKey(created.api_key);
  return created;
}

async function reuseKey(account, adminToken) {
  if (existsSync(KEY_FILE)) {
    const key = readFileSync(KEY_FILE, "utf8").trim();
    if ((await call("GET", "/api/v1/client", { token: key })).status === 200) return key;
  }
  // The key is stored hashed, so a lost one cannot be shown again: rotate it.
  const rotated = await must(call("POST", `/admin/v1/accounts/${account.id}/api_key`, { token: adminToken }), "rotating the demo key");
  saveKey(rotated.api_key);
  return rotated.api_key;
}

function saveKey(key) {
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(KEY_FILE, `${key}\n`, { mode: 0o600 });
}

async function seedCatalogue(key) {
  const post = (path, body) => must(call("POST", `/api/v1${path}`, { token: key, body }), `POST ${path}`);
  const anna = (
    await post("/resources", {
      resource: { title: "Anna (stylist)", ...weekdays(["09:00", "12:00", "13:00", "17:00"]) },
    })
  ).resource;
  const bjorn = (
    await post("/resources", {
      resource: {
        title: "Bjørn (stylist)",
        ...weekdays(["10:00", "14:00", "14:30", "18:00"]),
        opening_hours_mon: null,
        opening_hours_sat: ["10:00", "15:00"],
      },
    })
  ).resource;
  const studio = (
    await post("/resources", {
      resource: { title: "Yoga studio", capacity: 12, ...weekdays(["07:00", "21:00"]), opening_hours_sat: ["09:00", "13:00"] },
    })
  ).resource;

  const haircut = (
    await post("/services", {
      service: { title: "Haircut", description: "Wash, cut and style.", interval: 30, max_slots: 2, price: "450.0" },
    })
  ).service;
  const beard = (await post("/services", { service: { title: "Beard trim", interval: 15, price: "200" } })).service;
  const yoga = (
    await post("/services", {
      service: { title: "Morning yoga", booking_type: "attendance", interval: 60, price: "180", booking_capacity: 2 },
    })
  ).service;

  for (const [resource, service] of [
    [anna, haircut],
    [bjorn, haircut],
    [bjorn, beard],
    [studio, yoga],
  ]) {
    await post("/providers", { provider: { resource_id: resource.id, service_id: service.id } });
  }

  const hair = (await post("/categories", { category: { title: "Hair", service_id_list: [haircut.id, beard.id] } })).category;
  await post("/categories", { category: { title: "Cuts", parent_id: hair.id, service_id_list: [haircut.id] } });
  await post("/categories", { category: { title: "Wellness", service_id_list: [yoga.id] } });

  // Constitution Day: the salon is closed for the parade.
  await must(
    call("PUT", `/api/v1/resources/${anna.id}/exception_dates/2027-05-17`, {
      token: key,
      body: { resource_exception_date: { opening_hours: null } },
    }),
    "closing Anna on 2027-05-17",
  );

  await post("/client/users", { user: { name: "Marit Fjord", email: "marit@fjord.example" }, role: "admin" });

  for (const person of [
    { name: "Ingrid Hansen", email: "ingrid@example.no", phone_number: "912 34 567" },
    { name: "Ola Nordmann", email: "ola@example.no", phone_number: "+47 98765432" },
    { name: "Emma Berg", phone_number: "41234567", city: "Bergen" },
  ]) {
    await post("/people", { person });
  }
}

/**
 * Payments at the stand-in, on every start: the stand-in keeps its objects in memory, so the
 * connected account linked last time is gone, and a new one is made, onboarded and linked. The
 * paid service is added once, by title, with every demo resource as its provider.
 */
async function seedPayments(key, adminToken, accountId, { stripeOrigin, stripeKey }) {
  await must(call("PUT", "/api/v1/client", { token: key, body: { client: { currency: "NOK", payment_provider: "stripe" } } }), "turning payments on");
  const created = await fetch(`${stripeOrigin}/v1/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${stripeKey}`, "content-type": "application/x-www-form-urlencoded" },
    body: "type=express&country=NO",
  });
  if (!created.ok) throw new Error(`creating the connected account at the stand-in failed: ${created.status} ${await created.text()}`);
  const { id: stripeAccountId } = await created.json();
  const onboarded = await fetch(`${stripeOrigin}/_test/accounts/${stripeAccountId}/onboard`, { method: "POST" });
  if (!onboarded.ok) throw new Error(`onboarding ${stripeAccountId} at the stand-in failed: ${onboarded.status}`);
  await must(
    call("PUT", `/admin/v1/accounts/${accountId}`, { token: adminToken, body: { account: { stripe_account_id: stripeAccountId } } }),
    "linking the connected account",
  );

  const services = await must(call("GET", "/api/v1/services", { token: key }), "listing services");
  if (services.some((e) => e.service.title === PAID_SERVICE)) return;
  const post = (path, body) => must(call("POST", `/api/v1${path}`, { token: key, body }), `POST ${path}`);
  const massage = (
    await post("/services", {
      service: { title: PAID_SERVICE, description: "60 minutes, paid when you book.", interval: 60, price: "650", payment: "full" },
    })
  ).service;
  const resources = await must(call("GET", "/api/v1/resources", { token: key }), "listing resources");
  for (const { resource } of resources) await post("/providers", { provider: { resource_id: resource.id, service_id: massage.id } });
}
