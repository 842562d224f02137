// The route table the OpenAPI document is built from: one entry per method and path the app
// mounts, naming the feature's own input schemas and the answer. The route-coverage test keeps
// it equal to the app's routes.
import * as z from "zod";
import { holidaysQuery, updateClientBody } from "../features/account/schema";
import { LISTINGS } from "../features/bookings/list";
import {
  actionBody,
  checkoutBody,
  recordPaymentBody,
  createBookingBody,
  listQuery,
  showQuery,
  siteMoveBody,
  siteVerifyCodeBody,
  statusBody,
  updateBookingBody,
  verifyCodeBody,
} from "../features/bookings/schema";
import { bookingFileQuery, createCalendarFeedBody } from "../features/calendar-feeds/schema";
import { createCalendarSubscriptionBody, listCalendarSubscriptionsQuery } from "../features/calendar-subscriptions/schema";
import { createCategoryBody, updateCategoryBody } from "../features/categories/schema";
import { createEventBody, eventsQuery, updateEventBody } from "../features/events/schema";
import { listMessagesQuery, listUndeliverableQuery } from "../features/messages/schema";
import { createAccountBody, importAccountQuery, moveAccountBody, operatorUpdateBody } from "../features/operator/schema";
import { mergeBody, mergeQuery, pageQuery, peopleQuery, personBody } from "../features/people/schema";
import { sendTokenBody, verifyTokenBody } from "../features/perishable-tokens/schema";
import { createHoldBody } from "../features/holds/schema";
import { exportQuery } from "../features/personal-data/schema";
import { joinWaitlistBody, waitlistQuery } from "../features/waitlist/schema";
import { createProviderBody, listProvidersQuery } from "../features/providers/schema";
import { collectionQuery, recurringBookingBody, recurringEventBody } from "../features/recurrence/schema";
import { exceptionDateBody, exceptionDatesBody, exceptionDatesQuery } from "../features/resources/exception-date-schema";
import { createResourceBody, dateRangeQuery, updateResourceBody } from "../features/resources/schema";
import { createServiceBody, updateServiceBody } from "../features/services/schema";
import { slotsQuery } from "../features/slots/schema";
import { createUserLinkBody } from "../features/users/schema";
import { createWebHookBody, deliveriesQuery, updateWebHookBody } from "../features/webhooks/schema";
import { list, one, other, type Answer } from "./answers";
import { Account, OperatorAccount, PerishableToken, Person, PublicBooking, PublicPerson, SlotHold, WaitlistEntry } from "./objects";
import type { Tag } from "./tags";

/** private: `/api/v1`, API key; public: the booking site on `<subdomain>.<root>`; operator: `/admin/v1`. */
type Surface = "private" | "public" | "operator" | "reference";
type Method = "get" | "post" | "put" | "delete";

export interface Operation {
  method: Method;
  /** OpenAPI template, `{id}` for Hono's `:id`. */
  path: string;
  surface: Surface;
  tag: Tag;
  summary: string;
  query?: z.ZodType;
  /** Component name and schema of the body (JSON or bracket form). */
  body?: { id: string; schema: z.ZodType };
  answer: Answer;
  /** Answered as HTML rather than JSON. */
  html?: boolean;
  /** Answered as this media type (the booking page's script and stylesheet) rather than JSON. */
  media?: string;
  /** Needs the visitor's `X-Booking-Token` (docs/decisions/booking-site.md). */
  bookingToken?: boolean;
  /** Needs the visitor's `X-Hold-Secret` (docs/decisions/holds.md). */
  holdSecret?: boolean;
  /** Needs the visitor's `X-Waitlist-Token` (docs/decisions/waitlist.md). */
  waitlistToken?: boolean;
  /** A 503 answer, for the health check when the database does not answer. */
  unavailable?: Json;
  /** A JSON-RPC endpoint (MCP): its body and answers are JSON-RPC messages, its 202 a notification taken. */
  jsonRpc?: boolean;
  /** A body that is a file in this media type rather than JSON or a form (an account's export). */
  upload?: { media: string; description: string };
}

type Json = Record<string, unknown>;

type Entry = [
  method: Method,
  path: string,
  summary: string,
  answer: Answer,
  extra?: Pick<Operation, "query" | "body" | "html" | "media" | "bookingToken" | "holdSecret" | "waitlistToken" | "jsonRpc" | "upload">,
];

const body = (id: string, schema: z.ZodType) => ({ body: { id, schema } });

/** What a provider's delivery event did (features/messages/delivery-events.ts). */
const deliveryEventApplied = (name: string) =>
  other(
    name,
    z.object({
      received: z.literal(true),
      applied: z.enum(["updated", "unchanged", "duplicate", "ignored"]).meta({
        description:
          "`updated`: the message's status moved (and `message.delivered` or `message.bounced` was announced); `unchanged`: the status already said as much or more (a late event); `duplicate`: this event was applied before; `ignored`: an event that changes no status (sent, delayed, opened), recorded.",
      }),
    }),
  );
const query = (schema: z.ZodType) => ({ query: schema });

const holdCreated = other(
  "SlotHoldCreated",
  z.object({
    slot_hold: SlotHold,
    hold_secret: z
      .string()
      .meta({ description: "Opens this one hold (X-Hold-Secret on the booking site) and converts it: send it as `hold_secret` with POST /bookings. Shown only here." }),
  }),
);

const waitlistJoined = other(
  "WaitlistJoined",
  z.object({
    waitlist_entry: WaitlistEntry,
    waitlist_token: z.string().meta({ description: "Opens this one place (X-Waitlist-Token on the booking site), and accepts its offer. Shown only here." }),
  }),
);

const jsonRpcId = z.union([z.string(), z.number().int()]);

/** One JSON-RPC 2.0 message: a request (with `id`) or a notification. Batches are refused. */
const jsonRpcMessage = z.object({
  jsonrpc: z.literal("2.0"),
  id: jsonRpcId.optional().meta({ description: "Absent on a notification (`notifications/initialized`)." }),
  method: z.string().meta({ examples: ["initialize", "tools/list", "tools/call"] }),
  params: z.record(z.string(), z.unknown()).optional(),
});

const jsonRpcAnswer = other(
  "JsonRpcAnswer",
  z.object({
    jsonrpc: z.literal("2.0"),
    id: jsonRpcId.nullable(),
    result: z.record(z.string(), z.unknown()).optional().meta({
      description: "`tools/call`: the tool's answer as `structuredContent` (and as text), or `isError: true` with the API's sentences as text.",
    }),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  }),
);

const mcpEntry = (who: string): Entry => [
  "post",
  "",
  `The Model Context Protocol endpoint: ${who}`,
  jsonRpcAnswer,
  { ...body("JsonRpcMessage", jsonRpcMessage), jsonRpc: true },
];

const group = (surface: Surface, prefix: string, tag: Tag, entries: Entry[]): Operation[] =>
  entries.map(([method, path, summary, answer, extra]) => ({
    method,
    path: `${prefix}${path}`.replace(/\/$/, "") || "/",
    surface,
    tag,
    summary,
    answer,
    ...extra,
  }));

const P = "/api/v1";

const bookingLists = (prefix: string, what: string): Entry[] =>
  LISTINGS.map((listing) => [
    "get",
    listing === "active" ? prefix : `${prefix}/${listing}`,
    listing === "active" ? `Active ${what}` : `${what}: the ${listing} listing`,
    list("booking", "Booking", { paginated: true }),
    query(listQuery),
  ]);

const slotEntries = (summaryPrefix: string): Entry[] => [
  ["get", "/{id}/slots", `${summaryPrefix}slots of a service`, list("slot", "Slot"), query(slotsQuery)],
  [
    "get",
    "/{id}/next_available_date",
    `${summaryPrefix}first date with a free slot within 30 days`,
    other(
      "NextAvailableDate",
      z.array(z.object({ available_date: z.string().meta({ format: "date" }) })).meta({
        description: "One element with the date, or an empty list when nothing is free in the window.",
      }),
    ),
    query(slotsQuery),
  ],
  [
    "get",
    "/{id}/available_dates",
    `${summaryPrefix}dates with a free slot`,
    other("AvailableDates", z.array(z.object({ available_date: z.object({ date: z.string().meta({ format: "date" }) }) }))),
    query(slotsQuery),
  ],
];

const tokenVerified = (person: z.ZodType, id: string) =>
  other(id, z.object({ person: z.union([person, z.object({}).meta({ description: "No person has that number." })]) }));

const exportRows = (what: string) => z.array(z.record(z.string(), z.unknown())).meta({ description: what });

/** The sections of an export, one page of each (docs/decisions/personal-data.md). */
const exportSections = {
  generated_at: z.string().meta({ format: "date-time" }),
  page: z.number().int(),
  next_page: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The page with the next rows of any section (`?page=`); null on the last. Each section holds at most 500 rows a page." }),
  bookings: exportRows("Bookings in every state, with their payment (amounts, status, the provider's references) and custom data."),
  messages: exportRows("Messages sent or queued to them or about their bookings, bodies included."),
  waitlist_entries: exportRows("Places in line, with the attributes given when joining."),
  slot_holds: exportRows("Holds that became their bookings or were offered to their places in line."),
  payment_facts: exportRows("What the payment provider said about their bookings' money."),
  payment_events: exportRows("The provider's events applied to their bookings."),
  webhook_deliveries: exportRows("Web hook deliveries that carried them or their bookings: ids, hook, event, state and times (not the payload)."),
};

const personExport = other(
  "PersonalDataExport",
  z.object({
    personal_data: z.object({
      person: Person.extend({ erased_at: z.string().nullable().meta({ format: "date-time", description: "When the person was erased; null if not." }) }),
      ...exportSections,
      recurring_collections: exportRows("Recurring bookings made for them, with the request they are made from."),
      idempotency_keys: exportRows("Stored answers to retried requests that showed them: key, status and time (not the answer)."),
      perishable_tokens: exportRows("One-time codes sent to their phone number: the number and when."),
      undeliverable_recipients: exportRows("Their addresses that delivery stopped to, and why."),
    }),
  }),
);

const visitorExport = other("VisitorBookingExport", z.object({ personal_data: z.object({ booking_id: z.number().int(), ...exportSections }) }));

const personErasure = other(
  "PersonErasure",
  z.object({
    erasure: z.object({
      person: Person.extend({ erased_at: z.string().nullable().meta({ format: "date-time" }) }),
      already_erased: z.boolean().meta({ description: "True when the person had been erased before: nothing changed, and no event was sent." }),
      rows: z.record(z.string(), z.number().int()).meta({ description: "Rows overwritten or deleted, by table." }),
    }),
  }),
);

const webhookSecretAnswer = other(
  "WebhookSecretAnswer",
  z.object({
    webhook_secret: z.object({
      secret: z.string().meta({ description: "Standard Webhooks form: `whsec_` and base64." }),
      previous_secret_expires_at: z
        .string()
        .nullable()
        .meta({ format: "date-time", description: "Until when the previous secret also signs; null when it no longer does." }),
    }),
  }),
);

const accountWithKey = other(
  "OperatorAccountCreated",
  z.object({
    account: OperatorAccount,
    api_key: z.string().meta({ description: "Shown only here." }),
    webhook_secret: z.string(),
  }),
);

export const operations: Operation[] = [
  ...group("reference", P, "Reference", [["get", "/openapi.json", "This OpenAPI document", other("OpenApiDocument", z.record(z.string(), z.unknown()))]]),
  {
    method: "get",
    path: "/health",
    surface: "reference",
    tag: "Reference",
    summary: "The service and its database answer (root host; no data)",
    answer: other("Health", z.object({ status: z.literal("ok") })),
    unavailable: {
      description: "The database does not answer",
      content: {
        "application/json": { schema: { type: "object", properties: { status: { const: "unavailable" }, error: { type: "string" } }, required: ["status", "error"] } },
      },
    },
  },
  { method: "get", path: `${P}/docs`, surface: "reference", tag: "Reference", summary: "The API reference page (HTML)", answer: other("Html", z.string()), html: true },
  {
    method: "get",
    path: "/favicon.ico",
    surface: "reference",
    tag: "Reference",
    summary: "The icon browsers ask for (every host)",
    answer: other("Icon", z.string()),
    media: "image/vnd.microsoft.icon",
  },
  {
    method: "get",
    path: `${P}/docs.css`,
    surface: "reference",
    tag: "Reference",
    summary: "The reference page's stylesheet",
    answer: other("Stylesheet", z.string()),
    media: "text/css",
  },
  ...group("private", `${P}/client`, "Account", [
    ["get", "", "The caller's account", one("client", "Account")],
    ["put", "", "Update the caller's account", one("client", "Account"), body("UpdateClientBody", updateClientBody)],
    ["get", "/webhook_secret", "The secret web hook deliveries are signed with (whsec_…)", webhookSecretAnswer],
    ["post", "/webhook_secret/rotate", "A new web hook secret; the old one keeps signing for 24 hours", webhookSecretAnswer],
    ["get", "/holidays", "Public holidays of the account's country", list("holiday", "Holiday"), query(holidaysQuery)],
    ["get", "/users", "User links", list("client_user_link", "UserLink")],
    ["get", "/users/{id}", "One user link", one("client_user_link", "UserLink")],
    ["post", "/users", "Add a user", one("client_user_link", "UserLink"), body("CreateUserLinkBody", createUserLinkBody)],
    [
      "post",
      "/stripe_onboarding",
      "Paid bookings: make and link the shop's own Stripe account (once), and answer Stripe's onboarding link where the shop finishes it",
      other(
        "StripeOnboarding",
        z.object({
          client: Account,
          onboarding_url: z
            .string()
            .meta({ description: "Stripe's onboarding page for the shop's connected account; it lapses after a few minutes: ask again for a new one." }),
        }),
      ),
    ],
  ]),
  ...group("private", `${P}/services`, "Services", [
    ["get", "", "Services", list("service", "Service")],
    ["get", "/appointments", "Appointment services", list("service", "Service")],
    ["get", "/attendances", "Attendance services", list("service", "Service")],
    ["get", "/{id}", "One service", one("service", "Service")],
    ["post", "", "Create a service", one("service", "Service"), body("CreateServiceBody", createServiceBody)],
    ["put", "/{id}", "Update a service", one("service", "Service"), body("UpdateServiceBody", updateServiceBody)],
    ["delete", "/{id}", "Deactivate a service", one("service", "Service")],
    ...slotEntries(""),
  ]),
  ...group("private", `${P}/providers`, "Providers", [
    ["get", "", "Providers (resource–service links)", list("provider", "Provider"), query(listProvidersQuery)],
    ["get", "/{id}", "One provider", one("provider", "Provider")],
    ["post", "", "Link a resource to a service", one("provider", "Provider"), body("CreateProviderBody", createProviderBody)],
    ["delete", "/{id}", "Remove a provider", one("provider", "Provider")],
  ]),
  ...group("private", `${P}/categories`, "Categories", [
    ["get", "", "Categories", list("category", "Category")],
    ["get", "/{id}", "One category", one("category", "Category")],
    ["get", "/{id}/services", "The services of a category", list("service", "Service")],
    ["post", "", "Create a category", one("category", "Category"), body("CreateCategoryBody", createCategoryBody)],
    ["put", "/{id}", "Update a category", one("category", "Category"), body("UpdateCategoryBody", updateCategoryBody)],
    ["delete", "/{id}", "Delete a category", one("category", "Category")],
  ]),
  ...group("private", `${P}/people`, "People", [
    ...bookingLists("/{id}/bookings", "A person's bookings"),
    [
      "post",
      "/perishable_token/send",
      "Send a one-time code by SMS",
      other("PerishableTokenAnswer", z.object({ perishable_token: PerishableToken })),
      body("SendTokenBody", sendTokenBody),
    ],
    ["post", "/perishable_token/verify", "Verify a one-time code", tokenVerified(Person, "TokenVerifiedAnswer"), body("VerifyTokenBody", verifyTokenBody)],
    ["get", "", "Active people", list("person", "Person", { paginated: true }), query(peopleQuery)],
    ["get", "/all", "People, inactive included", list("person", "Person", { paginated: true }), query(peopleQuery)],
    ["get", "/{id}", "One person", one("person", "Person")],
    ["get", "/{id}/children", "A person's children", list("person", "Person", { paginated: true }), query(pageQuery)],
    ["post", "", "Create a person", one("person", "Person"), body("PersonBody", personBody)],
    ["put", "/{id}", "Update a person", one("person", "Person"), body("PersonBody", personBody)],
    ["delete", "/{id}", "Deactivate a person", one("person", "Person")],
    ["put", "/{id}/undelete", "Reactivate a person", one("person", "Person")],
    ["post", "/{id}/merge", "Merge another person into this one", one("person", "Person"), { ...query(mergeQuery), ...body("MergeBody", mergeBody) }],
    [
      "get",
      "/{id}/export",
      "Everything the account holds about a person (GDPR Art. 15 and 20): the person, their bookings in every state, messages with bodies, waitlist places, holds, payments and the web hook deliveries that carried them; 500 rows of each section a page",
      personExport,
      query(exportQuery),
    ],
    [
      "post",
      "/{id}/erase",
      "Erase a person (GDPR Art. 17): personal fields are overwritten everywhere they are stored; bookings stay as anonymous occupants. Erasing an erased person changes nothing and answers already_erased. Sends person.erased",
      personErasure,
    ],
  ]),
  ...group("private", `${P}/resources`, "Resources", [
    ["get", "", "Resources", list("resource", "Resource")],
    ["get", "/{id}", "One resource", one("resource", "Resource")],
    ["post", "", "Create a resource", one("resource", "Resource"), body("CreateResourceBody", createResourceBody)],
    ["put", "/{id}", "Update a resource", one("resource", "Resource"), body("UpdateResourceBody", updateResourceBody)],
    ["delete", "/{id}", "Deactivate a resource", one("resource", "Resource")],
    ["get", "/{id}/opening_hours", "Opening hours per date", list("resource_opening_hours", "ResourceOpeningHours"), query(dateRangeQuery)],
    ["get", "/{id}/exception_dates", "Exception dates", list("resource_exception_date", "ResourceExceptionDate", { paginated: true }), query(exceptionDatesQuery)],
    [
      "post",
      "/{id}/exception_dates",
      "Set or remove several exception dates",
      list("resource_exception_date", "ResourceExceptionDate"),
      body("ExceptionDatesBody", exceptionDatesBody),
    ],
    [
      "put",
      "/{id}/exception_dates",
      "Set or remove several exception dates",
      list("resource_exception_date", "ResourceExceptionDate"),
      body("ExceptionDatesBody", exceptionDatesBody),
    ],
    ["get", "/{id}/exception_dates/{date}", "One exception date", one("resource_exception_date", "ResourceExceptionDate")],
    [
      "post",
      "/{id}/exception_dates/{date}",
      "Set one exception date",
      one("resource_exception_date", "ResourceExceptionDate"),
      body("ExceptionDateBody", exceptionDateBody),
    ],
    [
      "put",
      "/{id}/exception_dates/{date}",
      "Set one exception date",
      one("resource_exception_date", "ResourceExceptionDate"),
      body("ExceptionDateBody", exceptionDateBody),
    ],
    ["delete", "/{id}/exception_dates/{date}", "Remove one exception date", one("resource_exception_date", "ResourceExceptionDate")],
  ]),
  ...group("private", `${P}/slots/holds`, "Slot holds", [
    ["post", "", "Hold seats of a time while a booking is made", holdCreated, body("CreateHoldBody", createHoldBody)],
    ["get", "/{id}", "One slot hold", one("slot_hold", "SlotHold")],
    ["delete", "/{id}", "Release a slot hold at once", one("slot_hold", "SlotHold")],
  ]),
  ...group("private", `${P}/waitlist`, "Waitlist", [
    ["get", "", "The waitlist of a service or an event, in order", list("waitlist_entry", "WaitlistEntry"), query(waitlistQuery)],
    ["post", "", "Join the waitlist of a full time or event", waitlistJoined, body("JoinWaitlistBody", joinWaitlistBody)],
    ["get", "/{id}", "One waitlist entry", one("waitlist_entry", "WaitlistEntry")],
    ["delete", "/{id}", "Remove an entry (an offer it holds is released at once)", one("waitlist_entry", "WaitlistEntry")],
  ]),
  ...group("private", `${P}/bookings/recurring`, "Recurring bookings", [
    [
      "post",
      "",
      "Create a recurring booking collection",
      other("CollectionCreated", z.object({ collection_id: z.string() })),
      body("RecurringBookingBody", recurringBookingBody),
    ],
    ["get", "/{collection_id}", "The collection's bookings", list("booking", "Booking", { paginated: true }), query(collectionQuery)],
    ["get", "/{collection_id}/status", "The collection's progress", one("recurring_collection", "RecurringCollection")],
    [
      "delete",
      "/{collection_id}",
      "Delete the collection's bookings",
      list("booking", "Booking", { paginated: true }),
      { ...query(collectionQuery), ...body("ActionBody", actionBody) },
    ],
  ]),
  ...group("private", `${P}/bookings`, "Bookings", [
    ...bookingLists("", "Bookings"),
    ["get", "/find_by/external_id/{external_id}", "A booking by external id", one("booking", "Booking"), query(showQuery)],
    ["get", "/{id}", "One booking", one("booking", "Booking"), query(showQuery)],
    ["post", "", "Create a booking", one("booking", "Booking"), body("CreateBookingBody", createBookingBody)],
    ["put", "/{id}", "Update a booking", one("booking", "Booking"), body("UpdateBookingBody", updateBookingBody)],
    ...(["verify", "confirm", "decline", "cancel"] as const).map(
      (action): Entry => ["put", `/{id}/${action}`, `${action[0].toUpperCase()}${action.slice(1)} a booking`, one("booking", "Booking"), body("ActionBody", actionBody)],
    ),
    ["put", "/{id}/verify_code", "Verify a booking with its code", one("booking", "Booking"), body("VerifyCodeBody", verifyCodeBody)],
    ["put", "/{id}/status", "Set a booking's free-text status", one("booking", "Booking"), body("StatusBody", statusBody)],
    ["delete", "/{id}", "Delete a booking", one("booking", "Booking"), body("ActionBody", actionBody)],
    [
      "post",
      "/{id}/checkout",
      "The checkout of a booking awaiting payment again: its open session, or a new one for the same booking",
      one("booking", "Booking"),
      body("CheckoutBody", checkoutBody),
    ],
    [
      "post",
      "/{id}/payment",
      "Record a payment taken elsewhere: the booking's own amount, paid; a booking awaiting payment is confirmed if its time is still free",
      one("booking", "Booking"),
      body("RecordPaymentBody", recordPaymentBody),
    ],
  ]),
  ...group("private", `${P}/events/recurring`, "Recurring events", [
    [
      "post",
      "",
      "Create a recurring event collection",
      other("CollectionCreated", z.object({ collection_id: z.string() })),
      body("RecurringEventBody", recurringEventBody),
    ],
    ["get", "/{collection_id}", "The collection's events", list("event", "Event", { paginated: true }), query(collectionQuery)],
    ["get", "/{collection_id}/status", "The collection's progress", one("recurring_collection", "RecurringCollection")],
  ]),
  ...group("private", `${P}/events`, "Events", [
    ["get", "/{id}/bookings", "An event's active bookings", list("booking", "Booking", { paginated: true }), query(listQuery)],
    ["get", "", "Events", list("event", "Event", { paginated: true }), query(eventsQuery)],
    ["get", "/{id}", "One event", one("event", "Event")],
    ["post", "", "Create an event", one("event", "Event"), body("CreateEventBody", createEventBody)],
    ["put", "/{id}", "Update an event", one("event", "Event"), body("UpdateEventBody", updateEventBody)],
    ["delete", "/{id}", "Delete an event", one("event", "Event")],
  ]),
  ...group("private", `${P}/web_hooks`, "Web hooks", [
    ["get", "", "Web hook subscriptions", list("web_hook", "WebHook")],
    ["get", "/{id}", "One subscription", one("web_hook", "WebHook")],
    ["post", "", "Subscribe", one("web_hook", "WebHook"), body("CreateWebHookBody", createWebHookBody)],
    ["put", "/{id}", "Update a subscription", one("web_hook", "WebHook"), body("UpdateWebHookBody", updateWebHookBody)],
    ["delete", "/{id}", "Unsubscribe", one("web_hook", "WebHook")],
    [
      "get",
      "/{id}/deliveries",
      "A subscription's deliveries and their attempts",
      list("webhook_delivery", "WebhookDelivery", { paginated: true }),
      query(deliveriesQuery),
    ],
    ["post", "/{id}/deliveries/{delivery_id}/redeliver", "Deliver again", one("webhook_delivery", "WebhookDelivery")],
  ]),
  ...group("private", `${P}/messages`, "Messages", [
    ["get", "", "Messages sent or refused", list("message", "Message", { paginated: true }), query(listMessagesQuery)],
    [
      "get",
      "/undeliverable",
      "Recipients later messages are not sent to (a hard bounce, a complaint, an unreachable number); each such message is stored failed with the reason",
      list("undeliverable_recipient", "UndeliverableRecipient", { paginated: true }),
      query(listUndeliverableQuery),
    ],
    [
      "delete",
      "/undeliverable/{channel}/{recipient}",
      "Send to a refused recipient again (say, once the visitor has fixed their mailbox): answers what was released; one not refused is a 404",
      one("undeliverable_recipient", "UndeliverableRecipient"),
    ],
    ["get", "/{id}", "One message", one("message", "Message")],
  ]),
  ...group("reference", `${P}/messages`, "Messages", [
    [
      "post",
      "/resend/events",
      "Resend's delivery events (Standard Webhooks signature with RESEND_WEBHOOK_SECRET: svix-id, svix-timestamp, svix-signature; no key): delivered, bounced, complained, suppressed and failed update the message's status; a hard bounce, a complaint or a suppression refuses the address for later messages; anything unsigned, badly signed, stale or about no message here is a 400 and changes nothing",
      deliveryEventApplied("ResendEventApplied"),
      body(
        "ResendEvent",
        z
          .record(z.string(), z.unknown())
          .meta({ description: "A Resend webhook event (`type`, `created_at`, `data` with `email_id` and the `tags` the e-mail was sent with)." }),
      ),
    ],
    [
      "post",
      "/twilio/events",
      "Twilio's SMS status callbacks (X-Twilio-Signature with TWILIO_AUTH_TOKEN over the callback URL, which names account_id and message_id; no key): delivered and undelivered update the message's status; a number Twilio calls unreachable for good (errors 21610, 30004, 30005, 30006) is refused for later messages; anything unsigned or badly signed is a 400 and changes nothing",
      deliveryEventApplied("TwilioEventApplied"),
      body(
        "TwilioStatusCallback",
        z
          .record(z.string(), z.string())
          .meta({ description: "Twilio's status callback parameters (MessageSid, MessageStatus, ErrorCode, To, ...), form-encoded as Twilio posts them." }),
      ),
    ],
  ]),
  ...group("private", `${P}/calendar_feeds`, "Calendar feeds", [
    ["get", "", "The account's calendar feeds (without their URLs)", list("calendar_feed", "CalendarFeed")],
    [
      "post",
      "",
      "Create or rotate the feed of a resource (or, without resource_id, of the account); answers its URL once, the old URL ends at once",
      one("calendar_feed", "CalendarFeed"),
      body("CreateCalendarFeedBody", createCalendarFeedBody),
    ],
    ["delete", "/{id}", "Delete a calendar feed: its URL ends at once", one("calendar_feed", "CalendarFeed")],
  ]),
  ...group("private", `${P}/calendar_subscriptions`, "Calendar subscriptions", [
    [
      "get",
      "",
      "The account's calendar subscriptions (without their addresses), of one resource with resource_id",
      list("calendar_subscription", "CalendarSubscription"),
      query(listCalendarSubscriptionsQuery),
    ],
    [
      "post",
      "",
      "Subscribe a resource to a calendar kept elsewhere (an https or webcal iCalendar address, answered once): its busy times take the resource from the first fetch, queued at once",
      one("calendar_subscription", "CalendarSubscription"),
      body("CreateCalendarSubscriptionBody", createCalendarSubscriptionBody),
    ],
    [
      "get",
      "/conflicts",
      "Bookings made before a busy time arrived that now overlap it (not ended; never changed by a fetch), of one resource with resource_id",
      list("calendar_conflict", "CalendarConflict"),
      query(listCalendarSubscriptionsQuery),
    ],
    ["get", "/{id}", "One subscription and how its fetches stand", one("calendar_subscription", "CalendarSubscription")],
    ["delete", "/{id}", "End a subscription: its busy times free the resource at once", one("calendar_subscription", "CalendarSubscription")],
  ]),
  ...group("private", `${P}/mcp`, "Assistants (MCP)", [
    mcpEntry("the booking site's tools without its public rules, plus bookings, people and the confirm, decline and cancel actions, for the key's account"),
  ]),
  ...group("public", "/mcp", "Assistants (MCP)", [
    mcpEntry("an assistant finds a time and books it for a visitor under the booking site's rules; the booking token opens it again"),
  ]),
  ...group("public", "/calendar", "Calendar feeds", [
    [
      "get",
      "/{file}",
      "A calendar feed (`cal_….ics`, the secret URL): iCalendar with ETag; If-None-Match answers 304",
      other("Calendar", z.string()),
      { media: "text/calendar" },
    ],
    [
      "get",
      "/bookings/{file}",
      "One booking's calendar file (`<id>.ics?signature=…`, the link its messages carry)",
      other("Calendar", z.string()),
      { ...query(bookingFileQuery), media: "text/calendar" },
    ],
  ]),
  ...group("public", "/services", "Booking site", [
    ["get", "", "Services (booking site)", list("service", "PublicService")],
    ["get", "/{id}", "One active service (booking site)", one("service", "PublicService")],
    ...slotEntries("Booking site: "),
  ]),
  ...group("public", "/bookings", "Booking site", [
    [
      "post",
      "",
      "Book under the public rules; answers the visitor's booking token. Attributes only the product or the shop may set are ignored here: person_id, expires_at, reminder_at, paid_at, external_id, gateway_order_number. A service that takes payment answers awaiting_payment with its checkout; a visitor's retry of their own pending booking of the same time answers it again with a new checkout; at most 3 unpaid bookings per visitor address wait at once (429)",
      other(
        "PublicBookingCreated",
        z.object({
          booking: PublicBooking,
          booking_token: z.string().meta({ description: "Opens this one booking (send it as X-Booking-Token); shown only here." }),
        }),
      ),
      body("CreateBookingBody", createBookingBody),
    ],
    ["get", "/{id}", "The visitor's own booking (booking token)", one("booking", "PublicBooking"), { bookingToken: true }],
    [
      "put",
      "/{id}/verify_code",
      "Verify the visitor's booking with the sent code; five wrong codes, then 429 (booking token)",
      one("booking", "PublicBooking"),
      { ...body("SiteVerifyCodeBody", siteVerifyCodeBody), bookingToken: true },
    ],
    ["put", "/{id}/cancel", "Cancel the visitor's booking while the account allows it (booking token)", one("booking", "PublicBooking"), { bookingToken: true }],
    [
      "put",
      "/{id}/move",
      "Move the visitor's booking to another time of its service, or another event of it, in one guarded write: the new time is taken and the old one released together, or nothing changes (booking token; allow_rescheduling, cancellation_period)",
      one("booking", "PublicBooking"),
      { ...body("SiteMoveBody", siteMoveBody), bookingToken: true },
    ],
    ["post", "/{id}/checkout", "Back to the checkout of the visitor's booking awaiting payment (booking token)", one("booking", "PublicBooking"), { bookingToken: true }],
    [
      "get",
      "/{id}/export",
      "What the visitor's booking token opens, as one export: the booking, its messages, holds, waitlist place, payments and the web hook deliveries about it (booking token)",
      visitorExport,
      { ...query(exportQuery), bookingToken: true },
    ],
  ]),
  ...group("reference", `${P}/payments`, "Payments", [
    [
      "post",
      "/stripe/events",
      "Stripe's events (signed with the platform's webhook secret, Stripe-Signature header; no key): a paid checkout confirms its booking, refunds update it; anything unsigned, badly signed, stale or of an unlinked account is a 400 and changes nothing",
      other(
        "PaymentEventApplied",
        z.object({
          received: z.literal(true),
          applied: z
            .enum(["confirmed", "already", "kept", "refunded", "duplicate", "ignored", "checkout_unpaid", "checkout_failed", "checkout_expired", "refund_updated"])
            .meta({
              description:
                "What the event did: a paid checkout `confirmed` its booking, was `kept` by a booking the shop confirmed by hand, or was `refunded` (its seat gone, its booking ended, or a second payment); `duplicate` for an event applied before; `kept` also for a refund whose payment is not known yet (recorded, and applied when the payment's checkout arrives).",
            }),
        }),
      ),
      body("StripeEvent", z.record(z.string(), z.unknown()).meta({ description: "A Stripe Event object, as Stripe sends it." })),
    ],
  ]),
  ...group("public", "/slots/holds", "Booking site", [
    [
      "post",
      "",
      "Hold seats of a time while the visitor fills in the form (when the account enables holds); answers the hold's secret",
      holdCreated,
      body("CreateHoldBody", createHoldBody),
    ],
    ["get", "/{id}", "The visitor's own hold (hold secret)", one("slot_hold", "SlotHold"), { holdSecret: true }],
    ["delete", "/{id}", "Release the visitor's hold at once (hold secret)", one("slot_hold", "SlotHold"), { holdSecret: true }],
  ]),
  ...group("public", "/waitlist", "Booking site", [
    [
      "post",
      "",
      "Join the waitlist of a full time or event (when the account enables it); answers the place's token",
      waitlistJoined,
      body("JoinWaitlistBody", joinWaitlistBody),
    ],
    ["get", "/{id}", "The visitor's own place in line (waitlist token)", one("waitlist_entry", "WaitlistEntry"), { waitlistToken: true }],
    ["delete", "/{id}", "Leave the line, or decline an offer (waitlist token)", one("waitlist_entry", "WaitlistEntry"), { waitlistToken: true }],
    [
      "post",
      "/{id}/accept",
      "Accept the offered seat: books exactly it (waitlist token)",
      other(
        "WaitlistAccepted",
        z.object({
          waitlist_entry: WaitlistEntry,
          booking: PublicBooking,
          booking_token: z.string().meta({ description: "Opens the booking (X-Booking-Token), as POST /bookings answers." }),
        }),
      ),
      { waitlistToken: true },
    ],
  ]),
  ...group("public", "", "Booking page", [
    ["get", "/", "The booking page (HTML; the choice in the query string)", other("Html", z.string()), { html: true }],
    ["get", "/booking-page.js", "The booking page's script", other("Script", z.string()), { media: "text/javascript" }],
    ["get", "/booking-page.css", "The booking page's stylesheet", other("Stylesheet", z.string()), { media: "text/css" }],
    ["get", "/widget.js", 'The embeddable widget: <booking-widget service-id="…">', other("Script", z.string()), { media: "text/javascript" }],
  ]),
  ...group("public", "/people/perishable_token", "Booking site", [
    [
      "post",
      "/send",
      "Send a one-time code by SMS (booking site)",
      other("PerishableTokenAnswer", z.object({ perishable_token: PerishableToken })),
      body("SendTokenBody", sendTokenBody),
    ],
    ["post", "/verify", "Verify a one-time code (booking site)", tokenVerified(PublicPerson, "PublicTokenVerifiedAnswer"), body("VerifyTokenBody", verifyTokenBody)],
  ]),
  ...group("operator", "/admin/v1/accounts", "Operator", [
    ["post", "", "Create an account (tenant)", accountWithKey, body("CreateAccountBody", createAccountBody)],
    ["get", "", "Accounts", list("account", "OperatorAccount")],
    [
      "post",
      "/{id}/api_key",
      "Rotate the account's API key",
      other(
        "ApiKeyAnswer",
        z.object({
          api_key: z.string(),
          previous_key_stops_within_seconds: z.number().int().meta({
            description: "The old key stops at once on the isolate that answered and within this many seconds on every other (accounts are cached per isolate).",
          }),
        }),
      ),
    ],
    ["put", "/{id}", "Update operator-only fields", one("account", "OperatorAccount"), body("OperatorUpdateBody", operatorUpdateBody)],
    [
      "post",
      "/{id}/move",
      "Move a frozen account's data to another shard",
      other(
        "AccountMoved",
        z.object({
          account: OperatorAccount,
          moved: z.object({ from: z.string(), to: z.string(), rows: z.record(z.string(), z.number().int()).meta({ description: "Rows copied, by table." }) }),
        }),
      ),
      body("MoveAccountBody", moveAccountBody),
    ],
    [
      "delete",
      "/{id}",
      "Close the account: deleted after the grace period, restorable until then",
      other(
        "AccountClosed",
        z.object({
          account: OperatorAccount,
          previous_access_stops_within_seconds: z.number().int().meta({
            description: "Its keys and booking site stop at once on the isolate that answered and within this many seconds on every other.",
          }),
        }),
      ),
    ],
    ["post", "/{id}/restore", "Open a closed account again, before its deletion date", one("account", "OperatorAccount")],
    [
      "get",
      "/{id}/export",
      "Every row of the account, as JSON lines that the import restores",
      other(
        "AccountExport",
        z.string().meta({
          description:
            'JSON lines: a header (`format`, `version`, `account_id`, `shard`, `migrations`, `exported_at`), then one `{"table", "row"}` per row with the values as stored (the directory\'s rows first), then `{"end": true, "rows": {table: count}}`. docs/decisions/recovery.md.',
        }),
      ),
      { media: "application/x-ndjson" },
    ],
    [
      "post",
      "/import",
      "Restore an account from its export into this deployment",
      other(
        "AccountImported",
        z.object({
          account: OperatorAccount,
          imported: z.object({ shard: z.string(), rows: z.record(z.string(), z.number().int()).meta({ description: "Rows written, by table." }) }),
        }),
      ),
      {
        query: importAccountQuery,
        upload: { media: "application/x-ndjson", description: "The account's export as GET /admin/v1/accounts/{id}/export answered it (at most 96 MiB)." },
      },
    ],
  ]),
];
