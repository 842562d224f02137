// Which write changes which cached answer: the one place that says it. Cached answers are kept
// under versions: the refusal memo under the account's `availability_versions`, booking lists under
// its `listing_versions`, slot answers under its `calendar_versions` plus the `booking_hour_versions`
// of the resources and hours they cover. Triggers bump a version inside the statement of every
// write this table names, so no write path (requests, capacity guards, queues, cron, the operator
// API, a console) can forget it. The triggers in drizzle/0006, 0009 and 0012 are these tables
// rendered by `versionTriggers` and `bookingHourTriggers` (0013 replaces those buffers changed, 0014
// adds slot holds', 0015 the accounts' buffers_within_opening_hours); test/integration/invalidation.test.ts
// compares them with the database's own, so the tables and the migrations cannot drift. A new rule
// is a new migration written with `npm run db:triggers`.
//
// What a version does not see, each cache handles itself: time passing (an unverified booking's
// lapse frees capacity with no write: both caches end an entry at the first lapse they read) and
// the account row itself (cached 30 s per isolate; a reloaded account object is a miss).

/** A table whose writes bump a version: inserts and deletes always, updates of `columns` only. */
interface InvalidationRule {
  table: string;
  /** The columns whose update changes an answer, or "every" (any update, even of no column read). */
  columns: readonly string[] | "every";
  /** The column naming the row's account (rows never move between accounts). */
  accountColumn?: string;
  /** Only updates bump: the row is created and removed by other means (an account). */
  updatesOnly?: boolean;
  /** A condition per operation (a trigger's WHEN): only such rows bump. */
  when?: Partial<Record<Operation, string>>;
  why: string;
}

export interface VersionedAnswers {
  /** The table holding one version row per account. */
  versionTable: "availability_versions" | "listing_versions" | "calendar_versions";
  /** The trigger names' middle part: `<table>_<tag>_<insert|update|delete>`. */
  tag: string;
  rules: readonly InvalidationRule[];
}

/** Refusals from memory and the version a create reads with its references (slot answers use CALENDAR). */
export const AVAILABILITY: VersionedAnswers = {
  versionTable: "availability_versions",
  tag: "availability",
  rules: [
    {
      table: "bookings",
      columns: ["resource_id", "event_id", "booked_from", "booked_to", "buffer_before", "buffer_after", "expires_at", "state", "active", "count"],
      why: "a booking holds capacity of its resource (or seats of its event) over its times and buffers while it is active",
    },
    {
      table: "events",
      columns: ["resource_id", "service_id", "published", "capacity", "starts_at", "ends_at", "active"],
      why: "an event is the slot of an attendance service",
    },
    {
      table: "resources",
      columns: [
        "active",
        "capacity",
        "opening_hours_mon",
        "opening_hours_tue",
        "opening_hours_wed",
        "opening_hours_thu",
        "opening_hours_fri",
        "opening_hours_sat",
        "opening_hours_sun",
      ],
      why: "opening hours and capacity bound every slot",
    },
    { table: "resource_exception_dates", columns: ["resource_id", "exception_date", "opening_hours"], why: "an exception date replaces a weekday's hours" },
    {
      table: "slot_holds",
      columns: ["resource_id", "event_id", "occupied_from", "occupied_to", "count", "expires_at", "ended_at"],
      why: "a live hold takes capacity as a booking does, until it is released, converted or lapses (docs/decisions/holds.md)",
    },
    {
      table: "busy_times",
      columns: ["resource_id", "occupied_from", "occupied_to"],
      why: "a busy time read from a calendar subscription takes its resource (docs/decisions/calendar-subscriptions.md)",
    },
    {
      table: "services",
      columns: [
        "active",
        "booking_type",
        "interval",
        "interval_rounding",
        "max_slots",
        "has_day_booking",
        "day_booking_specify_time",
        "same_day",
        "buffer_before",
        "buffer_after",
      ],
      why: "the service's settings shape its slots; its buffers widen what a slot needs free",
    },
    { table: "providers", columns: ["resource_id", "service_id", "active"], why: "providers say which resources offer a service" },
    {
      table: "accounts",
      columns: [
        "time_zone",
        "locale",
        "country_code",
        "closed_for_holidays",
        "interval_rounding",
        "slot_generation_type",
        "first_bookable_period",
        "future_bookable_period",
        "buffers_within_opening_hours",
      ],
      accountColumn: "id",
      updatesOnly: true,
      why: "the zone, holidays and bookable window apply to every slot",
    },
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

/**
 * Tables whose rows take a resource's capacity over a span: their writes bump hours, not the
 * calendar (BOOKING_HOURS). `resourceRow` says which rows are a resource's (a booking or hold of
 * an event takes the event's seats instead); null when every row is.
 */
const HOUR_BUMPING: readonly { table: string; resourceRow: ((row: "NEW" | "OLD") => string) | null }[] = [
  { table: "bookings", resourceRow: (row) => `${row}.event_id IS NULL` },
  { table: "slot_holds", resourceRow: (row) => `${row}.event_id IS NULL` },
  { table: "busy_times", resourceRow: null },
];
const HOUR_BUMPING_TABLES = HOUR_BUMPING.map((t) => t.table);

const BOOKINGS_OF_EVENTS = {
  insert: "NEW.event_id IS NOT NULL",
  update: "NEW.event_id IS NOT NULL OR OLD.event_id IS NOT NULL",
  delete: "OLD.event_id IS NOT NULL",
};

/**
 * Slot answers: what availability depends on, except a booking of a resource, whose writes bump
 * only the hours it covers (BOOKING_HOURS). A booking of an event still bumps it: seats of events
 * are read per event, not per day.
 */
const CALENDAR: VersionedAnswers = {
  versionTable: "calendar_versions",
  tag: "calendar",
  rules: AVAILABILITY.rules
    // A busy time is never an event's: its hours say all there is.
    .filter((rule) => HOUR_BUMPING.find((t) => t.table === rule.table)?.resourceRow !== null)
    .map((rule) =>
      HOUR_BUMPING_TABLES.includes(rule.table)
        ? { ...rule, when: BOOKINGS_OF_EVENTS, why: `a ${rule.table === "bookings" ? "booking" : "hold"} of an event holds its seats` }
        : rule,
    ),
};

export const VERSIONED_ANSWERS = [AVAILABILITY, LISTING, CALENDAR] as const;

const OPERATIONS = ["insert", "update", "delete"] as const;
type Operation = (typeof OPERATIONS)[number];

/** Milliseconds per UTC hour: `occupied_from / HOUR_MS` is a booking's first hour number in SQL's integer division. */
export const HOUR_MS = 3_600_000;
/** The `hour` of the row a booking longer than MAX_BUMPED_HOURS (or before 1970) bumps: every answer reads it. */
export const EVERY_HOUR = -1;
/** A longer booking bumps EVERY_HOUR instead of a row per hour: a trigger writes at most two weeks of rows. */
const MAX_BUMPED_HOURS = 14 * 24;

/**
 * Resource bookings bump the versions of their resource's UTC hours: the same columns as the
 * availability rule, for bookings without an event. An update bumps the hours before and after.
 * Hours rather than days: a local day starts on a whole UTC hour in nearly every zone, so a
 * booking on one local day bumps no row another day's answer reads (zones a half or quarter
 * hour off UTC share one hour row at midnight).
 */
const BOOKING_HOURS = {
  versionTable: "booking_hour_versions",
  tables: HOUR_BUMPING.map(({ table, resourceRow }) => ({
    table,
    resourceRow,
    columns: AVAILABILITY.rules.find((r) => r.table === table)!.columns as readonly string[],
  })),
  why: "a booking (or hold, or busy time) of a resource takes its capacity over the hours it covers, and nothing else",
} as const;

/**
 * One statement bumping the hours `row` (NEW or OLD) holds, when it is a resource booking: its
 * occupied span (its times widened by its buffers, docs/decisions/buffers.md), the span capacity reads.
 */
function bumpHours(row: "NEW" | "OLD", resourceRow: ((row: "NEW" | "OLD") => string) | null): string {
  const ofResource = resourceRow ? `${resourceRow(row)} AND ` : "";
  const first = `${row}.occupied_from / ${HOUR_MS}`;
  const last = `(${row}.occupied_to - 1) / ${HOUR_MS}`;
  const hourByHour = `${row}.occupied_from >= 0 AND ${last} - ${first} < ${MAX_BUMPED_HOURS}`;
  return [
    `  INSERT INTO ${BOOKING_HOURS.versionTable} (account_id, resource_id, hour, version)`,
    `    WITH RECURSIVE hours(hour) AS (SELECT ${first} UNION ALL SELECT hour + 1 FROM hours WHERE hour < ${last} AND hour - ${first} < ${MAX_BUMPED_HOURS})`,
    `    SELECT ${row}.account_id, ${row}.resource_id, hour, 1 FROM hours WHERE ${ofResource}${hourByHour}`,
    `    UNION ALL SELECT ${row}.account_id, ${row}.resource_id, ${EVERY_HOUR}, 1 WHERE ${ofResource}NOT (${hourByHour})`,
    "    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;",
  ].join("\n");
}

export function bookingHourTriggers(): { name: string; sql: string }[] {
  return BOOKING_HOURS.tables.flatMap(({ table, columns, resourceRow }) => {
    const name = (op: Operation) => `${table}_booking_hour_${op}`;
    const when = (condition: string | null) => (condition ? [`WHEN ${condition}`] : []);
    return [
      {
        name: name("insert"),
        sql: [`CREATE TRIGGER ${name("insert")} AFTER INSERT ON ${table}`, ...when(resourceRow?.("NEW") ?? null), "BEGIN", bumpHours("NEW", resourceRow), "END"].join(
          "\n",
        ),
      },
      {
        name: name("update"),
        sql: [
          `CREATE TRIGGER ${name("update")} AFTER UPDATE OF ${columns.join(", ")} ON ${table}`,
          ...when(resourceRow ? `${resourceRow("NEW")} OR ${resourceRow("OLD")}` : null),
          "BEGIN",
          bumpHours("OLD", resourceRow),
          bumpHours("NEW", resourceRow),
          "END",
        ].join("\n"),
      },
      {
        name: name("delete"),
        sql: [`CREATE TRIGGER ${name("delete")} AFTER DELETE ON ${table}`, ...when(resourceRow?.("OLD") ?? null), "BEGIN", bumpHours("OLD", resourceRow), "END"].join(
          "\n",
        ),
      },
    ];
  });
}

/** One trigger per table and operation, in the rule table's order, as the migrations hold them. */
export function versionTriggers(answers: VersionedAnswers): { name: string; sql: string }[] {
  return answers.rules.flatMap((rule) =>
    OPERATIONS.filter((op) => !rule.updatesOnly || op === "update").map((op) => {
      const row = op === "delete" ? "OLD" : "NEW";
      const event = op === "update" && rule.columns !== "every" ? `UPDATE OF ${rule.columns.join(", ")}` : op.toUpperCase();
      const name = `${rule.table}_${answers.tag}_${op}`;
      const when = rule.when?.[op];
      return {
        name,
        sql: [
          `CREATE TRIGGER ${name} AFTER ${event} ON ${rule.table}`,
          ...(when ? [`WHEN ${when}`] : []),
          "BEGIN",
          `  INSERT INTO ${answers.versionTable} (account_id, version) VALUES (${row}.${rule.accountColumn ?? "account_id"}, 1)`,
          "    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;",
          "END",
        ].join("\n"),
      };
    }),
  );
}
