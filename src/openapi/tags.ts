// The document's tags, in the order a reader meets them, each with the line the reference page
// shows above its operations. An operation can only name a tag listed here (the Tag type).
export const TAGS = {
  Reference: "This document, its reference page and the health check; no key.",
  Account: "The caller's account: its settings, the secret web hook deliveries are signed with, the public holidays of its country and its users.",
  Services: "What can be booked: appointment services (slots on resources) and attendance services (seats on events), with their free slots and dates.",
  Providers: "Links between resources and services: which resources perform a service.",
  Categories: "Groups of services.",
  People: "The people who book: contact details, children, merging duplicates, their bookings, and one-time codes by SMS.",
  Resources: "Who or what is booked (a person, a room, a machine): opening hours, and exception dates that close or change a day.",
  "Slot holds":
    "Seats of a time held for a few minutes while a booking is made: counted as taken everywhere, lapsing by time, released early, or taken over by the booking created with the hold's secret.",
  Waitlist: "Lines of people waiting for a full time or event: the first in line is offered a freed seat, held for them for a while, and books it by accepting.",
  "Recurring bookings": "Series of bookings made from one recurrence rule in the background, kept together under a `collection_id`.",
  Bookings: "Bookings of a service on a resource or an event: the listings, and the states they move through (verify, confirm, decline, cancel).",
  "Recurring events": "Series of events made from one recurrence rule in the background, kept together under a `collection_id`.",
  Events: "Dated sessions of an attendance service with a number of seats, and their bookings.",
  "Web hooks": "Subscriptions that receive the events under Webhook payloads, and the deliveries made to them.",
  "Calendar feeds":
    "Secret iCalendar subscription URLs, one per resource and one for the whole account, that calendar apps poll; the feeds themselves are served on the booking site (`/calendar/{file}`).",
  "Calendar subscriptions":
    "Calendars a resource keeps elsewhere (Google, Outlook, iCloud, another booking system: an iCalendar address), fetched in the background every 15 minutes; their busy times take the resource, so those times are neither offered nor booked.",
  Messages: "The e-mails and SMS the account sent, or refused to send.",
  "Booking site":
    "The account's public booking site on `<subdomain>.<root domain>`, without a key: active services and their slots, booking (the answer's booking token opens that one booking), one-time codes.",
  "Booking page": "The booking site's HTML page, its script and stylesheet, and the embeddable widget.",
  "Assistants (MCP)":
    "The Model Context Protocol endpoint an AI assistant books through: JSON-RPC 2.0 over Streamable HTTP, stateless, answered as JSON. `tools/list` answers each tool with the JSON Schema of its input and output; the booking site's tools book under its public rules, the private API's act for the key.",
  Payments: "Paid bookings' provider events: Stripe calls this with each checkout and refund event of a shop's connected account (docs/decisions/payments.md).",
  Operator: "The operator API (`/admin/v1`, `ADMIN_TOKEN`): creates accounts, rotates their keys, moves them between shards.",
  "Webhook payloads": "What a subscription's URL receives for each event, signed with the account's web hook secret.",
} as const;

export type Tag = keyof typeof TAGS;
