// The shop every catalogue entry asks: one account with every feature a route needs switched on
// (holds, the waitlist, e-mail verification, manual confirmation, payments through the Stripe
// stand-in) and one of each object an entry names, made through the operator and private APIs.
import { addDays, todayIn } from "../../src/domain/time";
import type { Reply, Shop, ShopIds, Slot, Transport, Wire } from "./types";

export interface ShopOptions {
  /** How setup, prepare and measured requests reach the Worker. */
  send: Transport;
  /** The operator API's bearer token of that Worker. */
  adminToken: string;
  /** The Stripe stand-in the Worker's STRIPE_API_BASE points at, and the secret key it takes. */
  stripe: { origin: string; secretKey: string };
  /** Sent as CF-Connecting-IP: one visitor and one office for every request. */
  ip?: string;
}

const ZONE = "Europe/Oslo";
const OPEN_EVERY_DAY = Object.fromEntries(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [`opening_hours_${d}`, ["06:00", "22:00"]]));
/** Hours 08–19 of each day from the first, one after another: a room or chair hour is never asked twice. */
const HOURS_A_DAY = 12;
const pad = (n: number) => String(n).padStart(2, "0");

const jsonOf = (reply: Reply) => {
  try {
    return reply.text ? JSON.parse(reply.text) : null;
  } catch {
    return reply.text;
  }
};

/** Why an answer is not a success: a non-2xx status, a JSON-RPC error, or a tool error (MCP). */
export function refusalOf(reply: Reply): string | undefined {
  if (reply.status < 200 || reply.status > 299) return `${reply.status} ${reply.text.slice(0, 400)}`;
  const body = (reply.headers.get("content-type") ?? "").includes("json") ? jsonOf(reply) : undefined;
  if (body && typeof body === "object" && body.jsonrpc === "2.0") {
    if (body.error) return `JSON-RPC error ${JSON.stringify(body.error).slice(0, 400)}`;
    if (body.result?.isError) return `tool error ${JSON.stringify(body.result.content).slice(0, 400)}`;
  }
  return undefined;
}

function hourCounter(firstDay: string) {
  let taken = 0;
  return (): Slot => {
    const n = taken++;
    const date = addDays(firstDay, Math.floor(n / HOURS_A_DAY));
    const hour = 8 + (n % HOURS_A_DAY);
    return { from: `${date} ${pad(hour)}:00`, to: `${date} ${pad(hour + 1)}:00` };
  };
}

/** A new shop and its objects; every request of the setup must answer 2xx. */
export async function seedShop(options: ShopOptions): Promise<Shop> {
  const { send, adminToken } = options;
  const base = { "user-agent": "booking-routes/1.0", "cf-connecting-ip": options.ip ?? "10.33.0.1" };
  const jsonHeaders = (json: unknown): Record<string, string> => (json === undefined ? {} : { "content-type": "application/json" });
  const body = (json: unknown) => (json === undefined ? undefined : JSON.stringify(json));
  let counter = 0;
  const firstDay = addDays(todayIn(Date.now(), ZONE), 2);

  const must = async (wire: Wire) => {
    const reply = await send(wire);
    const problem = refusalOf(reply);
    if (problem) throw new Error(`setup ${wire.method} ${wire.path}: ${problem}`);
    return jsonOf(reply);
  };
  const admin = (method: Wire["method"], path: string, json?: unknown) =>
    must({ method, path: `/admin/v1${path}`, headers: { ...base, authorization: `Bearer ${adminToken}`, ...jsonHeaders(json) }, body: body(json) });
  const stripe = async (method: "GET" | "POST", path: string, json?: unknown) => {
    const res = await fetch(`${options.stripe.origin}${path}`, {
      method,
      headers: json === undefined ? {} : { "content-type": "application/json" },
      body: body(json),
    });
    if (!res.ok) throw new Error(`stripe stand-in ${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  const subdomain = `routes${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await admin("POST", "/accounts", {
    account: {
      subdomain,
      name: "Routes shop",
      email: `owner@${subdomain}.example.com`,
      time_zone: ZONE,
      country_code: "NO",
      locale: "en",
      currency: "NOK",
      payment_provider: "stripe",
      payment_window_minutes: 120,
      slot_holds_enabled: true,
      slot_hold_minutes: 15,
      waitlist_enabled: true,
      verification_method: 2,
      confirm_manually: true,
    },
  });
  // The shop's own Stripe account, made and onboarded at the stand-in, linked by the operator.
  const connected = await fetch(`${options.stripe.origin}/v1/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.stripe.secretKey}`, "content-type": "application/x-www-form-urlencoded" },
    body: "type=express&country=NO",
  }).then((r) => r.json() as Promise<{ id: string }>);
  await stripe("POST", `/_test/accounts/${connected.id}/onboard`);
  await admin("PUT", `/accounts/${created.account.id}`, { account: { stripe_account_id: connected.id } });

  const shop: Shop = {
    apiKey: created.api_key,
    subdomain,
    firstDay,
    ids: {} as ShopIds,
    next: () => ++counter,
    nextSlot: hourCounter(firstDay),
    nextChairSlot: hourCounter(firstDay),
    api: (method, path, json, headers = {}) => ({
      method,
      path: `/api/v1${path}`,
      headers: { ...base, authorization: `Bearer ${created.api_key}`, ...jsonHeaders(json), ...headers },
      body: body(json),
    }),
    site: (method, path, json, headers = {}) => ({
      method,
      path,
      host: `${subdomain}.localhost`,
      headers: { ...base, ...jsonHeaders(json), ...headers },
      body: body(json),
    }),
    root: (method, path, raw, headers = {}) => ({ method, path, headers: { ...base, ...headers }, body: raw }),
    must,
    stripe,
  };
  shop.ids = await seedObjects(shop);
  return shop;
}

/** A booking on a fresh room hour that waits for its code: e-mail verification, since `confirm: false`. */
export const unverifiedBooking = async (shop: Shop) => {
  const slot = shop.nextSlot();
  const n = shop.next();
  return (
    await shop.must(
      shop.api("POST", "/bookings", {
        confirm: false,
        booking: {
          resource_id: shop.ids.room,
          service_id: shop.ids.cut,
          booked_from: slot.from,
          booked_to: slot.to,
          person_attributes: { name: `Unverified ${n}`, email: `unverified${n}@example.com` },
        },
      }),
    )
  ).booking as { id: number; verification_code: string };
};

/** A booking awaiting the shop's confirmation (the shop confirms by hand): verified, not yet confirmed. */
export async function unconfirmedBooking(shop: Shop): Promise<number> {
  const { id } = await unverifiedBooking(shop);
  await shop.must(shop.api("PUT", `/bookings/${id}/verify`, {}));
  return id;
}

/** A confirmed booking on a fresh room hour. */
export const confirmedBooking = async (shop: Shop): Promise<number> => {
  const slot = shop.nextSlot();
  return (
    await shop.must(shop.api("POST", "/bookings", { booking: { resource_id: shop.ids.room, service_id: shop.ids.cut, booked_from: slot.from, booked_to: slot.to } }))
  ).booking.id;
};

/** A visitor's booking on the site (awaiting verification) and the token that opens it. */
export async function visitorBooking(shop: Shop, serviceId = shop.ids.cut): Promise<{ id: number; token: string }> {
  const slot = shop.nextSlot();
  const n = shop.next();
  const made = await shop.must(
    shop.site("POST", "/bookings", {
      booking: { service_id: serviceId, booked_from: slot.from, booked_to: slot.to, person_attributes: { name: `Visitor ${n}`, email: `visitor${n}@example.com` } },
    }),
  );
  return { id: made.booking.id, token: made.booking_token };
}

/** A private booking of the paid service, awaiting payment, and its checkout session at the stand-in. */
export async function unpaidBooking(shop: Shop): Promise<{ id: number; session: string }> {
  const slot = shop.nextSlot();
  const { booking } = await shop.must(
    shop.api("POST", "/bookings", {
      checkout: true,
      booking: { resource_id: shop.ids.room, service_id: shop.ids.massage, booked_from: slot.from, booked_to: slot.to },
    }),
  );
  return { id: booking.id, session: new URL(booking.payment.checkout_url).pathname.split("/").pop()! };
}

/** A chair hour made full by a booking, so its waitlist takes people. */
export async function fullChairHour(shop: Shop): Promise<{ slot: Slot; booking: number }> {
  const slot = shop.nextChairSlot();
  const { booking } = await shop.must(
    shop.api("POST", "/bookings", { booking: { resource_id: shop.ids.chair, service_id: shop.ids.trim, booked_from: slot.from, booked_to: slot.to } }),
  );
  return { slot, booking: booking.id };
}

export const waitlistBody = (shop: Shop, slot: Slot) => {
  const n = shop.next();
  return {
    waitlist_entry: {
      service_id: shop.ids.trim,
      resource_id: shop.ids.chair,
      booked_from: slot.from,
      booked_to: slot.to,
      person_attributes: { name: `Waiting ${n}`, email: `waiting${n}@example.com` },
    },
  };
};

/**
 * A prepare that takes one of a batch made at once, per shop: for targets whose making waits on
 * background work (a code's SMS through the message queue), once per batch rather than per request.
 */
export function stockOf<T>(label: string, make: (s: Shop) => Promise<T[]>) {
  const stocks = new WeakMap<Shop, T[]>();
  return async (s: Shop): Promise<T> => {
    let stock = stocks.get(s);
    if (!stock?.length) stocks.set(s, (stock = await make(s)));
    const item = stock.shift();
    if (item === undefined) throw new Error(`${label}: none made`);
    return item;
  };
}

/** A Norwegian mobile number of its own per call, so the SMS cap per number (5 an hour) is never reached. */
export const phoneOf = (n: number) => `+4745${String(n % 1_000_000).padStart(6, "0")}`;

/** Asks again until `ask` answers a value: for what a queue's consumer does after the answer. */
async function eventually<T>(what: string, ask: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await ask();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until the recurrence queue's consumer has made a collection's items: its writes bump the
 * listing version, which would make a later entry's cached list read stale at a moment of chance.
 */
export async function settled(shop: Shop, kind: "bookings" | "events", collectionId: string): Promise<string> {
  await eventually(`collection ${collectionId}`, async () =>
    (await shop.must(shop.api("GET", `/${kind}/recurring/${collectionId}/status`))).recurring_collection.status === "pending" ? undefined : true,
  );
  return collectionId;
}

/** Codes sent to fresh numbers, read back once the message queue delivered them (the sink keeps the delivered text). */
export async function sentCodes(shop: Shop, on: "api" | "site", count: number): Promise<{ phone: string; code: string }[]> {
  const phones = Array.from({ length: count }, () => phoneOf(shop.next()));
  for (const phone of phones) await shop.must(shop[on]("POST", "/people/perishable_token/send", { person: { phone_number: phone } }));
  return eventually("the codes' SMS", async () => {
    const messages: { message: { recipient: string; body: string; status: string } }[] = await shop.must(shop.api("GET", "/messages?kind=token"));
    const codes = phones.map((phone) => {
      const delivered = messages.find((m) => m.message.recipient === phone && m.message.status === "sent");
      return delivered && { phone, code: /(\d{5})/.exec(delivered.message.body)?.[1] ?? "" };
    });
    return codes.every((c) => c?.code) ? (codes as { phone: string; code: string }[]) : undefined;
  });
}

async function seedObjects(shop: Shop): Promise<ShopIds> {
  const { must, api, site } = shop;
  const resource = async (title: string, capacity: number) =>
    (await must(api("POST", "/resources", { resource: { title, capacity, ...OPEN_EVERY_DAY } }))).resource.id as number;
  const service = async (attributes: Record<string, unknown>) => (await must(api("POST", "/services", { service: attributes }))).service.id as number;
  const link = async (resourceId: number, serviceId: number) =>
    (await must(api("POST", "/providers", { provider: { resource_id: resourceId, service_id: serviceId } }))).provider.id as number;

  const [room, chair, hall, annex] = [await resource("Room", 1000), await resource("Chair", 1), await resource("Hall", 50), await resource("Annex", 1)];
  const cut = await service({ title: "Cut", interval: 60 });
  const trim = await service({ title: "Trim", interval: 60 });
  const yoga = await service({ title: "Yoga", booking_type: "attendance" });
  const massage = await service({ title: "Massage, paid online", interval: 60, price: "450", payment: "full" });
  const provider = await link(room, cut);
  await link(chair, trim);
  await link(hall, yoga);
  await link(room, massage);
  const category = (await must(api("POST", "/categories", { category: { title: "Hair", service_id_list: [cut, trim] } }))).category.id;
  const kari = (await must(api("POST", "/people", { person: { name: "Kari Nordmann", email: "kari@example.com", phone_number: "+4741234567" } }))).person.id;
  const child = (await must(api("POST", "/people", { person: { name: "Ola Nordmann", parent_id: kari } }))).person.id;
  const eventDay = addDays(shop.firstDay, 1);
  const event = (
    await must(
      api("POST", "/events", {
        event: { resource_id: hall, service_id: yoga, capacity: 30, starts_at: `${eventDay} 10:00`, ends_at: `${eventDay} 11:00`, title: "Yoga class", published: true },
      }),
    )
  ).event.id;

  // Subscribed before the first booking, so that booking's events make a delivery to redeliver.
  const webHook = (await must(api("POST", "/web_hooks", { web_hook: { target_url: "http://127.0.0.1:9/hook", event: "booking.*" } }))).web_hook.id;
  const slot = shop.nextSlot();
  const booking = (
    await must(
      api("POST", "/bookings", {
        confirmation_send_email: true,
        booking: { resource_id: room, service_id: cut, booked_from: slot.from, booked_to: slot.to, person_id: kari, external_id: "routes-1" },
      }),
    )
  ).booking.id;
  const [confirmation] = (await must(api("GET", `/messages?booking_id=${booking}&kind=confirmation`))).map((m: any) => m.message);
  const calendarLink = /(\/calendar\/bookings\/\S+)/.exec(confirmation.body)?.[1];
  if (!calendarLink) throw new Error(`setup: no calendar link in the confirmation e-mail: ${confirmation.body}`);
  const delivery = await eventually(
    "the web hook's first delivery",
    async () => (await must(api("GET", `/web_hooks/${webHook}/deliveries`)))[0]?.webhook_delivery?.id as number | undefined,
  );

  const userLink = (await must(api("POST", "/client/users", { user: { name: "Staff", email: "staff@example.com" }, role: "staff" }))).client_user_link.id;
  const exceptionDate = addDays(shop.firstDay, 300);
  await must(api("PUT", `/resources/${annex}/exception_dates/${exceptionDate}`, { resource_exception_date: { opening_hours: ["09:00", "12:00"] } }));
  const annexFeed = (await must(api("POST", "/calendar_feeds", { calendar_feed: { resource_id: annex } }))).calendar_feed.url as string;
  const roomFeedUrl = (await must(api("POST", "/calendar_feeds", { calendar_feed: { resource_id: room } }))).calendar_feed.url as string;
  const subscription = (await must(api("POST", "/calendar_subscriptions", { calendar_subscription: { resource_id: annex, url: roomFeedUrl, name: "Room" } })))
    .calendar_subscription.id;

  const weekly = shop.nextSlot();
  const bookingCollection = (
    await must(
      api("POST", "/bookings/recurring", {
        booking: { resource_id: room, booked_from: weekly.from, booked_to: weekly.to, title: "Weekly trim" },
        recurring: { rrule: "FREQ=WEEKLY;COUNT=2" },
      }),
    )
  ).collection_id;
  const eventCollection = (
    await must(
      api("POST", "/events/recurring", {
        event: { resource_id: hall, service_id: yoga, capacity: 10, starts_at: `${eventDay} 18:00`, ends_at: `${eventDay} 19:00`, title: "Evening yoga" },
        recurrence: { rrule: "FREQ=WEEKLY;COUNT=2" },
      }),
    )
  ).collection_id;
  await settled(shop, "bookings", bookingCollection);
  await settled(shop, "events", eventCollection);
  const held = shop.nextSlot();
  const hold = (await must(api("POST", "/slots/holds", { slot_hold: { service_id: cut, booked_from: held.from, booked_to: held.to } }))).slot_hold.id;

  const ids = { room, chair, hall, annex, cut, trim, yoga, massage } as ShopIds;
  Object.assign(shop.ids, ids);
  const full = await fullChairHour(shop);
  const waitlistEntry = (await must(api("POST", "/waitlist", waitlistBody(shop, full.slot)))).waitlist_entry.id;
  const siteBooking = await visitorBooking(shop);
  const sitePaidBooking = await visitorBooking(shop, massage);
  const paidBooking = (await unpaidBooking(shop)).id;
  const siteHeld = shop.nextSlot();
  const siteHold = await must(site("POST", "/slots/holds", { slot_hold: { service_id: cut, booked_from: siteHeld.from, booked_to: siteHeld.to } }));
  const fullForSite = await fullChairHour(shop);
  const siteWaitlist = await must(site("POST", "/waitlist", waitlistBody(shop, fullForSite.slot)));

  return {
    ...ids,
    provider,
    category,
    kari,
    child,
    event,
    booking,
    externalId: "routes-1",
    message: confirmation.id,
    bookingFile: calendarLink,
    webHook,
    delivery,
    userLink,
    exceptionDate,
    annexFeedFile: new URL(annexFeed).pathname,
    roomFeedUrl,
    subscription,
    bookingCollection,
    eventCollection,
    hold,
    waitlistEntry,
    siteBooking,
    sitePaidBooking,
    paidBooking,
    siteHold: { id: siteHold.slot_hold.id, secret: siteHold.hold_secret },
    siteWaitlistEntry: { id: siteWaitlist.waitlist_entry.id, token: siteWaitlist.waitlist_token },
  };
}
