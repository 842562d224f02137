// Property-based abuse of every write route: generated bodies that break one field (wrong type,
// null, huge or unicode text, nested junk, arrays for scalars, bad dates and zones) among unknown
// and read-only keys, bodies that are no object, and junk path ids. Each answers 4xx in the spec's
// shape, never 5xx, and the database is exactly as it was.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, send, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import {
  anyValue,
  depthOf,
  badBoolean,
  badCustomData,
  badDate,
  badDateTime,
  badEmail,
  badEnum,
  badIdList,
  badInteger,
  badOpeningHours,
  badPhone,
  badRequiredText,
  badText,
  badTimeZone,
  notAnObject,
  READ_ONLY_KEYS,
} from "../support/junk";
import { dbSnapshot, expectAttributeErrors, expectClientError } from "../support/security";

/** Runs per route: enough to reach every field's generator a few times, cheap enough for the suite. */
const RUNS = 8;

let api: Client;
let subdomain: string;
let ids: Record<"resource" | "service" | "attendance" | "person" | "person2" | "category" | "event" | "booking" | "webHook", number>;

beforeAll(async () => {
  const created = await newAccount();
  api = created.api;
  subdomain = created.account.subdomain;
  const make = catalogue(api);
  const resource = await make.resource();
  const service = await make.service();
  const attendance = await make.service({ booking_type: "attendance" });
  await make.provider(resource.id, service.id);
  const person = await make.person({ email: "ann@example.com" });
  const person2 = await make.person({ name: "Bob" });
  const category = (await must(api.post("/categories", { category: { title: "Hair" } }))).category;
  const event = await make.event({ resourceId: resource.id, serviceId: attendance.id, capacity: 5, starts: "2030-01-07 10:00", ends: "2030-01-07 11:00" });
  const booking = await make.booking({ resource_id: resource.id, booked_from: "2030-01-08 10:00", booked_to: "2030-01-08 11:00" });
  // Paused, so a write that slipped through could not start deliveries in the background.
  const webHook = (await must(api.post("/web_hooks", { web_hook: { target_url: "https://hooks.example.com/x", event: "*", active: false } }))).web_hook;
  ids = {
    resource: resource.id,
    service: service.id,
    attendance: attendance.id,
    person: person.id,
    person2: person2.id,
    category: category.id,
    event,
    booking: booking.id,
    webHook: webHook.id,
  };
});

type Fields = Record<string, fc.Arbitrary<unknown>>;
interface WriteRoute {
  method: string;
  path: () => string;
  /** A body the route accepts; each run breaks one field of it. */
  base: () => Record<string, any>;
  /** Dotted paths into the body, each with values that field must refuse. */
  fields: Fields;
  root?: string;
  site?: boolean;
  /** Keys of READ_ONLY_KEYS this route takes as input (a web hook's `active`). */
  inputs?: string[];
}

const withoutKey = (fields: Fields, key: string): Fields => Object.fromEntries(Object.entries(fields).filter(([k]) => k !== key));

const bookingFields = (prefix = "booking.", opts: { create: boolean } = { create: true }): Fields => ({
  [`${prefix}resource_id`]: badInteger({ min: 1 }),
  [`${prefix}service_id`]: badInteger({ min: 1 }),
  [`${prefix}person_id`]: badInteger({ min: 1 }),
  [`${prefix}event_id`]: badInteger({ min: 1 }),
  [`${prefix}count`]: badInteger({ min: 1, max: 100_000 }),
  [`${prefix}booked_from`]: fc.oneof(badDateTime(), fc.constant(null)),
  [`${prefix}booked_to`]: fc.oneof(badDateTime(), fc.constant(null)),
  [`${prefix}reminder_at`]: badDateTime(),
  [`${prefix}paid_at`]: badDateTime(),
  [`${prefix}expires_at`]: badDateTime(),
  [`${prefix}title`]: badText(),
  [`${prefix}external_id`]: badText(),
  [`${prefix}status`]: badText(),
  [`${prefix}custom_data`]: badCustomData(),
  // Updates have no public_booking: there it is an unknown key, ignored.
  ...(opts.create ? { [`${prefix}public_booking`]: badBoolean() } : {}),
});
const createFlags: Fields = {
  confirm: badBoolean(),
  ignore_capacity: badBoolean(),
  add_reminder_sms: badBoolean(),
  extended: badBoolean(),
  verification_send_sms: badBoolean(),
};
const actionFlags: Fields = {
  extended: badBoolean(),
  confirmation_send_email: badBoolean(),
  cancellation_send_sms: badBoolean(),
  decline_send_email: badBoolean(),
  notification_send_sms: badBoolean(),
};
const newBooking = () => ({ booking: { resource_id: ids.resource, booked_from: "2030-01-09 10:00", booked_to: "2030-01-09 11:00" } });
const publicBooking = () => ({
  booking: { service_id: ids.service, booked_from: "2030-01-09 10:00", booked_to: "2030-01-09 11:00", person_attributes: { name: "Visitor" } },
});

const personFields = (prefix = "person."): Fields => ({
  [`${prefix}name`]: badText(),
  [`${prefix}email`]: badEmail(),
  [`${prefix}phone_number`]: badPhone(),
  [`${prefix}phonenumber`]: badPhone(),
  [`${prefix}date_of_birth`]: badDate(),
  [`${prefix}country_code`]: badEnum(["NO", "SE", "US", "no"]),
  [`${prefix}parent_id`]: badInteger({ min: 1 }),
  [`${prefix}custom_data`]: badCustomData(),
  [`${prefix}notes`]: badText(20_000),
});

const serviceFields: Fields = {
  "service.title": badRequiredText(),
  "service.interval": badInteger({ min: 1 }),
  "service.booking_capacity": badInteger({ min: 1 }),
  "service.max_slots": badInteger({ min: 1 }),
  "service.price": fc.oneof(badText(), fc.constantFrom("free", "1,5", "-", "1e3")),
  "service.booking_type": badEnum(["appointment", "attendance"]),
  "service.has_day_booking": badBoolean(),
  "service.custom_data": badCustomData(),
};
const resourceFields: Fields = {
  "resource.title": badRequiredText(),
  "resource.capacity": badInteger({ min: 1 }),
  "resource.opening_hours_mon": badOpeningHours(),
  "resource.opening_hours_sun": badOpeningHours(),
  "resource.custom_data": badCustomData(),
};
const eventFields: Fields = {
  "event.resource_id": badInteger({ min: 1 }),
  "event.service_id": badInteger({ min: 1 }),
  "event.capacity": badInteger({ min: 1, max: 100_000 }),
  "event.starts_at": badDateTime(),
  "event.ends_at": badDateTime(),
  "event.published": badBoolean(),
  "event.title": badText(),
  "event.custom_data": badCustomData(),
};
const newEvent = () => ({ event: { resource_id: ids.resource, service_id: ids.attendance, capacity: 3, starts_at: "2030-02-01 10:00", ends_at: "2030-02-01 11:00" } });
const categoryFields: Fields = {
  "category.title": badRequiredText(),
  "category.parent_id": badInteger({ min: 1 }),
  "category.service_id_list": badIdList(),
  "category.custom_data": badCustomData(),
};
const webHookFields: Fields = {
  "web_hook.target_url": fc.oneof(
    badRequiredText(2000),
    fc.constantFrom("ftp://example.com/x", "not a url", "javascript:alert(1)", "//example.com", "file:///etc/passwd"),
  ),
  "web_hook.event": fc.oneof(badRequiredText(), fc.constantFrom("booking.exploded", "nothing.*", "**", "booking.*.*")),
  "web_hook.active": badBoolean(),
};

const routes: [string, WriteRoute][] = [
  ["POST /bookings", { method: "POST", path: () => "/bookings", base: newBooking, fields: { ...bookingFields(), ...createFlags }, root: "booking" }],
  [
    "PUT /bookings/{id}",
    {
      method: "PUT",
      path: () => `/bookings/${ids.booking}`,
      base: () => ({ booking: { title: "Moved" } }),
      fields: { ...bookingFields("booking.", { create: false }), ignore_capacity: badBoolean(), modification_send_sms: badBoolean() },
      root: "booking",
    },
  ],
  ...(["verify", "confirm", "decline", "cancel"] as const).map((action): [string, WriteRoute] => [
    `PUT /bookings/{id}/${action}`,
    { method: "PUT", path: () => `/bookings/${ids.booking}/${action}`, base: () => ({}), fields: actionFlags },
  ]),
  [
    "PUT /bookings/{id}/verify_code",
    {
      method: "PUT",
      path: () => `/bookings/${ids.booking}/verify_code`,
      base: () => ({ verification_code: "12345" }),
      fields: { verification_code: badText(20), ...actionFlags },
    },
  ],
  [
    "PUT /bookings/{id}/status",
    { method: "PUT", path: () => `/bookings/${ids.booking}/status`, base: () => ({ status: "paid" }), fields: { status: badText(), extended: badBoolean() } },
  ],
  ["DELETE /bookings/{id}", { method: "DELETE", path: () => `/bookings/${ids.booking}`, base: () => ({}), fields: actionFlags }],
  [
    "POST /bookings/recurring",
    {
      method: "POST",
      path: () => "/bookings/recurring",
      root: "booking",
      base: () => ({ ...newBooking(), recurring: { rrule: "FREQ=DAILY;COUNT=2" } }),
      fields: {
        ...bookingFields(),
        recurring: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.array(fc.integer(), { maxLength: 2 }), fc.constant(null)),
        "recurring.rrule": badText(1000),
      },
    },
  ],
  ["DELETE /bookings/recurring/{id}", { method: "DELETE", path: () => `/bookings/recurring/${crypto.randomUUID()}`, base: () => ({}), fields: actionFlags }],
  [
    "POST /events/recurring",
    {
      method: "POST",
      path: () => "/events/recurring",
      root: "event",
      base: () => ({ ...newEvent(), recurrence: { rrule: "FREQ=DAILY;COUNT=2" } }),
      fields: { ...eventFields, recurrence: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)), "recurrence.rdate": badText(20_000) },
    },
  ],
  ["POST /people", { method: "POST", path: () => "/people", base: () => ({ person: { name: "New" } }), fields: personFields(), root: "person" }],
  ["PUT /people/{id}", { method: "PUT", path: () => `/people/${ids.person}`, base: () => ({ person: { city: "Oslo" } }), fields: personFields(), root: "person" }],
  [
    "POST /people/{id}/merge",
    {
      method: "POST",
      path: () => `/people/${ids.person}/merge?merge_person_id=${ids.person2}`,
      base: () => ({ person: { city: "Oslo" } }),
      fields: personFields(),
      root: "person",
    },
  ],
  [
    "POST /people/perishable_token/send",
    {
      method: "POST",
      path: () => "/people/perishable_token/send",
      root: "person",
      base: () => ({ person: {} }),
      fields: { person: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), "person.phone_number": fc.oneof(badPhone(), badText(64)) },
    },
  ],
  [
    "POST /people/perishable_token/verify",
    {
      method: "POST",
      path: () => "/people/perishable_token/verify",
      root: "person",
      base: () => ({ person: { phone_number: "+4741000000" } }),
      fields: { perishable_token: badText(20), "person.phone_number": fc.oneof(badPhone(), badText(64)) },
    },
  ],
  ["POST /services", { method: "POST", path: () => "/services", base: () => ({ service: { title: "Cut" } }), fields: serviceFields, root: "service" }],
  [
    "PUT /services/{id}",
    { method: "PUT", path: () => `/services/${ids.service}`, base: () => ({ service: { description: "d" } }), fields: serviceFields, root: "service" },
  ],
  ["POST /resources", { method: "POST", path: () => "/resources", base: () => ({ resource: { title: "Room" } }), fields: resourceFields, root: "resource" }],
  [
    "PUT /resources/{id}",
    { method: "PUT", path: () => `/resources/${ids.resource}`, base: () => ({ resource: { title: "Room" } }), fields: resourceFields, root: "resource" },
  ],
  ...(["POST", "PUT"] as const).map((method): [string, WriteRoute] => [
    `${method} /resources/{id}/exception_dates/{date}`,
    {
      method,
      path: () => `/resources/${ids.resource}/exception_dates/2030-03-03`,
      root: "resource_exception_date",
      base: () => ({ resource_exception_date: { opening_hours: ["09:00", "12:00"] } }),
      fields: {
        resource_exception_date: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.array(fc.integer(), { maxLength: 2 })),
        "resource_exception_date.opening_hours": badOpeningHours(),
      },
    },
  ]),
  ...(["POST", "PUT"] as const).map((method): [string, WriteRoute] => [
    `${method} /resources/{id}/exception_dates`,
    {
      method,
      path: () => `/resources/${ids.resource}/exception_dates`,
      base: () => ({
        resource_exception_dates: [
          { exception_date: "2030-03-04", opening_hours: ["09:00", "12:00"] },
          { exception_date: "2030-03-05", _destroy: true },
        ],
      }),
      fields: {
        resource_exception_dates: fc.oneof(
          fc.string({ maxLength: 5 }),
          fc.integer(),
          fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { minKeys: 1, maxKeys: 2 }),
        ),
        "resource_exception_dates.0.exception_date": badDate(),
        "resource_exception_dates.0.opening_hours": badOpeningHours(),
        "resource_exception_dates.1._destroy": badBoolean(),
      },
    },
  ]),
  ["POST /events", { method: "POST", path: () => "/events", base: newEvent, fields: eventFields, root: "event" }],
  ["PUT /events/{id}", { method: "PUT", path: () => `/events/${ids.event}`, base: () => ({ event: { title: "Yoga" } }), fields: eventFields, root: "event" }],
  ["POST /categories", { method: "POST", path: () => "/categories", base: () => ({ category: { title: "C" } }), fields: categoryFields, root: "category" }],
  [
    "PUT /categories/{id}",
    { method: "PUT", path: () => `/categories/${ids.category}`, base: () => ({ category: { title: "C" } }), fields: categoryFields, root: "category" },
  ],
  [
    "POST /providers",
    {
      method: "POST",
      path: () => "/providers",
      base: () => ({ provider: { resource_id: ids.resource, service_id: ids.attendance } }),
      fields: { "provider.resource_id": badInteger({ min: 1 }), "provider.service_id": badInteger({ min: 1 }) },
      root: "provider",
    },
  ],
  [
    "POST /web_hooks",
    {
      method: "POST",
      path: () => "/web_hooks",
      base: () => ({ web_hook: { target_url: "https://hooks.example.com/y", event: "booking.*", active: false } }),
      fields: webHookFields,
      root: "web_hook",
      inputs: ["active"],
    },
  ],
  [
    "PUT /web_hooks/{id}",
    {
      method: "PUT",
      path: () => `/web_hooks/${ids.webHook}`,
      base: () => ({ web_hook: { event: "booking.*" } }),
      fields: webHookFields,
      root: "web_hook",
      inputs: ["active"],
    },
  ],
  [
    "PUT /client",
    {
      method: "PUT",
      path: () => "/client",
      root: "client",
      base: () => ({ client: { name: "Renamed" } }),
      fields: {
        "client.time_zone": badTimeZone(),
        "client.locale": badEnum(["en", "sv", "nb"]),
        "client.country_code": badEnum(["NO", "SE", "no"]),
        "client.currency": fc.oneof(badText(), fc.constantFrom("EURO", "XYZ", "12")),
        "client.email": badEmail(),
        "client.subdomain": fc.oneof(badText(63), fc.constantFrom("-x", "a_b", "a b", "ä")),
        "client.first_bookable_period": fc.oneof(badText(), fc.constantFrom("soonish", "-2 hours", "1000 years", "P", "2 fortnights")),
        "client.interval_rounding": badInteger({ min: 0 }),
        "client.slot_generation_type": badInteger({ min: 1, max: 2 }),
        "client.confirm_manually": badBoolean(),
        "client.verification_method": badInteger({ min: 0, max: 2 }),
      },
    },
  ],
  [
    "POST /client/users",
    {
      method: "POST",
      path: () => "/client/users",
      root: "user",
      base: () => ({ user: { name: "Staff", email: "staff@example.com" }, role: "staff" }),
      fields: {
        "user.name": badRequiredText(),
        "user.email": badEmail(),
        "user.phone_number": fc.oneof(badText(32), fc.constantFrom("call me", "++", "12")),
        role: badEnum(["admin", "manager", "staff"]),
      },
    },
  ],
  // The site ignores expires_at (a visitor cannot choose their hold), so a bad one is no error there.
  [
    "site POST /bookings",
    {
      method: "POST",
      path: () => "/bookings",
      base: publicBooking,
      fields: { ...withoutKey(bookingFields(), "booking.expires_at"), confirm: badBoolean(), extended: badBoolean() },
      root: "booking",
      site: true,
    },
  ],
  [
    "site POST /people/perishable_token/send",
    {
      method: "POST",
      path: () => "/people/perishable_token/send",
      root: "person",
      site: true,
      base: () => ({ person: {} }),
      fields: { person: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), "person.phone_number": fc.oneof(badPhone(), badText(64)) },
    },
  ],
  [
    "site POST /people/perishable_token/verify",
    {
      method: "POST",
      path: () => "/people/perishable_token/verify",
      root: "person",
      site: true,
      base: () => ({ person: { phone_number: "+4741000000" } }),
      fields: { perishable_token: badText(20), "person.phone_number": fc.oneof(badPhone(), badText(64)) },
    },
  ],
];

function setPath(target: Record<string, any>, dotted: string, value: unknown) {
  const keys = dotted.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== "object") node[key] = {};
    node = node[key];
  }
  node[keys[keys.length - 1]] = value;
}

/** The attribute a 400 names for a dotted field: the wrapper key is not part of the name. */
function attributeOf(dotted: string, root?: string) {
  const [head, next] = dotted.split(".");
  if (next === undefined) return head;
  // Entries are named by full path (`resource_exception_dates[0].exception_date`).
  if (head === "resource_exception_dates") return null;
  // Recurrence parameters are checked after the first item, by their own names.
  if (head === root || head === "recurring" || head === "recurrence") return next;
  return head;
}

/** The attribute that holds a dotted field: its first name below the wrapper key. */
function holderOf(dotted: string, root?: string) {
  const [head, next] = dotted.split(".");
  return head === root && next !== undefined ? next : head;
}

const extras = fc.record({
  unknown: fc.dictionary(
    fc.string({ maxLength: 6 }).map((k) => `x_${k}`),
    anyValue(),
    { maxKeys: 3 },
  ),
  readOnly: fc.subarray([...READ_ONLY_KEYS], { maxLength: 4 }),
  readOnlyValue: anyValue(),
});

function request(route: WriteRoute, raw: string, contentType = "application/json") {
  const url = route.site ? `http://${subdomain}.localhost${route.path()}` : `/api/v1${route.path()}`;
  const headers: Record<string, string> = { "content-type": contentType };
  if (!route.site) headers.authorization = `Bearer ${api.apiKey}`;
  return send(route.method, url, { headers, body: raw });
}

describe("generated malformed bodies on every write route", () => {
  it.each(routes)("%s: one broken field among unknown and read-only keys is a 400 naming it, a non-object body a 400 on base; nothing changes", async (name, route) => {
    const before = await dbSnapshot();
    const broken = fc.oneof(...Object.entries(route.fields).map(([field, values]) => values.map((value) => ({ field, value }))));
    await fc.assert(
      fc.asyncProperty(broken, extras, async ({ field, value }, { unknown, readOnly, readOnlyValue }) => {
        const payload = route.base();
        const wrapper = route.root && typeof payload[route.root] === "object" ? payload[route.root] : payload;
        for (const key of readOnly.filter((k) => !route.inputs?.includes(k)))
          Object.defineProperty(wrapper, key, { value: readOnlyValue, enumerable: true, writable: true, configurable: true });
        Object.assign(wrapper, unknown);
        setPath(payload, field, value);
        const res = await request(route, JSON.stringify(payload));
        const context = `${name} ${field}=${JSON.stringify(value)?.slice(0, 80)}`;
        expect(res.status, `${context} → ${JSON.stringify(res.body)}`).toBe(400);
        expectAttributeErrors(res.body, context);
        // Nesting too deep is refused before any field's own rule, on the attribute that holds it.
        const attribute = depthOf(value) > 32 ? holderOf(field, route.root) : attributeOf(field, route.root);
        if (attribute) expect(Object.keys(res.body), context).toContain(attribute);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(notAnObject(), async (raw) => {
        const res = await request(route, raw);
        expect(res.status, `${name} ${raw}`).toBe(400);
        expect(res.body).toEqual({ base: [expect.any(String)] });
      }),
      { numRuns: 3 },
    );
    expect(await dbSnapshot()).toEqual(before);
  });
});

describe("generated junk in the path of write routes without a body", () => {
  const junkId = fc.oneof(
    fc.constantFrom("0", "-1", "1.5", "1e3", "0x1", "9007199254740993", "99999999999999999999", "%00", "%F0%9F%92%A5", "..%2F..%2Fclient", "null", "%20"),
    // "." and ".." are dot segments, not ids: URL parsing resolves them to the parent path before
    // the Worker sees the request (DELETE /services/. is DELETE /services, a 405 tested elsewhere).
    fc
      .string({ minLength: 1, maxLength: 8 })
      .map(encodeURIComponent)
      .filter((id) => id !== "." && id !== ".."),
    fc.integer({ min: 900_000, max: 2 ** 31 }).map(String),
  );
  const bodyless: [string, (id: string) => string][] = [
    ["DELETE", (id) => `/services/${id}`],
    ["DELETE", (id) => `/resources/${id}`],
    ["DELETE", (id) => `/events/${id}`],
    ["DELETE", (id) => `/categories/${id}`],
    ["DELETE", (id) => `/providers/${id}`],
    ["DELETE", (id) => `/web_hooks/${id}`],
    ["DELETE", (id) => `/people/${id}`],
    ["PUT", (id) => `/people/${id}/undelete`],
    ["DELETE", (id) => `/resources/${id}/exception_dates/2030-03-03`],
    ["DELETE", (id) => `/resources/1/exception_dates/${id}`],
    ["POST", (id) => `/web_hooks/${id}/deliveries/1/redeliver`],
    ["POST", (id) => `/web_hooks/1/deliveries/${id}/redeliver`],
    ["PUT", (id) => `/bookings/${id}/confirm`],
    ["POST", (id) => `/people/${id}/merge?merge_person_id=1`],
    ["DELETE", (id) => `/bookings/recurring/${id}`],
  ];

  it("answers 404 with {error} for ids that name nothing, and changes nothing", async () => {
    const before = await dbSnapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyless), junkId, async ([method, path], id) => {
        const res = await send(method, `/api/v1${path(id)}`, { headers: { authorization: `Bearer ${api.apiKey}`, "content-type": "application/json" }, body: "{}" });
        expectClientError(res, `${method} ${path(id)}`);
        expect(res.status, `${method} ${path(id)}`).toBe(404);
      }),
      { numRuns: 24 },
    );
    expect(await dbSnapshot()).toEqual(before);
  }, 90_000);
});

describe("generated junk in query strings", () => {
  const names = [
    "page",
    "since",
    "start",
    "end",
    "from",
    "to",
    "resource_id",
    "service_id",
    "person_id",
    "state",
    "status",
    "order",
    "extended",
    "selected_resources",
    "merge_person_id",
    "search",
    "date_of_birth",
    "booking_id",
    "channel",
    "kind",
    "external_id",
    "collection_id",
  ];
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    badDateTime().map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
    fc.constantFrom("-1", "0", "1e9", "9007199254740993", "2030-02-30", "", "%", "%zz", "[]", "a".repeat(2000)),
  );
  const pair = fc
    .tuple(fc.constantFrom(...names), fc.constantFrom("", "[]", "[0]", "[a][b]"), value)
    .map(([name, suffix, v]) => `${encodeURIComponent(name + suffix)}=${encodeURIComponent(v)}`);
  const lists = [
    "/bookings",
    "/bookings/all",
    "/bookings/upcoming",
    "/events",
    "/people",
    "/providers",
    "/messages",
    "/client/holidays",
    "/resources/RESOURCE/exception_dates",
    "/resources/RESOURCE/opening_hours",
    "/services/SERVICE/slots",
    "/services/SERVICE/available_dates",
    "/people/PERSON/bookings",
    "/events/EVENT/bookings",
    "/web_hooks/HOOK/deliveries",
    "/people/PERSON/merge",
  ];

  it("reads answer 200 or a 4xx in the spec's shape, never 5xx; merge refuses them and changes nothing", async () => {
    const before = await dbSnapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), fc.array(pair, { minLength: 1, maxLength: 4 }), async (template, pairs) => {
        const path = template
          .replace("RESOURCE", String(ids.resource))
          .replace("SERVICE", String(ids.service))
          .replace("PERSON", String(ids.person))
          .replace("EVENT", String(ids.event))
          .replace("HOOK", String(ids.webHook));
        const merge = path.endsWith("/merge");
        const query = merge
          ? pairs
              .filter((p) => !p.startsWith("merge_person_id="))
              .concat("merge_person_id=x")
              .join("&")
          : pairs.join("&");
        const res = merge ? await api.post(`${path}?${query}`, {}) : await api.get(`${path}?${query}`);
        const context = `${path}?${query}`;
        if (res.status === 200) expect(Array.isArray(res.body) || typeof res.body === "object", context).toBe(true);
        else expectClientError(res, context);
      }),
      { numRuns: 30 },
    );
    const site = await send("GET", `http://${subdomain}.localhost/services/${ids.service}/slots?from=2030-02-30&selected_resources[a][b]=x`);
    expectClientError(site, "site slots");
    expect(await dbSnapshot()).toEqual(before);
  }, 90_000);
});

describe("oversized bodies", () => {
  const big = "x".repeat(1024 * 1024 + 1);
  const cases: [string, string, string, string][] = [
    ["POST", "/api/v1/bookings", "application/json", JSON.stringify({ booking: { title: big } })],
    ["PUT", "/api/v1/client", "application/json", JSON.stringify({ client: { footer: big } })],
    ["POST", "/api/v1/people", "application/x-www-form-urlencoded", `person[name]=${big}`],
    ["PUT", "/api/v1/resources/1/exception_dates", "application/json", JSON.stringify({ resource_exception_dates: [{ exception_date: big }] })],
    ["POST", "SITE/bookings", "application/json", JSON.stringify({ booking: { title: big } })],
    ["POST", "SITE/people/perishable_token/send", "application/json", JSON.stringify({ person: { phone_number: big } })],
  ];

  it.each(cases)("%s %s (%s) over 1 MiB answers 413 before it is read, and changes nothing", async (method, path, contentType, raw) => {
    const before = await dbSnapshot();
    const site = path.startsWith("SITE");
    const url = site ? `http://${subdomain}.localhost${path.slice(4)}` : path;
    const headers: Record<string, string> = { "content-type": contentType };
    if (!site) headers.authorization = `Bearer ${api.apiKey}`;
    const res = await send(method, url, { headers, body: raw });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "The request body is larger than 1 MiB." });
    expect(await dbSnapshot()).toEqual(before);
  });

  it("answers 413 to a body over 1 MiB sent without a Content-Length (chunked)", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"service": {"title": "'));
        for (let i = 0; i < 17; i++) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}}'));
        controller.close();
      },
    });
    const res = await send("POST", "/api/v1/services", { headers: { authorization: `Bearer ${api.apiKey}`, "content-type": "application/json" }, body: stream });
    expect(res.status).toBe(413);
  });
});
