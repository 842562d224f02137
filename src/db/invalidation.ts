// Which write changes which cached answer: the one place that says it. Cached answers are kept
// under a per-account version (slot answers and the refusal memo under `availability_versions`,
// booking lists under `listing_versions`); triggers bump a version inside the statement of every
// write this table names, so no write path (requests, capacity guards, queues, cron, the operator
// API, a console) can forget it. The triggers in drizzle/0006 and drizzle/0009 are this table
// rendered by `versionTriggers`; test/integration/invalidation.test.ts compares them with the
// database's own, so the table and the migrations cannot drift. A new rule is a new migration
// written with `npm run db:triggers`.
//
// What a version does not see, each cache handles itself: time passing (an unverified booking's
// lapse frees capacity with no write: both caches end an entry at the first lapse they read) and
// the account row itself (cached 30 s per isolate; a reloaded account object is a miss).

/** A table whose writes bump a version: inserts and deletes always, updates of `columns` only. */
export interface InvalidationRule {
  table: string;
  /** The columns whose update changes an answer, or "every" (any update, even of no column read). */
  columns: readonly string[] | "every";
  /** The column naming the row's account (rows never move between accounts). */
  accountColumn?: string;
  /** Only updates bump: the row is created and removed by other means (an account). */
  updatesOnly?: boolean;
  why: string;
}

export interface VersionedAnswers {
  /** The table holding one version row per account. */
  versionTable: "availability_versions" | "listing_versions";
  /** The trigger names' middle part: `<table>_<tag>_<insert|update|delete>`. */
  tag: string;
  rules: readonly InvalidationRule[];
}

/** Slot answers, available dates, next available date, and refusals from memory. */
export const AVAILABILITY: VersionedAnswers = {
  versionTable: "availability_versions",
  tag: "availability",
  rules: [
    { table: "bookings", columns: ["resource_id", "event_id", "booked_from", "booked_to", "expires_at", "state", "active", "count"], why: "a booking holds capacity of its resource (or seats of its event) over its times while it is active" },
    { table: "events", columns: ["resource_id", "service_id", "published", "capacity", "starts_at", "ends_at", "active"], why: "an event is the slot of an attendance service" },
    { table: "resources", columns: ["active", "capacity", "opening_hours_mon", "opening_hours_tue", "opening_hours_wed", "opening_hours_thu", "opening_hours_fri", "opening_hours_sat", "opening_hours_sun"], why: "opening hours and capacity bound every slot" },
    { table: "resource_exception_dates", columns: ["resource_id", "exception_date", "opening_hours"], why: "an exception date replaces a weekday's hours" },
    { table: "services", columns: ["active", "booking_type", "interval", "interval_rounding", "max_slots", "has_day_booking", "day_booking_specify_time", "same_day"], why: "the service's settings shape its slots" },
    { table: "providers", columns: ["resource_id", "service_id", "active"], why: "providers say which resources offer a service" },
    { table: "accounts", columns: ["time_zone", "locale", "country_code", "closed_for_holidays", "interval_rounding", "slot_generation_type", "first_bookable_period", "future_bookable_period"], accountColumn: "id", updatesOnly: true, why: "the zone, holidays and bookable window apply to every slot" },
  ],
};

/** Booking-list answers: every listing of bookings, also a person's and an event's. */
export const LISTING: VersionedAnswers = {
  versionTable: "listing_versions",
  tag: "listing",
  rules: [
    { table: "bookings", columns: "every", why: "a listed booking shows nearly every column, and seats held come from them" },
    { table: "people", columns: "every", why: "a listed booking embeds its person" },
    { table: "resources", columns: "every", why: "a listed booking embeds its resource" },
    { table: "services", columns: "every", why: "a listed booking embeds its service" },
    { table: "events", columns: "every", why: "a listed booking embeds its event; inserts count, as a booking may name a row not there yet" },
  ],
};

export const VERSIONED_ANSWERS = [AVAILABILITY, LISTING] as const;

const OPERATIONS = ["insert", "update", "delete"] as const;

/** One trigger per table and operation, in the rule table's order, as the migrations hold them. */
export function versionTriggers(answers: VersionedAnswers): { name: string; sql: string }[] {
  return answers.rules.flatMap((rule) =>
    OPERATIONS.filter((op) => !rule.updatesOnly || op === "update").map((op) => {
      const row = op === "delete" ? "OLD" : "NEW";
      const event = op === "update" && rule.columns !== "every" ? `UPDATE OF ${rule.columns.join(", ")}` : op.toUpperCase();
      const name = `${rule.table}_${answers.tag}_${op}`;
      return {
        name,
        sql: [
          `CREATE TRIGGER ${name} AFTER ${event} ON ${rule.table}`,
          "BEGIN",
          `  INSERT INTO ${answers.versionTable} (account_id, version) VALUES (${row}.${rule.accountColumn ?? "account_id"}, 1)`,
          "    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;",
          "END",
        ].join("\n"),
      };
    }));
}
