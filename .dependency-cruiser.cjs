// The floors of src/ as rules (`npm run check:layers`, run by .ci/run): what each rule protects is
// written beside it. Floors, lowest first; a file imports from its own floor or below, types included:
//
//   domain    src/domain/                        pure logic: plain data in, plain data out
//   ground    src/db/, src/env.ts, src/config.ts the schema and D1 plumbing, the bindings' types, the settings
//   objects   src/durable-objects/               the objects that serialise (capacity guard, rate limiter)
//   http      src/http/                          shared request plumbing: auth, errors, validation, limits
//   features  src/features/, src/openapi/        one folder per resource of the spec, and the API's description
//   app       src/app.ts                         the Hono app: middleware order, mounts
//   entries   src/index.ts, src/near-database.ts, src/queues/, src/cron/
//
// Only src/ is checked: tests and bench/ stand outside the house and may import any floor.
//
const DOMAIN = "src/domain/";
const GROUND = ["src/db/", "src/env\\.ts$", "src/config\\.ts$"];
const OBJECTS = "src/durable-objects/";
const HTTP = "src/http/";
const FEATURES = ["src/features/", "src/openapi/"];
const APP = "src/app\\.ts$";
const ENTRIES = ["src/index\\.ts$", "src/near-database\\.ts$", "src/queues/", "src/cron/"];

/** One regular expression for paths under any of `places` (each a path from the repository root). */
const under = (...places) => `^(${places.flat().join("|")})`;

/**
 * What each feature offers the others: its files that code outside the feature may import
 * (`.ts`/`.tsx` left off). Anything else in a feature's folder is its own business, so it can be
 * changed without reading every other feature. Offering one more file is a change to this
 * table, seen in review; moving a shared piece down (domain/, db/) is often the better change.
 * Every feature's `routes` is also open to the code that mounts it (app.ts and features/*.ts:
 * index, loaders), never to another feature.
 */
const OFFERS = {
  account: "schema serializer",
  bookings:
    "active-sql capacity-sql create effects guarded-write list list-answer list-cache move person-link " +
    "placement queries references schema serializer service site verification",
  "calendar-feeds": "feed ics links schema",
  "calendar-subscriptions": "consumer refresh schema",
  categories: "schema service",
  events: "effects queries schema serializer service",
  holds: "conversion limits queries schema serializer service",
  messages: "booking-messages caps consumer defaults enqueue kinds render schema templates",
  occupancy: "occupants-sql",
  operator: "schema service",
  payments: "after-change booking-payment checkout limits onboarding record retry serializer stage sweep unpaid-limits",
  people: "identity schema serializer service",
  "perishable-tokens": "schema",
  "personal-data": "retention schema",
  providers: "queries schema",
  recurrence: "consumer schema",
  resources: "exception-date-schema queries schema serializer",
  services: "schema serializer service",
  slots: "answer-cache schema serializer service",
  users: "schema",
  waitlist: "offer-message offers schema service",
  "webhook-secret": "service",
  webhooks: "consumer emit policy schema ssrf",
  // The API's description: its objects are the wire shapes the MCP tools answer too.
  openapi: "objects",
};

const folderOf = (feature) => (feature === "openapi" ? "src/openapi/" : `src/features/${feature}/`);
const offered = Object.entries(OFFERS).map(([feature, files]) => `${folderOf(feature)}(${files.split(/\s+/).join("|")})\\.tsx?$`);
const OFFERED = under(offered);
const OFFERED_OR_ROUTES = under(offered, "src/features/[^/]+/routes\\.tsx?$", "src/openapi/routes\\.tsx$");
/** A feature's folder, or the API's description, as one capture group (`$1` in a rule's `to`). */
const A_FEATURE = "^(src/features/[^/]+/|src/openapi/)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment:
        "No import circle, type-only imports and import() included. A circle makes its files one " +
        "unit: none can be read, tested or loaded lazily without the others, and a floor that " +
        "imports upward through one drags the whole app into the ground (once, 150 files).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      comment:
        "domain/ imports nothing of the project but itself, so its rules are plain functions of " +
        "their arguments, tested in Node without a database, a binding or a request.",
      severity: "error",
      from: { path: under(DOMAIN) },
      to: { path: "^src/", pathNot: under(DOMAIN) },
    },
    {
      name: "ground-imports-nothing-above",
      comment:
        "db/, env.ts and config.ts import only the domain and each other: every floor above " +
        "reads the schema and the bindings' types, so an upward import from here is a circle " +
        "through the whole app. A type they need moves down here (db/booking-payment.ts).",
      severity: "error",
      from: { path: under(GROUND) },
      to: { path: "^src/", pathNot: under(DOMAIN, GROUND) },
    },
    {
      name: "objects-stay-on-the-ground",
      comment:
        "An object that serialises (capacity guard, rate limiter) takes only the ground's D1 and " +
        "domain logic, never the app or a feature: it must stay small enough to reason about " +
        "one call at a time. An object that runs the whole app is an entry (src/near-database.ts).",
      severity: "error",
      from: { path: under(OBJECTS) },
      to: { path: "^src/", pathNot: under(DOMAIN, GROUND, OBJECTS) },
    },
    {
      name: "http-imports-no-feature",
      comment:
        "http/ is the plumbing every feature shares; importing a feature (or app.ts) from here " +
        "ties all features to that one. What plumbing must tell a feature is handed in by app.ts.",
      severity: "error",
      from: { path: under(HTTP) },
      to: { path: "^src/", pathNot: under(DOMAIN, GROUND, OBJECTS, HTTP) },
    },
    {
      name: "features-import-no-app-or-entry",
      comment:
        "Features are mounted by the app and called by the entries, never the other way: a " +
        "feature importing them would import every other feature with them.",
      severity: "error",
      from: { path: under(FEATURES) },
      to: { path: under(APP, ENTRIES) },
    },
    {
      name: "only-entries-import-the-app",
      comment:
        "app.ts imports every feature; only the entries (the Worker's, the Durable Object that " +
        "runs the app beside the database, the queue and cron handlers) may build it, so nothing " +
        "below can close a circle through it.",
      severity: "error",
      from: { path: "^src/", pathNot: under(ENTRIES) },
      to: { path: under(APP) },
    },
    {
      name: "a-feature-reaches-another-through-what-it-offers",
      comment:
        "A feature reaches another only through the files that feature offers (OFFERS above), " +
        "so a feature's inside can change without touching its neighbours.",
      severity: "error",
      from: { path: A_FEATURE },
      to: { path: A_FEATURE, pathNot: ["^$1", OFFERED] },
    },
    {
      name: "the-rest-reaches-a-feature-through-what-it-offers",
      comment:
        "So do app.ts, the entries and the features' shared files (features/*.ts): what a " +
        "feature offers, plus its routes, which they mount.",
      severity: "error",
      from: { path: "^src/", pathNot: A_FEATURE },
      to: { path: A_FEATURE, pathNot: OFFERED_OR_ROUTES },
    },
  ],
  options: {
    // Type-only imports are dependencies too: a type that runs up a floor ties the floors as surely.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
  },
};
