// The whole domain's tables: the single source drizzle-kit generates drizzle/ from.
// Instants are integer epoch milliseconds (UTC); calendar dates are "YYYY-MM-DD" text;
// opening hours and custom data are JSON text. Every row carries account_id.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { BookingPayment } from "./booking-payment";
import type { OpeningHours } from "../domain/opening-hours";

export type { OpeningHours } from "../domain/opening-hours";
export type CustomData = Record<string, string> | null;

const id = () => integer("id").primaryKey({ autoIncrement: true });
const accountId = () => integer("account_id").notNull();
const flag = (name: string, fallback: boolean) => integer(name, { mode: "boolean" }).notNull().default(fallback);
const instant = (name: string) => integer(name);
const timestamps = {
  created_at: integer("created_at").notNull(),
  updated_at: integer("updated_at").notNull(),
};
const customData = () => text("custom_data", { mode: "json" }).$type<CustomData>();
const hours = (name: string) => text(name, { mode: "json" }).$type<OpeningHours>();
/** An hours column read by a raw statement (JSON text), as Drizzle's json mode would map it. */
export const hoursFromColumn = (value: unknown): OpeningHours => (typeof value === "string" ? JSON.parse(value) : ((value as OpeningHours) ?? null));

export const accounts = sqliteTable(
  "accounts",
  {
    id: id(),
    subdomain: text("subdomain").notNull().unique(),
    /** The D1 binding holding this account's data (db/shards.ts); the directory itself is always DB. */
    shard: text("shard").notNull().default("DB"),
    name: text("name").notNull(),
    email: text("email").notNull(),
    time_zone: text("time_zone").notNull(),
    country_code: text("country_code").notNull(),
    template: integer("template").notNull().default(1),
    locale: text("locale").notNull().default("en"),
    currency: text("currency"),
    gateway_analytics: text("gateway_analytics"),
    css_url: text("css_url"),
    address: text("address"),
    phone_number: text("phone_number"),
    footer: text("footer"),
    payment_provider: text("payment_provider"),
    gateway_merchant_id: text("gateway_merchant_id"),
    gateway_merchant_key: text("gateway_merchant_key"),
    logo: text("logo"),
    service_template: text("service_template"),
    verification_method: integer("verification_method").notNull().default(0),
    verification_methods: text("verification_methods"),
    email_notification: flag("email_notification", false),
    sms_notification: flag("sms_notification", false),
    confirm_manually: flag("confirm_manually", false),
    public_access: flag("public_access", true),
    reminder_sms: flag("reminder_sms", false),
    closed_for_holidays: flag("closed_for_holidays", false),
    allow_cancellation: flag("allow_cancellation", true),
    // A visitor may move their own booking on the booking site (docs/decisions/booking-site.md); null: as allow_cancellation.
    allow_rescheduling: integer("allow_rescheduling", { mode: "boolean" }),
    // Slot holds (docs/decisions/holds.md): the booking site holds a picked time only when enabled.
    slot_holds_enabled: flag("slot_holds_enabled", false),
    slot_hold_minutes: integer("slot_hold_minutes").notNull().default(5),
    // Services' buffers must fall inside opening hours too (docs/decisions/buffers.md); off: they may reach into closed hours.
    buffers_within_opening_hours: flag("buffers_within_opening_hours", false),
    // The waitlist (docs/decisions/waitlist.md): visitors may join it on the booking site only when enabled.
    waitlist_enabled: flag("waitlist_enabled", false),
    waitlist_offer_minutes: integer("waitlist_offer_minutes").notNull().default(30),
    // Paid bookings (docs/decisions/payments.md), on when payment_provider is "stripe" and the shop's
    // Stripe account is linked: how long a seat is held for its payment, and the refund policy.
    payment_window_minutes: integer("payment_window_minutes").notNull().default(15),
    /** A cancel this many hours or more before the start is refunded in full, a later one not at all; null: always in full. */
    refund_until_hours: integer("refund_until_hours").default(24),
    /** The shop's connected Stripe account (acct_…), linked by onboarding or the operator. */
    stripe_account_id: text("stripe_account_id").unique(),
    mail_notification_recipient: text("mail_notification_recipient"),
    // Retention (docs/decisions/personal-data.md), in days; null keeps everything as long as before.
    /** A person whose last booking ended longer ago than this is erased by the cron. */
    retention_days_after_last_booking: integer("retention_days_after_last_booking"),
    /** Messages older than this lose their recipient, subject and body. */
    message_body_retention_days: integer("message_body_retention_days"),
    /** Web hook deliveries older than this keep which event about which object, not the payload. */
    delivery_payload_retention_days: integer("delivery_payload_retention_days"),
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown> | null>(),
    interval_rounding: integer("interval_rounding").notNull().default(15),
    slot_generation_type: integer("slot_generation_type").notNull().default(2),
    future_bookable_period: text("future_bookable_period"),
    first_bookable_period: text("first_bookable_period"),
    cancellation_period: text("cancellation_period"),
    // Liquid texts and message templates; null means "use the built-in default".
    new_user_text: text("new_user_text"),
    new_booking_text: text("new_booking_text"),
    booking_form: text("booking_form"),
    person_form: text("person_form"),
    resource_form: text("resource_form"),
    service_form: text("service_form"),
    event_form: text("event_form"),
    appointment_form: text("appointment_form"),
    category_form: text("category_form"),
    sms_verification: text("sms_verification"),
    sms_confirmation: text("sms_confirmation"),
    sms_modification: text("sms_modification"),
    sms_cancellation: text("sms_cancellation"),
    sms_reminder: text("sms_reminder"),
    mail_verification: text("mail_verification"),
    mail_confirmation: text("mail_confirmation"),
    mail_modification: text("mail_modification"),
    mail_cancellation: text("mail_cancellation"),
    mail_verification_subject: text("mail_verification_subject"),
    mail_confirmation_subject: text("mail_confirmation_subject"),
    mail_modification_subject: text("mail_modification_subject"),
    mail_cancellation_subject: text("mail_cancellation_subject"),
    // Operator-only (README, Configuration): never writable through the private API.
    api_enabled: flag("api_enabled", true),
    billing_status: text("billing_status").notNull().default("ok"),
    webhook_secret: text("webhook_secret").notNull(),
    // After a rotation the old secret still signs deliveries until it expires (docs/decisions/webhooks.md).
    previous_webhook_secret: text("previous_webhook_secret"),
    previous_webhook_secret_expires_at: integer("previous_webhook_secret_expires_at"),
    // An account that leaves (docs/decisions/personal-data.md): while closed its keys and booking site
    // answer as for no account; at delete_at the cron removes every row of it, until then it can be restored.
    closed_at: instant("closed_at"),
    delete_at: instant("delete_at"),
    ...timestamps,
  },
  // The deletion pass asks every minute which accounts are due: one index probe, not a scan of the directory.
  (t) => [index("accounts_delete_at").on(t.delete_at)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    account_id: accountId(),
    // SHA-256 of the key; the key itself is shown once and never stored.
    key_hash: text("key_hash").notNull(),
    created_at: integer("created_at").notNull(),
    revoked_at: instant("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.key_hash), index("api_keys_account").on(t.account_id)],
);

export const users = sqliteTable(
  "users",
  {
    id: id(),
    account_id: accountId(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone_number: text("phone_number"),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_account_email").on(t.account_id, t.email)],
);

export const userLinks = sqliteTable(
  "user_links",
  {
    id: id(),
    account_id: accountId(),
    user_id: integer("user_id").notNull(),
    role: text("role").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("user_links_account_user").on(t.account_id, t.user_id)],
);

export const resources = sqliteTable(
  "resources",
  {
    id: id(),
    account_id: accountId(),
    title: text("title").notNull(),
    description: text("description"),
    active: flag("active", true),
    capacity: integer("capacity").notNull().default(1),
    opening_hours_mon: hours("opening_hours_mon"),
    opening_hours_tue: hours("opening_hours_tue"),
    opening_hours_wed: hours("opening_hours_wed"),
    opening_hours_thu: hours("opening_hours_thu"),
    opening_hours_fri: hours("opening_hours_fri"),
    opening_hours_sat: hours("opening_hours_sat"),
    opening_hours_sun: hours("opening_hours_sun"),
    custom_data: customData(),
    ...timestamps,
  },
  (t) => [index("resources_account").on(t.account_id, t.active)],
);

export const resourceExceptionDates = sqliteTable(
  "resource_exception_dates",
  {
    id: id(),
    account_id: accountId(),
    resource_id: integer("resource_id").notNull(),
    exception_date: text("exception_date").notNull(),
    opening_hours: hours("opening_hours"),
    ...timestamps,
  },
  (t) => [uniqueIndex("exception_dates_resource_date").on(t.resource_id, t.exception_date)],
);

export const services = sqliteTable(
  "services",
  {
    id: id(),
    account_id: accountId(),
    title: text("title").notNull(),
    description: text("description"),
    active: flag("active", true),
    booking_capacity: integer("booking_capacity"),
    day_booking_specify_time: flag("day_booking_specify_time", false),
    has_day_booking: flag("has_day_booking", false),
    interval: integer("interval").notNull().default(60),
    max_slots: integer("max_slots").notNull().default(1),
    // Decimal kept as text so "450.0" never passes through a float.
    price: text("price"),
    /** What a booking pays (docs/decisions/payments.md): "none" (the default), "full" (price × count) or "deposit" (deposit × count). */
    payment: text("payment").notNull().default("none"),
    /** Per seat, a decimal as price is, when payment is "deposit". */
    deposit: text("deposit"),
    same_day: flag("same_day", false),
    template: text("template"),
    interval_rounding: integer("interval_rounding"),
    // Minutes the resource is held before and after each booking (docs/decisions/buffers.md).
    buffer_before: integer("buffer_before").notNull().default(0),
    buffer_after: integer("buffer_after").notNull().default(0),
    booking_type: text("booking_type").notNull().default("appointment"),
    custom_data: customData(),
    booking_form: text("booking_form"),
    mail_verification: text("mail_verification"),
    mail_confirmation: text("mail_confirmation"),
    sms_verification: text("sms_verification"),
    sms_confirmation: text("sms_confirmation"),
    sms_reminder: text("sms_reminder"),
    ...timestamps,
  },
  (t) => [index("services_account").on(t.account_id, t.active)],
);

export const providers = sqliteTable(
  "providers",
  {
    id: id(),
    account_id: accountId(),
    resource_id: integer("resource_id").notNull(),
    service_id: integer("service_id").notNull(),
    active: flag("active", true),
    ...timestamps,
  },
  (t) => [uniqueIndex("providers_service_resource").on(t.service_id, t.resource_id), index("providers_account").on(t.account_id)],
);

export const categories = sqliteTable(
  "categories",
  {
    id: id(),
    account_id: accountId(),
    title: text("title").notNull(),
    parent_id: integer("parent_id"),
    custom_data: customData(),
    ...timestamps,
  },
  (t) => [index("categories_account").on(t.account_id)],
);

export const categoryServices = sqliteTable(
  "category_services",
  {
    account_id: accountId(),
    category_id: integer("category_id").notNull(),
    service_id: integer("service_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.category_id, t.service_id] })],
);

export const people = sqliteTable(
  "people",
  {
    id: id(),
    account_id: accountId(),
    name: text("name"),
    email: text("email"),
    phone_number: text("phone_number"),
    // E.164 form of phone_number: what uniqueness and matching compare.
    phone_e164: text("phone_e164"),
    external_id: text("external_id"),
    custom_data: customData(),
    date_of_birth: text("date_of_birth"),
    // Sealed (`v1:<key id>:…`, db/national-id.ts) when PERSONAL_DATA_KEYS is set; plain text from before until the cron seals it.
    national_id_no: text("national_id_no"),
    // HMAC-SHA-256 of the account and the number: what uniqueness, matching and the filters compare. Null while plain.
    national_id_hash: text("national_id_hash"),
    street: text("street"),
    city: text("city"),
    postal_code: text("postal_code"),
    state: text("state"),
    country_code: text("country_code"),
    notes: text("notes"),
    parent_id: integer("parent_id"),
    provider: text("provider"),
    uid: text("uid"),
    active: flag("active", true),
    /** When the person was erased (docs/decisions/personal-data.md): every personal field is gone, and stays so. */
    erased_at: instant("erased_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("people_account_email").on(t.account_id, t.email),
    uniqueIndex("people_account_phone").on(t.account_id, t.phone_e164),
    uniqueIndex("people_account_national_id_hash").on(t.account_id, t.national_id_hash),
    // Numbers still in plain text: matched by value until the cron seals them (one probe when there are none).
    index("people_account_national_id_plain").on(t.account_id, t.national_id_no).where(sql`national_id_hash IS NULL AND national_id_no IS NOT NULL`),
    // Sealed numbers by stored form, so the cron finds those under an older key by range (v1:<key id>:…).
    index("people_national_id_sealed").on(t.national_id_no).where(sql`national_id_hash IS NOT NULL`),
    uniqueIndex("people_account_provider_uid").on(t.account_id, t.provider, t.uid),
    index("people_account_updated").on(t.account_id, t.updated_at),
    index("people_account_parent").on(t.account_id, t.parent_id),
  ],
);

export const events = sqliteTable(
  "events",
  {
    id: id(),
    account_id: accountId(),
    resource_id: integer("resource_id").notNull(),
    service_id: integer("service_id").notNull(),
    published: flag("published", true),
    capacity: integer("capacity").notNull(),
    starts_at: integer("starts_at").notNull(),
    ends_at: integer("ends_at").notNull(),
    title: text("title"),
    description: text("description"),
    custom_data: customData(),
    collection_id: text("collection_id"),
    active: flag("active", true),
    ...timestamps,
  },
  (t) => [
    index("events_account_starts").on(t.account_id, t.starts_at),
    index("events_account_updated").on(t.account_id, t.updated_at),
    uniqueIndex("events_collection_start").on(t.collection_id, t.starts_at).where(sql`collection_id IS NOT NULL`),
  ],
);

export const bookings = sqliteTable(
  "bookings",
  {
    id: id(),
    account_id: accountId(),
    service_id: integer("service_id"),
    event_id: integer("event_id"),
    resource_id: integer("resource_id").notNull(),
    person_id: integer("person_id"),
    booked_from: integer("booked_from").notNull(),
    booked_to: integer("booked_to").notNull(),
    // The service's buffers in minutes as they were when the booking took its times (a snapshot:
    // a later change of the service does not move what existing bookings hold).
    buffer_before: integer("buffer_before").notNull().default(0),
    buffer_after: integer("buffer_after").notNull().default(0),
    // What the booking holds of its resource for capacity: its times widened by its buffers. The
    // one rule every capacity reader uses (docs/decisions/buffers.md); equal to booked_from and
    // booked_to when there are no buffers. Computed, so no write path can forget it.
    occupied_from: integer("occupied_from").generatedAlwaysAs(sql`booked_from - buffer_before * 60000`, { mode: "virtual" }),
    occupied_to: integer("occupied_to").generatedAlwaysAs(sql`booked_to + buffer_after * 60000`, { mode: "virtual" }),
    expires_at: instant("expires_at"),
    title: text("title"),
    notes: text("notes"),
    reminder_at: instant("reminder_at"),
    reminded_at: instant("reminded_at"),
    paid_at: instant("paid_at"),
    external_id: text("external_id"),
    gateway_order_number: text("gateway_order_number"),
    custom_data: customData(),
    state: text("state").notNull(),
    active: flag("active", true),
    count: integer("count").notNull().default(1),
    collection_id: text("collection_id"),
    status: text("status"),
    verification_code: text("verification_code"),
    // The booking site's token for this one booking (SHA-256 of it; the visitor keeps the token).
    public_token_hash: text("public_token_hash"),
    /** The booking's payment (db/booking-payment.ts) as JSON; null for a booking that pays nothing. */
    payment: text("payment", { mode: "json" }).$type<BookingPayment | null>(),
    // Codes tried on the booking site; the sixth try is refused (docs/decisions/booking-site.md).
    verify_attempts: integer("verify_attempts").notNull().default(0),
    // Which messages the creating request asked for, kept for delivery (issue: messages).
    message_flags: text("message_flags", { mode: "json" }).$type<Record<string, boolean> | null>(),
    // Grows with every change a calendar shows (drizzle/0017's trigger, so no write path can forget
    // it): the iCalendar SEQUENCE of the booking (docs/decisions/calendar-feeds.md).
    revision: integer("revision").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    // Capacity checks and slot generation: active bookings of a resource overlapping a range.
    index("bookings_resource_occupied").on(t.resource_id, t.active, t.occupied_from, t.occupied_to),
    index("bookings_account_from").on(t.account_id, t.booked_from),
    index("bookings_account_updated").on(t.account_id, t.updated_at),
    index("bookings_account_external").on(t.account_id, t.external_id),
    index("bookings_account_person").on(t.account_id, t.person_id),
    index("bookings_account_event").on(t.account_id, t.event_id),
    index("bookings_state_expires").on(t.state, t.expires_at),
    // Covers a listing's total (account, active, lapse) and an account's first lapse without the
    // table. Only account_id leads as an equality, so a page keeps bookings_account_from, whose
    // order is the listing's (docs/decisions/latency.md, "Booking-list answers").
    index("bookings_account_state_expires_active").on(t.account_id, t.state, t.expires_at, t.active),
    index("bookings_reminder_due").on(t.reminder_at).where(sql`reminded_at IS NULL`),
    // A redelivered recurrence message must not create an occurrence twice.
    uniqueIndex("bookings_collection_start").on(t.collection_id, t.booked_from).where(sql`collection_id IS NOT NULL`),
  ],
);

/**
 * Seats of one time held for a short while (docs/decisions/holds.md): its own table, not a booking
 * state, so only the capacity readers see it. Its occupied span is written, not generated: a hold
 * is never moved, so the span is fixed when it is taken (buffers included).
 */
export const slotHolds = sqliteTable(
  "slot_holds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    account_id: accountId(),
    service_id: integer("service_id").notNull(),
    resource_id: integer("resource_id"),
    event_id: integer("event_id"),
    booked_from: instant("booked_from").notNull(),
    booked_to: instant("booked_to").notNull(),
    occupied_from: instant("occupied_from").notNull(),
    occupied_to: instant("occupied_to").notNull(),
    count: integer("count").notNull(),
    secret_hash: text("secret_hash").notNull(),
    /** The visitor's address as a keyed hash, for the per-visitor limit; null on the private API. */
    client_hash: text("client_hash"),
    expires_at: instant("expires_at").notNull(),
    ended_at: instant("ended_at"),
    /** How it ended before it lapsed: "released" or "converted" (into booking_id). */
    ended_by: text("ended_by"),
    booking_id: integer("booking_id"),
    created_at: instant("created_at").notNull(),
    /**
     * The waitlist entry whose offer this hold is (null for a visitor's or the key's hold): it goes
     * in only while that entry waits, in the transaction that makes the entry `offered` with it.
     */
    waitlist_entry_id: integer("waitlist_entry_id"),
  },
  (t) => [
    // The capacity readers: live holds of a resource overlapping a span, as bookings_resource_occupied.
    index("slot_holds_resource_occupied").on(t.resource_id, t.occupied_from, t.occupied_to),
    index("slot_holds_account_event").on(t.account_id, t.event_id),
    // The limits and the lapse of cached answers: an account's (or visitor's) holds by lapse.
    index("slot_holds_account_expires").on(t.account_id, t.expires_at),
    uniqueIndex("slot_holds_secret").on(t.secret_hash),
  ],
);

/**
 * A place in line for a full time or event (docs/decisions/waitlist.md). An offer is a slot hold
 * (`hold_id`) whose secret is the entry's own token, so accepting is converting that hold.
 */
export const waitlistEntries = sqliteTable(
  "waitlist_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    account_id: accountId(),
    service_id: integer("service_id").notNull(),
    resource_id: integer("resource_id"),
    event_id: integer("event_id"),
    booked_from: instant("booked_from").notNull(),
    booked_to: instant("booked_to").notNull(),
    count: integer("count").notNull(),
    /** What a booking create takes as person_attributes, kept for the booking an offer becomes. */
    person_attributes: text("person_attributes", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    token_hash: text("token_hash").notNull(),
    /** "waiting", "offered", "accepted", "expired" (an offer that lapsed) or "left". */
    state: text("state").notNull(),
    hold_id: integer("hold_id"),
    /** Until when the current offer holds the seat (its hold's expires_at). */
    offer_expires_at: instant("offer_expires_at"),
    booking_id: integer("booking_id"),
    created_at: instant("created_at").notNull(),
    updated_at: instant("updated_at").notNull(),
  },
  (t) => [
    // The line of one time: an account's entries by time, in the order they joined (id).
    index("waitlist_account_time").on(t.account_id, t.booked_from, t.state),
    index("waitlist_account_event").on(t.account_id, t.event_id),
    uniqueIndex("waitlist_token").on(t.token_hash),
  ],
);

/** One skipped occurrence of a recurring collection and why (the 400 body a single create would give). */
export interface SkippedOccurrence {
  index: number;
  from: number;
  to: number;
  errors: Record<string, unknown>;
}

export const recurringCollections = sqliteTable(
  "recurring_collections",
  {
    // The collection_id its bookings or events carry.
    id: text("id").primaryKey(),
    account_id: accountId(),
    // booking | event
    kind: text("kind").notNull(),
    // The validated request body the occurrences are created from, times replaced per occurrence.
    template: text("template", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    rrule: text("rrule"),
    rdate: text("rdate"),
    exdate: text("exdate"),
    // [from, to] epoch ms per occurrence, expanded once when the request was accepted.
    occurrences: text("occurrences", { mode: "json" }).$type<[number, number][]>().notNull(),
    // pending → completed | failed (dead-lettered); any → deleted
    status: text("status").notNull(),
    // Occurrences before this index are processed: the consumer's resume point.
    next_index: integer("next_index").notNull().default(0),
    created_count: integer("created_count").notNull().default(0),
    skipped: text("skipped", { mode: "json" }).$type<SkippedOccurrence[]>().notNull(),
    ...timestamps,
  },
  (t) => [index("recurring_collections_account").on(t.account_id, t.created_at)],
);

export const webHooks = sqliteTable(
  "web_hooks",
  {
    id: id(),
    account_id: accountId(),
    target_url: text("target_url").notNull(),
    event: text("event").notNull(),
    active: flag("active", true),
    ...timestamps,
  },
  (t) => [index("web_hooks_account").on(t.account_id, t.active)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    account_id: accountId(),
    web_hook_id: integer("web_hook_id").notNull(),
    idempotency_id: text("idempotency_id").notNull(),
    event: text("event").notNull(),
    payload: text("payload").notNull(),
    // pending → delivered | failed (retries exhausted, dead-lettered)
    state: text("state").notNull(),
    attempts: integer("attempts").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("webhook_deliveries_idempotency").on(t.web_hook_id, t.idempotency_id),
    index("webhook_deliveries_hook").on(t.account_id, t.web_hook_id, t.created_at),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: id(),
    account_id: accountId(),
    delivery_id: integer("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    status_code: integer("status_code"),
    duration_ms: integer("duration_ms").notNull(),
    error: text("error"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("webhook_attempts_delivery").on(t.delivery_id, t.attempt)],
);

export const perishableTokens = sqliteTable(
  "perishable_tokens",
  {
    id: id(),
    account_id: accountId(),
    // E.164 phone number the code was sent to.
    identifier: text("identifier").notNull(),
    code_hash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expires_at: integer("expires_at").notNull(),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("perishable_tokens_identifier").on(t.account_id, t.identifier), index("perishable_tokens_expires").on(t.expires_at)],
);

export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    account_id: accountId(),
    booking_id: integer("booking_id"),
    person_id: integer("person_id"),
    // verification | confirmation | modification | cancellation | decline | reminder | notification | token
    kind: text("kind").notNull(),
    channel: text("channel").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject"),
    body: text("body").notNull(),
    // queued → sending → sent | failed; after sent, what the provider's delivery events said:
    // delivered, bounced, complained (e-mail) or undelivered (SMS) (features/messages/delivery-events.ts)
    status: text("status").notNull(),
    provider: text("provider"),
    // The provider's id of what it accepted (Resend's e-mail id, Twilio's message SID): its events name it.
    provider_message_id: text("provider_message_id"),
    error: text("error"),
    sent_at: instant("sent_at"),
    ...timestamps,
  },
  (t) => [index("messages_account_created").on(t.account_id, t.created_at), index("messages_recipient_created").on(t.recipient, t.created_at)],
);

/** Each provider delivery event applied, so a redelivered one changes nothing (features/messages/delivery-events.ts). */
export const messageEvents = sqliteTable(
  "message_events",
  {
    id: id(),
    account_id: accountId(),
    provider: text("provider").notNull(),
    event_id: text("event_id").notNull(),
    message_id: integer("message_id").notNull(),
    // delivered | bounced | complained | undelivered | delayed | ...: the provider's word, mapped
    kind: text("kind").notNull(),
    occurred_at: instant("occurred_at").notNull(),
    received_at: instant("received_at").notNull(),
  },
  (t) => [uniqueIndex("message_events_provider_event").on(t.account_id, t.provider, t.event_id)],
);

/**
 * Recipients an account's messages no longer go to: a hard bounce or a complaint (e-mail), or a
 * number the SMS provider calls unreachable for good. Later messages to them are stored failed.
 */
export const undeliverableRecipients = sqliteTable(
  "undeliverable_recipients",
  {
    account_id: accountId(),
    channel: text("channel").notNull(),
    recipient: text("recipient").notNull(),
    // bounced | complained | undelivered
    reason: text("reason").notNull(),
    detail: text("detail"),
    message_id: integer("message_id"),
    created_at: instant("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.account_id, t.channel, t.recipient] })],
);

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    account_id: accountId(),
    key: text("key").notNull(),
    request_hash: text("request_hash").notNull(),
    // null while the first request is still running
    response_status: integer("response_status"),
    response_body: text("response_body"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.account_id, t.key] }), index("idempotency_created").on(t.created_at)],
);

/**
 * What a slot answer depends on changes the account's version: triggers bump it in the same
 * statement as every write to bookings, events, resources, exception dates, services, providers
 * and the account's slot settings (drizzle/0006), so no write path can forget it. Slot answers
 * are cached under it (features/slots/answer-cache.ts). No row reads as version 0.
 */
export const availabilityVersions = sqliteTable("availability_versions", {
  account_id: integer("account_id").primaryKey(),
  version: integer("version").notNull(),
});

/**
 * What a booking-list answer depends on changes the account's listing version: triggers bump it in
 * the same statement as every write to bookings, people, resources, services and events
 * (drizzle/0009), so no write path can forget it. Booking-list answers are cached under it
 * (features/bookings/list-cache.ts). No row reads as version 0.
 */
export const listingVersions = sqliteTable("listing_versions", {
  account_id: integer("account_id").primaryKey(),
  version: integer("version").notNull(),
});

/**
 * Slot answers are dated narrower than by the account's availability version: by the calendar
 * version, which every availability write bumps except a booking of a resource, and by the
 * booking-hour versions of the resources and hours such a booking covers (drizzle/0012, rendered
 * from db/invalidation.ts). A booking on one resource and day leaves every other answer valid.
 */
export const calendarVersions = sqliteTable("calendar_versions", {
  account_id: integer("account_id").primaryKey(),
  version: integer("version").notNull(),
});

/**
 * One row per resource and UTC hour (hours since 1970-01-01T00:00Z) a resource booking has
 * covered: hours, not days, so that an account's local day, which starts on a whole UTC hour in
 * nearly every zone, reads only its own rows. `hour` -1 stands for every hour, bumped by bookings
 * too long to bump hour by hour. Versions only grow, so their sum over a set of rows changes
 * whenever one of them does.
 */
export const bookingHourVersions = sqliteTable(
  "booking_hour_versions",
  {
    account_id: integer("account_id").notNull(),
    resource_id: integer("resource_id").notNull(),
    hour: integer("hour").notNull(),
    version: integer("version").notNull(),
  },
  (t) => [primaryKey({ columns: [t.resource_id, t.hour] })],
);

/**
 * Secret iCalendar subscription URLs: one per resource, and one (resource_id NULL) for the whole
 * account. Only the SHA-256 of the token is kept; rotating replaces the row, so the old URL ends.
 */
export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    id: id(),
    account_id: accountId(),
    resource_id: integer("resource_id"),
    token_hash: text("token_hash").notNull(),
    created_at: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("calendar_feeds_account_token").on(t.account_id, t.token_hash),
    // One feed per scope: rotation deletes and inserts in one batch, and D1 runs batches one at a time.
    index("calendar_feeds_account_resource").on(t.account_id, t.resource_id),
  ],
);

/** The key that signs an account's per-booking calendar file links in messages (created on first use). */
export const calendarFileKeys = sqliteTable("calendar_file_keys", {
  account_id: integer("account_id").primaryKey(),
  secret: text("secret").notNull(),
});

export type Account = typeof accounts.$inferSelect;
export type Resource = typeof resources.$inferSelect;
export type ResourceExceptionDate = typeof resourceExceptionDates.$inferSelect;
export type Service = typeof services.$inferSelect;
export type Provider = typeof providers.$inferSelect;
export type Category = typeof categories.$inferSelect;
export type Person = typeof people.$inferSelect;
export type Event = typeof events.$inferSelect;
export type Booking = typeof bookings.$inferSelect;
export type CalendarFeed = typeof calendarFeeds.$inferSelect;
export type SlotHold = typeof slotHolds.$inferSelect;
export type WaitlistEntry = typeof waitlistEntries.$inferSelect;
export type User = typeof users.$inferSelect;
export type UserLink = typeof userLinks.$inferSelect;
export type WebHook = typeof webHooks.$inferSelect;
export type RecurringCollection = typeof recurringCollections.$inferSelect;

/**
 * Payment provider events already applied (docs/decisions/payments.md): a delivery seen again is
 * answered at once. Applying is idempotent by itself (each step changes a row only from the state
 * it expects); this keeps a replay from reaching the provider again.
 */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    id: id(),
    account_id: accountId(),
    provider: text("provider").notNull(),
    event_id: text("event_id").notNull(),
    kind: text("kind").notNull(),
    booking_id: integer("booking_id"),
    received_at: instant("received_at").notNull(),
  },
  (t) => [uniqueIndex("payment_events_provider_event").on(t.provider, t.event_id)],
);

/**
 * What the payment provider has said about a booking's money (docs/decisions/payments.md), one row
 * per observation, never changed: a checkout session, a refund, a charge's refunded total, as an
 * event told it or an API answer showed it. The booking's payment is derived from its facts, so the
 * order they arrive in does not matter. A fact that names a payment no booking is known for yet
 * (a refund before its payment) has no booking_id until that payment's checkout attaches it.
 */
export const paymentFacts = sqliteTable(
  "payment_facts",
  {
    id: id(),
    account_id: accountId(),
    booking_id: integer("booking_id"),
    provider: text("provider").notNull(),
    /** Where it was seen, unique per account: the event's id, or the object and status of an API answer. */
    source: text("source").notNull(),
    /** "checkout", "refund", "charge" (a charge's refunded total) or "external" (recorded by the integrator). */
    kind: text("kind").notNull(),
    /** The provider's object: cs_…, re_…, ch_…. */
    object_id: text("object_id").notNull(),
    payment_intent_id: text("payment_intent_id"),
    /** checkout: open, complete, expired, failed; refund: pending, succeeded, failed, canceled. */
    status: text("status").notNull(),
    paid: flag("paid", false),
    /** Minor units: a checkout's total, a refund's amount, a charge's total refunded. */
    amount: integer("amount").notNull(),
    currency: text("currency"),
    /** The provider's time of the observation (an event's `created`), which orders snapshots of one object. */
    observed_at: instant("observed_at").notNull(),
    recorded_at: instant("recorded_at").notNull(),
  },
  (t) => [
    uniqueIndex("payment_facts_source").on(t.account_id, t.provider, t.source),
    index("payment_facts_booking").on(t.account_id, t.booking_id),
    index("payment_facts_intent").on(t.account_id, t.payment_intent_id),
  ],
);
export type PaymentFact = typeof paymentFacts.$inferSelect;

/**
 * A resource's subscription to a calendar kept elsewhere (docs/decisions/calendar-subscriptions.md):
 * an iCalendar address fetched in the background, whose busy times take the resource.
 */
export const calendarSubscriptions = sqliteTable(
  "calendar_subscriptions",
  {
    id: id(),
    account_id: accountId(),
    resource_id: integer("resource_id").notNull(),
    /** The feed's address. A secret (a Google "secret address" reads the whole calendar): answered once, at create. */
    url: text("url").notNull(),
    /** What the answers show instead: the host and the address's last characters. */
    url_hint: text("url_hint").notNull(),
    name: text("name"),
    /** The validators of the last good answer, sent back as If-None-Match / If-Modified-Since. */
    etag: text("etag"),
    last_modified: text("last_modified"),
    last_fetched_at: instant("last_fetched_at"),
    last_success_at: instant("last_success_at"),
    last_error: text("last_error"),
    last_error_at: instant("last_error_at"),
    /** Failed fetches since the last good one; the account is told once when it reaches the limit. */
    failures: integer("failures").notNull().default(0),
    events_read: integer("events_read").notNull().default(0),
    busy_count: integer("busy_count").notNull().default(0),
    /** When the cron hands it to the fetch queue next; spread over the interval by id. */
    next_fetch_at: instant("next_fetch_at").notNull(),
    created_at: instant("created_at").notNull(),
    updated_at: instant("updated_at").notNull(),
  },
  (t) => [index("calendar_subscriptions_account_resource").on(t.account_id, t.resource_id), index("calendar_subscriptions_due").on(t.next_fetch_at)],
);

/**
 * A busy interval read from a subscription: it takes all of its resource's capacity over
 * [occupied_from, occupied_to) (features/occupancy/occupants.ts). Rewritten by difference on each
 * fetch, so a fetch that changes nothing writes nothing and bumps no version.
 */
export const busyTimes = sqliteTable(
  "busy_times",
  {
    id: id(),
    account_id: accountId(),
    resource_id: integer("resource_id").notNull(),
    subscription_id: integer("subscription_id").notNull(),
    occupied_from: instant("occupied_from").notNull(),
    occupied_to: instant("occupied_to").notNull(),
  },
  (t) => [
    // The capacity readers: a resource's busy times overlapping a span, as bookings_resource_occupied.
    index("busy_times_resource_occupied").on(t.resource_id, t.occupied_from, t.occupied_to),
    index("busy_times_subscription").on(t.subscription_id, t.occupied_from),
  ],
);

export type CalendarSubscription = typeof calendarSubscriptions.$inferSelect;
export type BusyTime = typeof busyTimes.$inferSelect;
