// Builds the OpenAPI 3.1 document from the route table: zod schemas become JSON Schema 2020-12
// (the dialect of OpenAPI 3.1) with z.toJSONSchema; the rest is the HTTP conventions every
// route shares (auth, errors, rate limits, pagination, idempotency, encodings).
import * as z from "zod";
import { outputs } from "./answers";
import { operations, type Operation } from "./operations";
import { TAGS } from "./tags";
import { webhookEntries } from "./webhooks";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document, walked and built freely
type Json = Record<string, any>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const refTo = (kind: "responses" | "headers" | "parameters", id: string) => ({ $ref: `#/components/${kind}/${id}` });

outputs.add(z.object({ error: z.string().meta({ description: "One sentence a person understands." }) }), { id: "Error" });
outputs.add(
  z
    .record(
      z.string(),
      z.union([z.array(z.string()), z.record(z.string(), z.array(z.string())).meta({ description: "`person_attributes`: messages per nested attribute." })]),
    )
    .meta({
      description: "Messages per attribute (`base` when no attribute is to blame).",
      examples: [{ booked_to: ["can't be blank"] }, { user_agent: ["is required: name your application or website"] }],
    }),
  { id: "AttributeErrors" },
);

const intHeader = (description: string) => ({ description, schema: { type: "integer" } });
const HEADERS = {
  "RateLimit-Limit": intHeader("Requests allowed per window from one client address."),
  "RateLimit-Remaining": intHeader("Requests left in the current window."),
  "RateLimit-Reset": intHeader("Seconds until the window frees a request."),
  "Retry-After": intHeader("Seconds to wait before retrying."),
  Link: { description: "RFC 8288 links: `first`, `prev`, `next`, `last`.", schema: { type: "string" } },
  "Current-Page": intHeader("The page answered (1-based)."),
  "Page-Items": intHeader("Items on this page."),
  "Total-Count": intHeader("Items on all pages."),
  "Total-Pages": intHeader("Number of pages."),
};
const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
const PAGE_HEADERS = ["Link", "Current-Page", "Page-Items", "Total-Count", "Total-Pages"];
const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [n, refTo("headers", n)]));

const errorResponse = (description: string, schema = "Error", headers = RATE_HEADERS) => ({
  description,
  headers: headerRefs(headers),
  content: { "application/json": { schema: ref(schema) } },
});

const RESPONSES = {
  BadRequest: errorResponse("Bad input: messages keyed by attribute. A rejected request changes nothing.", "AttributeErrors"),
  Unauthorized: errorResponse("No key, a wrong key, or the API is not enabled for the account."),
  PaymentRequired: errorResponse("The account has an unpaid bill."),
  NotFound: errorResponse("No such object in the caller's account (another account's id included)."),
  NotAcceptable: errorResponse("XML was asked for (`Accept: application/xml` or a `.xml` path): XML support is gone."),
  Conflict: errorResponse("A request with this Idempotency-Key is still being processed."),
  PayloadTooLarge: errorResponse("The body is larger than 1 MiB."),
  UnsupportedMediaType: errorResponse("A body that is neither JSON nor a form."),
  UnprocessableEntity: errorResponse("This Idempotency-Key was used for a different request."),
  MoveRefused: errorResponse(
    "The account still has background work on its shard, or the target shard already uses some of its ids: nothing was moved (docs/scaling.md).",
  ),
  RestoreRefused: errorResponse("The account's grace period is over and its deletion has begun: restore it from an export (docs/decisions/recovery.md)."),
  ImportRefused: errorResponse("The account, or a row the export names, already exists here: nothing was imported (docs/decisions/recovery.md)."),
  HoldsDisabled: errorResponse("The account has not enabled slot holds on its booking site (`slot_holds_enabled`)."),
  WaitlistDisabled: errorResponse("The account has not enabled the waitlist on its booking site (`waitlist_enabled`)."),
  TooManyRequests: errorResponse(
    "Over the per-address budget (80 requests per 20 s by default), or, for POST /slots/holds, over the live holds a visitor (3) or an account (50) may have; `Retry-After` says when one lapses.",
    "Error",
    [...RATE_HEADERS, "Retry-After"],
  ),
  ServerError: errorResponse('`{"error": "system error"}`; details only in the service\'s logs.'),
  EventRefused: errorResponse(
    "Not an event of Stripe's for a linked account (unsigned, badly signed, outside the 5-minute tolerance, of an unlinked connected account, or an amount that is not the booking's): nothing changed.",
  ),
  DeliveryEventRefused: errorResponse(
    "Not a delivery event of the provider's about a message here (unsigned, badly signed, outside the signature's tolerance, naming no message of the account it names, or this deployment has no signing secret for that provider): nothing changed.",
  ),
  PaymentsUnavailable: errorResponse("The deployment has no Stripe keys (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET): no payment can be taken."),
  ProviderUnreachable: errorResponse("A booking of a paid service: the payment provider could not be reached, so nothing was booked (docs/decisions/payments.md)."),
};

const PARAMETERS = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a POST or PUT safe to retry: a replay within 24 h answers the stored response (with `Idempotent-Replayed: true`). Keys are per account, 1–255 characters.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
};

const BOOKING_TOKEN = {
  name: "X-Booking-Token",
  in: "header",
  required: true,
  description: "The `booking_token` POST /bookings answered: it opens that one booking. A missing or wrong token is a 404.",
  schema: { type: "string" },
};

const HOLD_SECRET = {
  name: "X-Hold-Secret",
  in: "header",
  required: true,
  description: "The `hold_secret` POST /slots/holds answered: it opens that one hold. A missing or wrong secret is a 404.",
  schema: { type: "string" },
};

const WAITLIST_TOKEN = {
  name: "X-Waitlist-Token",
  in: "header",
  required: true,
  description: "The `waitlist_token` POST /waitlist answered: it opens that one place in line. A missing or wrong token is a 404.",
  schema: { type: "string" },
};

const PATH_PARAMS: Record<string, Json> = {
  id: { type: "integer", minimum: 1 },
  delivery_id: { type: "integer", minimum: 1 },
  date: { type: "string", format: "date" },
  collection_id: { type: "string" },
  external_id: { type: "string" },
  file: { type: "string", pattern: "\\.ics$" },
  channel: { type: "string", enum: ["sms", "email"] },
  recipient: { type: "string", description: "The address or E.164 number, URL-encoded (`+` as `%2B`, `@` as `%40`)." },
};

const PUBLIC_SERVERS = [
  {
    url: "{scheme}://{subdomain}.{root_domain}",
    description: "An account's booking site: the account is the one whose subdomain the Host names; no key.",
    variables: { scheme: { default: "http", enum: ["http", "https"] }, subdomain: { default: "demo" }, root_domain: { default: "localhost:8787" } },
  },
];

const SECURITY: Record<Operation["surface"], Json[]> = {
  private: [{ bearerAuth: [] }, { basicAuth: [] }],
  operator: [{ operatorToken: [] }],
  public: [],
  reference: [],
};

const pascal = (s: string) =>
  s
    .replace(/[{}]/g, "")
    .split(/[/_.]/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

function operationId(op: Operation): string {
  const prefix = { private: "", reference: "", public: "public", operator: "operator" }[op.surface];
  const path = op.path.replace(/^\/(api|admin)\/v1/, "");
  const id = `${op.method}${prefix ? pascal(prefix) : ""}${pascal(path)}`;
  return id[0].toLowerCase() + id.slice(1);
}

/** Query schemas become one parameter per attribute; arrays repeat the name (`state=a&state=b`) or use `[]`. */
function queryParameters(schema: z.ZodType): Json[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  const required = new Set<string>(json.required ?? []);
  return Object.entries<Json>(json.properties ?? {}).map(([name, property]) => {
    const many = JSON.stringify(property).includes('"type":"array"');
    return {
      name,
      in: "query",
      required: required.has(name),
      schema: property,
      ...(many ? { style: "form", explode: true, description: `One value, or several as \`${name}[]=1&${name}[]=2\` (or \`${name}=1&${name}=2\`).` } : {}),
    };
  });
}

/** A form body sends nested objects with bracket names: `booking[title]=x` (deepObject). */
function formEncoding(body: Json): Json {
  const props = Object.entries<Json>(body.properties ?? {}).filter(([, p]) => JSON.stringify(p).includes('"type":"object"'));
  return Object.fromEntries(props.map(([name]) => [name, { style: "deepObject", explode: true }]));
}

/** The booking site's service and slot reads (src/http/conditional-get.ts) and calendar feeds carry an ETag. */
function notModified(op: Operation): Json {
  if (op.surface !== "public" || op.method !== "get" || !(op.path.startsWith("/services") || op.path === "/calendar/{file}")) return {};
  return { "304": { description: "Not Modified: the `If-None-Match` ETag is the current answer's; no body." } };
}

function errorsOf(op: Operation): Json {
  const refs: Record<string, keyof typeof RESPONSES> = {};
  if (op.surface === "reference" && op.path.startsWith("/api/v1/payments/")) {
    return Object.fromEntries(
      Object.entries({ "400": "EventRefused", "413": "PayloadTooLarge", "429": "TooManyRequests", "500": "ServerError", "503": "PaymentsUnavailable" }).map(
        ([status, name]) => [status, refTo("responses", name as keyof typeof RESPONSES)],
      ),
    );
  }
  if (op.surface === "reference" && op.path.startsWith("/api/v1/messages/")) {
    return Object.fromEntries(
      Object.entries({ "400": "DeliveryEventRefused", "413": "PayloadTooLarge", "429": "TooManyRequests", "500": "ServerError" }).map(([status, name]) => [
        status,
        refTo("responses", name as keyof typeof RESPONSES),
      ]),
    );
  }
  if (op.surface === "reference") return { "429": refTo("responses", "TooManyRequests"), "500": refTo("responses", "ServerError") };
  refs["400"] = "BadRequest";
  if (op.surface !== "public") refs["401"] = "Unauthorized";
  if (op.surface === "private") refs["402"] = "PaymentRequired";
  if (op.surface === "public" && op.method === "post" && op.path === "/slots/holds") refs["403"] = "HoldsDisabled";
  if (op.surface === "public" && op.method === "post" && op.path === "/waitlist") refs["403"] = "WaitlistDisabled";
  refs["404"] = "NotFound";
  refs["406"] = "NotAcceptable";
  if (op.body) Object.assign(refs, { "413": "PayloadTooLarge", "415": "UnsupportedMediaType" });
  if (op.surface !== "operator" && (op.method === "post" || op.method === "put")) Object.assign(refs, { "409": "Conflict", "422": "UnprocessableEntity" });
  if (op.surface === "operator" && op.path.endsWith("/move")) refs["409"] = "MoveRefused";
  if (op.surface === "operator" && op.path.endsWith("/restore")) refs["409"] = "RestoreRefused";
  if (op.upload) Object.assign(refs, { "409": "ImportRefused", "413": "PayloadTooLarge" });
  refs["429"] = "TooManyRequests";
  refs["500"] = "ServerError";
  // Paid bookings reach the payment provider (docs/decisions/payments.md).
  if (op.method === "post" && (/\/bookings$/.test(op.path) || op.path.endsWith("/checkout") || op.path.endsWith("/payment"))) {
    Object.assign(refs, { "502": "ProviderUnreachable", "503": "PaymentsUnavailable" });
  }
  return Object.fromEntries(Object.entries(refs).map(([status, name]) => [status, refTo("responses", name)]));
}

/** A JSON-RPC error (`id: null`) from the transport, or the HTTP error the same status has elsewhere. */
const jsonRpcOr = (description: string, schema: string) => ({
  description,
  headers: headerRefs(RATE_HEADERS),
  content: { "application/json": { schema: { anyOf: [ref("JsonRpcAnswer"), ref(schema)] } } },
});

/** An MCP endpoint's answers besides 200: JSON-RPC errors where the transport refuses, HTTP errors before it. */
function jsonRpcResponses(op: Operation): Json {
  return {
    "202": { description: "A notification was taken (`notifications/initialized`); no body.", headers: headerRefs(RATE_HEADERS) },
    "400": jsonRpcOr("Not one JSON-RPC message (a batch, or not JSON): a JSON-RPC error; or no User-Agent.", "AttributeErrors"),
    ...(op.surface === "private"
      ? { "401": refTo("responses", "Unauthorized"), "402": refTo("responses", "PaymentRequired") }
      : { "404": refTo("responses", "NotFound") }),
    "406": jsonRpcOr("Accept must list both application/json and text/event-stream, and not XML only.", "Error"),
    "413": refTo("responses", "PayloadTooLarge"),
    "415": jsonRpcOr("Content-Type must be application/json.", "Error"),
    "429": refTo("responses", "TooManyRequests"),
    "500": refTo("responses", "ServerError"),
  };
}

function jsonRpcOperation(op: Operation): Json {
  return {
    operationId: operationId(op),
    summary: op.summary,
    description:
      "JSON-RPC 2.0 over Streamable HTTP (MCP 2025-11-25 and earlier), stateless: no `Mcp-Session-Id`, no stream (GET is 405), one message per request. Every call draws on the request budgets. docs/decisions/mcp.md.",
    tags: [op.tag],
    security: SECURITY[op.surface],
    requestBody: { required: true, content: { "application/json": { schema: ref(op.body!.id) } } },
    responses: {
      "200": { description: "The JSON-RPC answer.", headers: headerRefs(RATE_HEADERS), content: { "application/json": { schema: ref(op.answer.id) } } },
      ...jsonRpcResponses(op),
    },
  };
}

function operationObject(op: Operation, inputSchemas: Json): Json {
  if (op.jsonRpc) return jsonRpcOperation(op);
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: PATH_PARAMS[name] }));
  const parameters = [
    ...pathParams,
    ...(op.query ? queryParameters(op.query) : []),
    ...(op.bookingToken ? [BOOKING_TOKEN] : []),
    ...(op.holdSecret ? [HOLD_SECRET] : []),
    ...(op.waitlistToken ? [WAITLIST_TOKEN] : []),
    ...(op.surface !== "operator" && (op.method === "post" || op.method === "put") ? [refTo("parameters", "IdempotencyKey")] : []),
  ];
  const ok =
    op.html || op.media
      ? { description: op.media ?? "HTML", content: { [op.media ?? "text/html"]: { schema: ref(op.answer.id) } } }
      : {
          description: "OK",
          headers: headerRefs([...RATE_HEADERS, ...(op.answer.paginated ? PAGE_HEADERS : [])]),
          content: { "application/json": { schema: ref(op.answer.id) } },
        };
  const out: Json = {
    operationId: operationId(op),
    summary: op.summary,
    tags: [op.tag],
    security: SECURITY[op.surface],
    ...(parameters.length ? { parameters } : {}),
    responses: { "200": ok, ...notModified(op), ...(op.unavailable ? { "503": op.unavailable } : {}), ...errorsOf(op) },
  };
  if (op.upload) out.requestBody = { required: true, description: op.upload.description, content: { [op.upload.media]: { schema: { type: "string" } } } };
  if (op.body) {
    const schema = inputSchemas[op.body.id];
    const encoding = formEncoding(schema);
    out.requestBody = {
      required: (schema.required ?? []).length > 0,
      description: "JSON, or a form with bracket names (`booking[title]=x`, `ids[]=1`) whose values are read as text.",
      content: {
        "application/json": { schema: ref(op.body.id) },
        "application/x-www-form-urlencoded": { schema: ref(op.body.id), encoding },
        "multipart/form-data": { schema: ref(op.body.id), encoding },
      },
    };
  }
  return out;
}

const componentSchemas = (registry: z.core.$ZodRegistry<{ id: string }>, io: "input" | "output") => {
  const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: "any", uri: (id) => `#/components/schemas/${id}` }) as { schemas: Json };
  for (const schema of Object.values<Json>(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
};

const DESCRIPTION = `Booking service API: resources, services, slots, bookings, events, people and web hooks.

- **Private API** (\`/api/v1\`): \`Authorization: Bearer <API key>\`; HTTP Basic with the key as user name still works but is deprecated.
- **Booking site** (\`/services\`, \`/bookings\`, \`/people/perishable_token\` on \`<subdomain>.<root domain>\`): no key; the Host names the account.
- **Operator API** (\`/admin/v1\`): \`Authorization: Bearer <ADMIN_TOKEN>\`; creates and manages accounts.

Every request names its application in \`User-Agent\` (400 \`{"user_agent": [...]}\` without one). Every path also answers with a \`.json\` suffix.
Bodies are JSON or forms with bracket names. Answers wrap each object under its kind (\`{"booking": {...}}\`, lists as \`[{"booking": {...}}, ...]\`);
datetimes are ISO 8601 with the account's offset, dates \`YYYY-MM-DD\`. Errors: 400 \`{"<attribute>": ["message"]}\`, other 4xx \`{"error": "sentence"}\`, 5xx \`{"error": "system error"}\`.`;

let built: Json | undefined;

/** The document; built once per isolate (a few milliseconds) and shared by every request. */
export function openApiDocument(): Json {
  if (built) return built;
  const inputs = z.registry<{ id: string }>();
  for (const op of operations) if (op.body && !inputs.has(op.body.schema)) inputs.add(op.body.schema, { id: op.body.id });
  const webhooks = webhookEntries(ref);
  const inputSchemas = componentSchemas(inputs, "input");
  const paths: Json = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= op.surface === "public" ? { servers: PUBLIC_SERVERS } : {});
    item[op.method] = operationObject(op, inputSchemas);
  }
  built = {
    openapi: "3.1.0",
    info: { title: "Booking service API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: "/", description: "The host serving this document" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      schemas: { ...componentSchemas(outputs, "output"), ...inputSchemas },
      responses: RESPONSES,
      headers: HEADERS,
      parameters: PARAMETERS,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The account's API key." },
        basicAuth: { type: "http", scheme: "basic", description: "Deprecated: the API key as user name, any password." },
        operatorToken: { type: "http", scheme: "bearer", description: "The operator's ADMIN_TOKEN." },
      },
    },
  };
  return built;
}
