// The registry of personal data: for every table of schema.ts, which columns hold a booked
// person's data, which rows are that person's, and what erasure writes there; every other column
// is declared as holding none. Export, erasure and retention read it, and
// test/unit/db/personal-data-registry.test.ts fails when a column of the schema is in neither list,
// so a new personal column cannot be added unhandled (docs/decisions/personal-data.md).
import { sql, type SQL } from "drizzle-orm";

/**
 * What identifies a person on its shard: erasure matches copies of its identifiers with these.
 * Each identifier is an SQL expression: the value read before erasing (keysOf), or a subquery of
 * the person row (keysIn), so an export reads the person and its rows in one batch. A missing
 * identifier is NULL, which matches nothing.
 */
export interface PersonKeys {
  account_id: number;
  id: number;
  email: SQL;
  phone_number: SQL;
  phone_e164: SQL;
  national_id_no: SQL;
}

type Identifiers = Record<"email" | "phone_number" | "phone_e164" | "national_id_no", string | null>;

/** Keys of a person read already: its identifiers bound as values. */
export const keysOf = (person: { account_id: number; id: number } & Identifiers): PersonKeys => ({
  account_id: person.account_id,
  id: person.id,
  email: sql`${person.email}`,
  phone_number: sql`${person.phone_number}`,
  phone_e164: sql`${person.phone_e164}`,
  national_id_no: sql`${person.national_id_no}`,
});

/** Keys read from the person row by the statements themselves. */
export function keysIn(accountId: number, id: number): PersonKeys {
  const of = (column: keyof Identifiers) => sql`(SELECT ${sql.raw(column)} FROM people WHERE id = ${id} AND account_id = ${accountId})`;
  return { account_id: accountId, id, email: of("email"), phone_number: of("phone_number"), phone_e164: of("phone_e164"), national_id_no: of("national_id_no") };
}

/** What erasure does to a table's rows that are the person's. */
type Erasure =
  /** Each personal column is set to an SQL expression; `left` is true of a row that still holds some. */
  | { kind: "overwrite"; set: Record<string, string>; left: string; also?: Record<string, string> }
  /** The rows go: they exist only for the person (a code sent to them, a refusal of their address). */
  | { kind: "delete" }
  /** No column holds a person's data (the table is listed so its columns are declared). */
  | { kind: "none" };

export interface RegistryTable {
  table: string;
  /** The columns holding a booked person's data, and what each holds. */
  personal: Record<string, string>;
  /** Personal data of the shop or its staff, not of a booked person: it leaves with the account. */
  shop?: Record<string, string>;
  /** Columns holding no personal data, and why as one sentence for the table. */
  kept: string[];
  keptWhy: string;
  /** Columns an export leaves out: keys, hashes of secrets, internal bookkeeping. */
  internal?: string[];
  /** The person's rows; absent: the table holds nothing that is one person's. */
  reach?: (k: PersonKeys) => SQL;
  erasure: Erasure;
}

/** The column's text holds the identifier; never true of a missing one (NULL). Identifiers are never empty text. */
const mentions = (column: string, value: SQL): SQL => sql`coalesce(instr(${sql.raw(column)}, ${value}) > 0, 0)`;
const jsonText = (column: string, path: string) => sql.raw(`(CASE WHEN json_valid(${column}) THEN json_extract(${column}, '${path}') END)`);
const personBookings = (k: PersonKeys) => sql`SELECT id FROM bookings WHERE account_id = ${k.account_id} AND person_id = ${k.id}`;
/** Waitlist entries whose attributes name the person, or that became one of its bookings. */
const personEntries = (k: PersonKeys) => sql`SELECT id FROM waitlist_entries WHERE account_id = ${k.account_id} AND (${waitlistReach(k)})`;
const waitlistReach = (k: PersonKeys) =>
  sql`booking_id IN (${personBookings(k)})
    OR (${k.email}  IS NOT NULL AND lower(trim(json_extract(person_attributes, '$.email'))) = ${k.email})
    OR (${k.phone_number} IS NOT NULL AND trim(json_extract(person_attributes, '$.phone_number')) IN (${k.phone_number}, ${k.phone_e164}))
    OR (${k.phone_e164} IS NOT NULL AND trim(json_extract(person_attributes, '$.phone_number')) = ${k.phone_e164})
    OR (${k.national_id_no} IS NOT NULL AND trim(json_extract(person_attributes, '$.national_id_no')) = ${k.national_id_no})`;

const blank = (columns: string[], to = "NULL") => Object.fromEntries(columns.map((c) => [c, to]));
const anyNotNull = (columns: string[]) => columns.map((c) => `${c} IS NOT NULL`).join(" OR ");

const PERSON_FIELDS = [
  "name",
  "email",
  "phone_number",
  "phone_e164",
  "external_id",
  "custom_data",
  "date_of_birth",
  "national_id_no",
  "national_id_hash",
  "street",
  "city",
  "postal_code",
  "state",
  "country_code",
  "notes",
  "parent_id",
  "provider",
  "uid",
];
const BOOKING_FIELDS = ["title", "notes", "custom_data"];

/** Every table of schema.ts, by SQL name. */
export const PERSONAL_DATA: RegistryTable[] = [
  {
    table: "people",
    personal: {
      name: "name",
      email: "e-mail address",
      phone_number: "phone number as given",
      phone_e164: "phone number in E.164",
      external_id: "the integrator's id of the person",
      custom_data: "anything the shop stored",
      date_of_birth: "date of birth",
      national_id_no: "national identity number (encrypted: db/national-id.ts)",
      national_id_hash: "a keyed hash of the national identity number, which matches it",
      street: "address",
      city: "address",
      postal_code: "address",
      state: "address",
      country_code: "address",
      notes: "the shop's notes",
      parent_id: "family link",
      provider: "login provider",
      uid: "login provider's user id",
    },
    kept: ["id", "account_id", "active", "erased_at", "created_at", "updated_at"],
    keptWhy: "the row's identity and state: what remains of an erased person is an id that was active until a time",
    internal: ["account_id", "phone_e164", "national_id_hash"],
    reach: (k) => sql`id = ${k.id}`,
    erasure: { kind: "overwrite", set: blank(PERSON_FIELDS), left: anyNotNull(PERSON_FIELDS), also: { active: "0" } },
  },
  {
    table: "bookings",
    personal: {
      title: "often the person's name",
      notes: "free text about the visit",
      custom_data: "answers to the booking form",
      payment: "the visitor's address as a keyed hash (payment.client_hash)",
    },
    kept: [
      "id",
      "account_id",
      "service_id",
      "event_id",
      "resource_id",
      "person_id",
      "booked_from",
      "booked_to",
      "buffer_before",
      "buffer_after",
      "occupied_from",
      "occupied_to",
      "expires_at",
      "reminder_at",
      "reminded_at",
      "paid_at",
      "external_id",
      "gateway_order_number",
      "state",
      "active",
      "count",
      "collection_id",
      "status",
      "verification_code",
      "public_token_hash",
      "verify_attempts",
      "message_flags",
      "revision",
      "created_at",
      "updated_at",
    ],
    keptWhy:
      "times, counts, resource, state, money and references: an erased person's bookings stay as anonymous occupants so capacity, slots, revenue and sync stay right",
    internal: ["account_id", "public_token_hash", "verification_code", "message_flags", "occupied_from", "occupied_to"],
    reach: (k) => sql`person_id = ${k.id}`,
    erasure: {
      kind: "overwrite",
      set: { ...blank(BOOKING_FIELDS), payment: "json_set(payment, '$.client_hash', NULL)" },
      left: `${anyNotNull(BOOKING_FIELDS)} OR json_extract(payment, '$.client_hash') IS NOT NULL`,
    },
  },
  {
    table: "messages",
    personal: {
      recipient: "e-mail address or phone number",
      subject: "names the booking",
      body: "names, times, codes, links",
      error: "a provider's or server's refusal, which may quote the address (550 … no such user <address>)",
    },
    kept: ["id", "account_id", "booking_id", "person_id", "kind", "channel", "status", "provider", "provider_message_id", "sent_at", "created_at", "updated_at"],
    keptWhy: "what was sent when and how it went, without to whom or what it said",
    internal: ["account_id"],
    reach: (k) => sql`person_id = ${k.id} OR booking_id IN (${personBookings(k)})`,
    // A message not sent yet never will be: the consumer claims only queued rows (messages/consumer.ts).
    erasure: {
      kind: "overwrite",
      set: { recipient: "''", subject: "NULL", body: "''", error: "NULL" },
      left: "recipient <> '' OR subject IS NOT NULL OR body <> '' OR (error IS NOT NULL AND error <> 'not sent: the person was erased')",
      also: {
        status: "CASE WHEN status IN ('queued', 'sending') THEN 'failed' ELSE status END",
        error: "CASE WHEN status IN ('queued', 'sending') THEN 'not sent: the person was erased' ELSE NULL END",
      },
    },
  },
  {
    table: "waitlist_entries",
    personal: { person_attributes: "name, e-mail, phone and the rest given when joining" },
    kept: [
      "id",
      "account_id",
      "service_id",
      "resource_id",
      "event_id",
      "booked_from",
      "booked_to",
      "count",
      "token_hash",
      "state",
      "hold_id",
      "offer_expires_at",
      "booking_id",
      "created_at",
      "updated_at",
    ],
    keptWhy: "the place in line and its times",
    internal: ["account_id", "token_hash"],
    reach: waitlistReach,
    // A waiting entry leaves the line (nobody is left to offer to); an offer lapses as offers do.
    erasure: {
      kind: "overwrite",
      set: { person_attributes: "'{}'" },
      left: "person_attributes <> '{}'",
      also: { state: "CASE WHEN state = 'waiting' THEN 'left' ELSE state END" },
    },
  },
  {
    table: "slot_holds",
    personal: { client_hash: "the visitor's address as a keyed hash" },
    kept: [
      "id",
      "account_id",
      "service_id",
      "resource_id",
      "event_id",
      "booked_from",
      "booked_to",
      "occupied_from",
      "occupied_to",
      "count",
      "secret_hash",
      "expires_at",
      "ended_at",
      "ended_by",
      "booking_id",
      "created_at",
      "waitlist_entry_id",
    ],
    keptWhy: "seats held for a while: capacity, not a person",
    internal: ["account_id", "secret_hash", "client_hash", "occupied_from", "occupied_to"],
    reach: (k) => sql`booking_id IN (${personBookings(k)}) OR waitlist_entry_id IN (${personEntries(k)})`,
    erasure: { kind: "overwrite", set: { client_hash: "NULL" }, left: "client_hash IS NOT NULL" },
  },
  {
    table: "recurring_collections",
    personal: { template: "the request the occurrences are made from: person_attributes, title, notes, custom_data, person_id" },
    kept: ["id", "account_id", "kind", "rrule", "rdate", "exdate", "occurrences", "status", "next_index", "created_count", "skipped", "created_at", "updated_at"],
    keptWhy: "the rule and its progress",
    internal: ["account_id"],
    reach: (k) =>
      sql`kind = 'booking' AND (id IN (SELECT collection_id FROM bookings WHERE account_id = ${k.account_id} AND person_id = ${k.id}) OR json_extract(template, '$.booking.person_id') = ${k.id})`,
    // Occurrences still to come are made as anonymous occupants.
    erasure: {
      kind: "overwrite",
      set: {
        template:
          "json_set(json_remove(template, '$.booking.person_attributes', '$.booking.title', '$.booking.notes', '$.booking.custom_data'), '$.booking.person_id', json('null'))",
      },
      left: "json_extract(template, '$.booking.person_attributes') IS NOT NULL OR json_extract(template, '$.booking.title') IS NOT NULL OR json_extract(template, '$.booking.notes') IS NOT NULL OR json_extract(template, '$.booking.custom_data') IS NOT NULL OR json_extract(template, '$.booking.person_id') IS NOT NULL",
    },
  },
  {
    table: "webhook_deliveries",
    personal: { payload: "the person, or a booking, message or waitlist entry with theirs, as sent" },
    kept: ["id", "account_id", "web_hook_id", "idempotency_id", "event", "state", "attempts", "created_at", "updated_at"],
    keptWhy: "which event went where and how it went",
    internal: ["account_id"],
    reach: (k) =>
      sql`(${jsonText("payload", "$.data.object")} = 'person' AND ${jsonText("payload", "$.data.id")} = ${k.id})
        OR (${jsonText("payload", "$.data.object")} = 'booking' AND ${jsonText("payload", "$.data.id")} IN (${personBookings(k)}))
        OR ${jsonText("payload", "$.data.booking.person_id")} = ${k.id}
        OR ${jsonText("payload", "$.data.message.person_id")} = ${k.id}
        OR (${jsonText("payload", "$.data.object")} = 'waitlist_entry' AND ${jsonText("payload", "$.data.id")} IN (${personEntries(k)}))
        OR ${mentions("payload", k.email)} OR ${mentions("payload", k.phone_e164)} OR ${mentions("payload", k.national_id_no)}`,
    // What is left says which event it was and about which object, so the delivery history still reads.
    erasure: {
      kind: "overwrite",
      set: {
        payload:
          "json_object('event', json_extract(payload, '$.event'), 'idempotency_id', json_extract(payload, '$.idempotency_id'), 'generated_at', json_extract(payload, '$.generated_at'), 'performed_by', json_extract(payload, '$.performed_by'), 'data', json_object('object', json_extract(payload, '$.data.object'), 'id', json_extract(payload, '$.data.id'), 'erased', json('true')))",
      },
      left: "json_valid(payload) = 0 OR json_extract(payload, '$.data.erased') IS NULL",
    },
  },
  {
    table: "idempotency_keys",
    personal: { response_body: "a stored answer, which may show the person or their booking" },
    kept: ["account_id", "key", "request_hash", "response_status", "created_at"],
    keptWhy: "the key and its request's hash, so a replay is still recognised",
    internal: ["account_id", "request_hash"],
    reach: (k) =>
      sql`${jsonText("response_body", "$.person.id")} = ${k.id} OR ${jsonText("response_body", "$.booking.person_id")} = ${k.id}
        OR ${mentions("response_body", k.email)} OR ${mentions("response_body", k.phone_e164)} OR ${mentions("response_body", k.national_id_no)}`,
    // A replay answers 410 rather than running the request again.
    erasure: {
      kind: "overwrite",
      set: { response_body: `'{"error":"The answer to this request held personal data that was erased."}'` },
      left: `response_body IS NOT '{"error":"The answer to this request held personal data that was erased."}'`,
      also: { response_status: "410" },
    },
  },
  {
    table: "perishable_tokens",
    personal: { identifier: "the phone number a code was sent to" },
    kept: ["id", "account_id", "code_hash", "attempts", "expires_at", "created_at"],
    keptWhy: "a code's hash and life",
    internal: ["account_id", "code_hash"],
    reach: (k) => sql`identifier = ${k.phone_e164}`,
    erasure: { kind: "delete" },
  },
  {
    table: "undeliverable_recipients",
    personal: { recipient: "an address that bounced", detail: "the provider's words about it" },
    kept: ["account_id", "channel", "reason", "message_id", "created_at"],
    keptWhy: "why delivery stopped",
    internal: ["account_id"],
    reach: (k) => sql`recipient IN (${k.email}, ${k.phone_e164})`,
    erasure: { kind: "delete" },
  },
  {
    table: "payment_facts",
    personal: {},
    kept: [
      "id",
      "account_id",
      "booking_id",
      "provider",
      "source",
      "kind",
      "object_id",
      "payment_intent_id",
      "status",
      "paid",
      "amount",
      "currency",
      "observed_at",
      "recorded_at",
    ],
    keptWhy: "amounts, statuses and the provider's references, kept for the books; no name or address is stored",
    internal: ["account_id"],
    reach: (k) => sql`booking_id IN (${personBookings(k)})`,
    erasure: { kind: "none" },
  },
  {
    table: "payment_events",
    personal: {},
    kept: ["id", "account_id", "provider", "event_id", "kind", "booking_id", "received_at"],
    keptWhy: "which provider events were applied",
    internal: ["account_id"],
    reach: (k) => sql`booking_id IN (${personBookings(k)})`,
    erasure: { kind: "none" },
  },
  ...shopTables(),
];

/** Tables of the shop itself: its account, staff, catalogue, calendars and bookkeeping. */
function shopTables(): RegistryTable[] {
  const none = { kind: "none" } as const;
  const t = (table: string, kept: string[], keptWhy: string, shop?: Record<string, string>): RegistryTable => ({
    table,
    personal: {},
    shop,
    kept,
    keptWhy,
    erasure: none,
  });
  return [
    t(
      "accounts",
      [
        "id",
        "subdomain",
        "shard",
        "time_zone",
        "template",
        "locale",
        "currency",
        "gateway_analytics",
        "css_url",
        "footer",
        "payment_provider",
        "gateway_merchant_id",
        "gateway_merchant_key",
        "logo",
        "service_template",
        "verification_method",
        "verification_methods",
        "email_notification",
        "sms_notification",
        "confirm_manually",
        "public_access",
        "reminder_sms",
        "closed_for_holidays",
        "allow_cancellation",
        "allow_rescheduling",
        "slot_holds_enabled",
        "slot_hold_minutes",
        "buffers_within_opening_hours",
        "waitlist_enabled",
        "waitlist_offer_minutes",
        "payment_window_minutes",
        "refund_until_hours",
        "stripe_account_id",
        "retention_days_after_last_booking",
        "message_body_retention_days",
        "delivery_payload_retention_days",
        "settings",
        "interval_rounding",
        "slot_generation_type",
        "future_bookable_period",
        "first_bookable_period",
        "cancellation_period",
        "new_user_text",
        "new_booking_text",
        "booking_form",
        "person_form",
        "resource_form",
        "service_form",
        "event_form",
        "appointment_form",
        "category_form",
        "sms_verification",
        "sms_confirmation",
        "sms_modification",
        "sms_cancellation",
        "sms_reminder",
        "mail_verification",
        "mail_confirmation",
        "mail_modification",
        "mail_cancellation",
        "mail_verification_subject",
        "mail_confirmation_subject",
        "mail_modification_subject",
        "mail_cancellation_subject",
        "api_enabled",
        "billing_status",
        "webhook_secret",
        "previous_webhook_secret",
        "previous_webhook_secret_expires_at",
        "closed_at",
        "delete_at",
        "created_at",
        "updated_at",
      ],
      "the shop's settings, texts and secrets",
      {
        name: "the shop's name (a sole trader's own)",
        email: "the shop's address",
        phone_number: "the shop's number",
        address: "the shop's address",
        country_code: "where the shop is",
        mail_notification_recipient: "who gets the shop's notifications",
      },
    ),
    t("api_keys", ["id", "account_id", "key_hash", "created_at", "revoked_at"], "hashes of the shop's keys"),
    t("users", ["id", "account_id", "created_at", "updated_at"], "the user's row", { name: "staff name", email: "staff e-mail", phone_number: "staff phone" }),
    t("user_links", ["id", "account_id", "user_id", "role", "created_at", "updated_at"], "who may do what"),
    t(
      "resources",
      [
        "id",
        "account_id",
        "title",
        "description",
        "active",
        "capacity",
        "opening_hours_mon",
        "opening_hours_tue",
        "opening_hours_wed",
        "opening_hours_thu",
        "opening_hours_fri",
        "opening_hours_sat",
        "opening_hours_sun",
        "custom_data",
        "created_at",
        "updated_at",
      ],
      "the shop's rooms, chairs and staff calendars",
    ),
    t("resource_exception_dates", ["id", "account_id", "resource_id", "exception_date", "opening_hours", "created_at", "updated_at"], "opening hours"),
    t(
      "services",
      [
        "id",
        "account_id",
        "title",
        "description",
        "active",
        "booking_capacity",
        "day_booking_specify_time",
        "has_day_booking",
        "interval",
        "max_slots",
        "price",
        "payment",
        "deposit",
        "same_day",
        "template",
        "interval_rounding",
        "buffer_before",
        "buffer_after",
        "booking_type",
        "custom_data",
        "booking_form",
        "mail_verification",
        "mail_confirmation",
        "sms_verification",
        "sms_confirmation",
        "sms_reminder",
        "created_at",
        "updated_at",
      ],
      "the shop's catalogue",
    ),
    t("providers", ["id", "account_id", "resource_id", "service_id", "active", "created_at", "updated_at"], "the catalogue's links"),
    t("categories", ["id", "account_id", "title", "parent_id", "custom_data", "created_at", "updated_at"], "the catalogue"),
    t("category_services", ["account_id", "category_id", "service_id"], "the catalogue's links"),
    t(
      "events",
      [
        "id",
        "account_id",
        "resource_id",
        "service_id",
        "published",
        "capacity",
        "starts_at",
        "ends_at",
        "title",
        "description",
        "custom_data",
        "collection_id",
        "active",
        "created_at",
        "updated_at",
      ],
      "the shop's scheduled events",
    ),
    t("web_hooks", ["id", "account_id", "target_url", "event", "active", "created_at", "updated_at"], "the integrator's subscriptions"),
    t("webhook_attempts", ["id", "account_id", "delivery_id", "attempt", "status_code", "duration_ms", "error", "created_at"], "status codes and timings"),
    t("message_events", ["id", "account_id", "provider", "event_id", "message_id", "kind", "occurred_at", "received_at"], "the provider's event ids and kinds"),
    t("availability_versions", ["account_id", "version"], "counters"),
    t("listing_versions", ["account_id", "version"], "counters"),
    t("calendar_versions", ["account_id", "version"], "counters"),
    t("booking_hour_versions", ["account_id", "resource_id", "hour", "version"], "counters"),
    t(
      "calendar_feeds",
      ["id", "account_id", "resource_id", "token_hash", "created_at"],
      "hashes of feed addresses; feeds are rendered from bookings, so they follow an erasure",
    ),
    t("calendar_file_keys", ["account_id", "secret"], "a signing key"),
    t(
      "calendar_subscriptions",
      [
        "id",
        "account_id",
        "resource_id",
        "url",
        "url_hint",
        "name",
        "etag",
        "last_modified",
        "last_fetched_at",
        "last_success_at",
        "last_error",
        "last_error_at",
        "failures",
        "events_read",
        "busy_count",
        "next_fetch_at",
        "created_at",
        "updated_at",
      ],
      "the shop's own calendars; only busy intervals are read from them, never titles or attendees",
    ),
    t("busy_times", ["id", "account_id", "resource_id", "subscription_id", "occupied_from", "occupied_to"], "intervals without titles"),
  ];
}

/** The tables that hold a booked person's data or rows, in the order erasure visits them. */
export const PERSON_TABLES = PERSONAL_DATA.filter((t) => t.reach !== undefined);
