// The whole private route table, walked with a second tenant's key and the first tenant's ids:
// 404 on every id of the owner, 400 on every reference to one, nothing of the owner's in any
// answer, and not one owner row changed. A mounted route without an entry here fails the suite.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, publicSite, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { settledMessagesOf, uniquePhone } from "../support/messages";
import { mcpClient } from "../support/mcp";
import { dbSnapshot, mountedRoutes, settledCollection } from "../support/security";
import { drive, eventMessage, receiver } from "../support/webhooks";
import { eventually } from "../support/queues";

/** Written into every owner object's text, so any leak shows in an answer's raw text. */
const MARK = "OWNERMARK";
const DATE = "2030-01-07";

let owner: Client;
let intruder: Client;
let ownerId: number;
let o: Record<string, any>;
let mine: Record<string, number>;

beforeAll(async () => {
  const first = await newAccount({ name: `${MARK} clinic` });
  owner = first.api;
  ownerId = first.account.id;
  intruder = (await newAccount()).api;

  const make = catalogue(owner);
  const resource = await make.resource({ title: `${MARK} room` });
  const service = await make.service({ title: `${MARK} cut` });
  const attendance = await make.service({ title: `${MARK} class`, booking_type: "attendance" });
  const provider = await make.provider(resource.id, service.id);
  const person = await make.person({ name: `${MARK} Ann`, email: "ownermark@example.com", phone_number: uniquePhone() });
  const otherPerson = await make.person({ name: `${MARK} Bob` });
  const child = await make.person({ name: `${MARK} Kid`, parent_id: person.id });
  const category = (await must(owner.post("/categories", { category: { title: `${MARK} cat`, service_id_list: [service.id] } }))).category;
  const userLink = (await must(owner.post("/client/users", { user: { name: `${MARK} staff`, email: "staff@ownermark.example" }, role: "staff" }))).client_user_link;
  const hookTarget = receiver();
  const webHook = (await must(owner.post("/web_hooks", { web_hook: { target_url: hookTarget.url, event: "booking.created" } }))).web_hook;
  await must(owner.put(`/resources/${resource.id}/exception_dates/${DATE}`, { resource_exception_date: { opening_hours: ["10:00", "12:00"] } }));
  const event = await make.event({
    resourceId: resource.id,
    serviceId: attendance.id,
    capacity: 5,
    starts: "2030-01-08 10:00",
    ends: "2030-01-08 11:00",
    title: `${MARK} yoga`,
  });
  const booking = await make.booking({
    resource_id: resource.id,
    service_id: service.id,
    person_id: person.id,
    booked_from: "2030-01-09 10:00",
    booked_to: "2030-01-09 11:00",
    title: `${MARK} booking`,
    external_id: `${MARK}-ext`,
  });
  const eventBooking = await make.booking({ event_id: event, person_id: person.id, title: `${MARK} seat` });
  const bookingCollection = (
    await must(
      owner.post("/bookings/recurring", {
        booking: { resource_id: resource.id, booked_from: "2030-03-01 10:00", booked_to: "2030-03-01 11:00", title: `${MARK} weekly` },
        recurring: { rrule: "FREQ=WEEKLY;COUNT=2" },
      }),
    )
  ).collection_id;
  const eventCollection = (
    await must(
      owner.post("/events/recurring", {
        event: { resource_id: resource.id, service_id: attendance.id, capacity: 2, starts_at: "2030-04-01 10:00", ends_at: "2030-04-01 11:00", title: `${MARK} series` },
        recurrence: { rrule: "FREQ=DAILY;COUNT=2" },
      }),
    )
  ).collection_id;
  await settledCollection(owner, "bookings", bookingCollection);
  await settledCollection(owner, "events", eventCollection);
  await drive([eventMessage(ownerId, "booking.created", booking.id)]);
  const [delivery] = (await must(owner.get(`/web_hooks/${webHook.id}/deliveries`))).map((e: any) => e.webhook_delivery);
  await must(owner.post("/people/perishable_token/send", { person: { phone_number: person.phone_number } }));
  const [message] = await settledMessagesOf(owner, "?kind=token");
  // A recipient the owner refuses (as a provider's bounce would make it): another account cannot release it.
  await env.DB.prepare("INSERT INTO undeliverable_recipients (account_id, channel, recipient, reason, created_at) VALUES (?, 'sms', ?, 'undelivered', ?)")
    .bind(ownerId, message.recipient, Date.now())
    .run();
  // A full time of the owner's with someone waiting for it (the 2030-01-09 10:00 booking fills it).
  const waiting = await must(
    owner.post("/waitlist", {
      waitlist_entry: {
        service_id: service.id,
        resource_id: resource.id,
        booked_from: "2030-01-09 10:00",
        booked_to: "2030-01-09 11:00",
        person_attributes: { name: `${MARK} Waiter` },
      },
    }),
  );
  const calendarFeed = (await must(owner.post("/calendar_feeds", { calendar_feed: { resource_id: resource.id } }))).calendar_feed;
  const calendarSubscription = (
    await must(owner.post("/calendar_subscriptions", { calendar_subscription: { resource_id: resource.id, url: `${env.TEST_RECEIVER}/calendars/${MARK}` } }))
  ).calendar_subscription;
  // Its first fetch, queued by the create, settles before the snapshot the sweep compares against.
  await eventually(
    () => must(owner.get(`/calendar_subscriptions/${calendarSubscription.id}`)),
    (b) => b.calendar_subscription.last_fetched_at !== null,
  );
  const held = await must(owner.post("/slots/holds", { slot_hold: { service_id: service.id, booked_from: "2030-01-09 12:00", booked_to: "2030-01-09 13:00" } }));

  o = {
    resource: resource.id,
    service: service.id,
    attendance: attendance.id,
    provider: provider.id,
    person: person.id,
    personPhone: person.phone_number,
    otherPerson: otherPerson.id,
    child: child.id,
    category: category.id,
    userLink: userLink.id,
    webHook: webHook.id,
    delivery: delivery.id,
    event,
    booking: booking.id,
    eventBooking: eventBooking.id,
    bookingCollection,
    eventCollection,
    message: message.id,
    messageRecipient: message.recipient,
    hold: held.slot_hold.id,
    holdSecret: held.hold_secret,
    waitlistEntry: waiting.waitlist_entry.id,
    calendarFeed: calendarFeed.id,
    calendarSubscription: calendarSubscription.id,
  };

  const own = catalogue(intruder);
  const ownResource = await own.resource({ title: "Mine" });
  const ownService = await own.service({ title: "Mine" });
  const ownAttendance = await own.service({ title: "Mine", booking_type: "attendance" });
  const ownPerson = await own.person({ name: "Mine" });
  mine = {
    resource: ownResource.id,
    service: ownService.id,
    attendance: ownAttendance.id,
    person: ownPerson.id,
    booking: (await own.booking({ resource_id: ownResource.id, booked_from: "2030-01-10 10:00", booked_to: "2030-01-10 11:00" })).id,
    event: await own.event({ resourceId: ownResource.id, serviceId: ownAttendance.id, capacity: 2, starts: "2030-01-11 10:00", ends: "2030-01-11 11:00" }),
    category: (await must(intruder.post("/categories", { category: { title: "Mine" } }))).category.id,
    webHook: (await must(intruder.post("/web_hooks", { web_hook: { target_url: receiver().url, event: "person.*", active: false } }))).web_hook.id,
  };
});

/** What the intruder sends, and what it must get: 404 for the owner's ids, 400 for references to them, 200 for its own. */
type Probe = [method: string, path: string, body: unknown, expected: 200 | 400 | 404, headers?: Record<string, string>];
const LISTINGS = ["all", "recent", "unconfirmed", "upcoming", "visible"];
const slotsQuery = `?from=${DATE}&to=${DATE}`;
const flags = { cancellation_send_email: false };
const MCP_HEADERS = { accept: "application/json, text/event-stream" };
/** One MCP tool call as its JSON-RPC request; its refusal is a tool result, checked tool by tool below. */
const toolCall = (name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

/** One entry per mounted route pattern: every pattern must appear here, and only those. */
function sweep(): Record<string, Probe[]> {
  const window = { booked_from: "2030-01-12 10:00", booked_to: "2030-01-12 11:00" };
  const ownBooking = { ...window, resource_id: mine.resource };
  const ownEvent = { resource_id: mine.resource, service_id: mine.attendance, capacity: 2, starts_at: "2030-01-12 10:00", ends_at: "2030-01-12 11:00" };
  const table: Record<string, Probe[]> = {
    "GET /bookings": [
      ["GET", "/bookings", null, 200],
      ...["resource_id", "person_id", "service_id", "event_id"].map((k): Probe => ["GET", `/bookings?${k}=${o[k.replace("_id", "")]}`, null, 200]),
      ["GET", `/bookings?external_id=${MARK}-ext`, null, 200],
      ["GET", `/bookings?collection_id=${o.bookingCollection}`, null, 200],
    ],
    "GET /bookings/:id": [
      ["GET", `/bookings/${o.booking}`, null, 404],
      ["GET", `/bookings/${o.booking}?extended=true`, null, 404],
    ],
    "GET /bookings/find_by/external_id/:external_id": [["GET", `/bookings/find_by/external_id/${MARK}-ext`, null, 404]],
    "POST /bookings": [
      ["POST", "/bookings", { booking: { ...window, resource_id: o.resource } }, 400],
      ["POST", "/bookings", { booking: { ...ownBooking, person_id: o.person } }, 400],
      ["POST", "/bookings", { booking: { ...ownBooking, service_id: o.service } }, 400],
      ["POST", "/bookings", { booking: { event_id: o.event, person_attributes: { name: "x" } } }, 400],
      ["POST", "/bookings", { booking: { ...window, service_id: o.service } }, 400],
    ],
    "PUT /bookings/:id": [
      ["PUT", `/bookings/${o.booking}`, { booking: { title: "Hijacked" } }, 404],
      ["PUT", `/bookings/${mine.booking}`, { booking: { resource_id: o.resource } }, 400],
      ["PUT", `/bookings/${mine.booking}`, { booking: { person_id: o.person } }, 400],
    ],
    "DELETE /bookings/:id": [["DELETE", `/bookings/${o.booking}`, flags, 404]],
    "PUT /bookings/:id/status": [["PUT", `/bookings/${o.booking}/status`, { status: "hijacked" }, 404]],
    "PUT /bookings/:id/verify_code": [["PUT", `/bookings/${o.booking}/verify_code`, { verification_code: "12345" }, 404]],
    "POST /bookings/:id/checkout": [["POST", `/bookings/${o.booking}/checkout`, {}, 404]],
    // The intruder's own account is linked (payments not configured for it, so 503 or its own link): never the owner's.
    "POST /client/stripe_onboarding": [["POST", "/client/stripe_onboarding", {}, 200]],
    "POST /bookings/:id/payment": [["POST", `/bookings/${o.booking}/payment`, { payment: { reference: "hijacked" } }, 404]],
    // Signed by Stripe, not keyed: an unsigned event naming the owner's booking is refused (payments.test.ts covers signed foreign ones).
    "POST /payments/stripe/events": [
      ["POST", "/payments/stripe/events", { id: "evt_x", type: "checkout.session.completed", data: { object: { client_reference_id: String(o.booking) } } }, 400],
    ],
    // Signed by the providers, not keyed: unsigned events naming the owner's message are refused.
    "POST /messages/resend/events": [
      ["POST", "/messages/resend/events", { type: "email.bounced", data: { email_id: "x", tags: { account_id: "1", message_id: String(o.message) } } }, 400],
    ],
    "POST /messages/twilio/events": [["POST", "/messages/twilio/events", { MessageSid: "SMx", MessageStatus: "undelivered" }, 400]],
    "GET /messages/undeliverable": [["GET", "/messages/undeliverable", null, 200]],
    "DELETE /messages/undeliverable/:channel/:recipient": [["DELETE", `/messages/undeliverable/sms/${encodeURIComponent(o.messageRecipient)}`, null, 404]],
    "POST /bookings/recurring": [["POST", "/bookings/recurring", { booking: { ...window, resource_id: o.resource }, recurring: { rrule: "FREQ=DAILY;COUNT=2" } }, 400]],
    "GET /bookings/recurring/:collection_id": [
      ["GET", `/bookings/recurring/${o.bookingCollection}`, null, 404],
      ["GET", `/bookings/recurring/${o.eventCollection}`, null, 404],
    ],
    "GET /bookings/recurring/:collection_id/status": [["GET", `/bookings/recurring/${o.bookingCollection}/status`, null, 404]],
    "DELETE /bookings/recurring/:collection_id": [["DELETE", `/bookings/recurring/${o.bookingCollection}`, flags, 404]],
    "GET /people": [
      ["GET", "/people", null, 200],
      ["GET", `/people?search=${MARK}`, null, 200],
      ["GET", "/people?email=ownermark@example.com", null, 200],
      ["GET", `/people?phone_number=${encodeURIComponent(o.personPhone)}`, null, 200],
    ],
    "GET /people/all": [["GET", "/people/all", null, 200]],
    "GET /people/:id": [["GET", `/people/${o.person}`, null, 404]],
    "POST /people": [["POST", "/people", { person: { name: "Kid", parent_id: o.person } }, 400]],
    "PUT /people/:id": [
      ["PUT", `/people/${o.person}`, { person: { name: "Hijacked" } }, 404],
      ["PUT", `/people/${mine.person}`, { person: { parent_id: o.person } }, 400],
    ],
    "DELETE /people/:id": [["DELETE", `/people/${o.person}`, null, 404]],
    "PUT /people/:id/undelete": [["PUT", `/people/${o.person}/undelete`, null, 404]],
    "GET /people/:id/children": [["GET", `/people/${o.person}/children`, null, 404]],
    "GET /people/:id/export": [["GET", `/people/${o.person}/export`, null, 404]],
    "POST /people/:id/erase": [["POST", `/people/${o.person}/erase`, null, 404]],
    "POST /people/:id/merge": [
      ["POST", `/people/${o.person}/merge?merge_person_id=${o.otherPerson}`, {}, 404],
      ["POST", `/people/${mine.person}/merge?merge_person_id=${o.person}`, {}, 400],
    ],
    "GET /people/:id/bookings": [["GET", `/people/${o.person}/bookings`, null, 404]],
    "POST /people/perishable_token/send": [["POST", "/people/perishable_token/send", { person: { phone_number: o.personPhone } }, 200]],
    "POST /people/perishable_token/verify": [["POST", "/people/perishable_token/verify", { perishable_token: "12345", person: { phone_number: o.personPhone } }, 400]],
    "GET /services": [["GET", "/services", null, 200]],
    "GET /services/appointments": [["GET", "/services/appointments", null, 200]],
    "GET /services/attendances": [["GET", "/services/attendances", null, 200]],
    "GET /services/:id": [["GET", `/services/${o.service}`, null, 404]],
    "POST /services": [["POST", "/services", { service: { title: "Mine too" } }, 200]],
    "PUT /services/:id": [["PUT", `/services/${o.service}`, { service: { title: "Hijacked" } }, 404]],
    "DELETE /services/:id": [["DELETE", `/services/${o.service}`, null, 404]],
    "GET /services/:id/slots": [
      ["GET", `/services/${o.service}/slots${slotsQuery}`, null, 404],
      ["GET", `/services/${o.attendance}/slots${slotsQuery}`, null, 404],
      ["GET", `/services/${mine.service}/slots${slotsQuery}&selected_resources[]=${o.resource}`, null, 200],
    ],
    "GET /services/:id/next_available_date": [["GET", `/services/${o.service}/next_available_date?from=${DATE}`, null, 404]],
    "GET /services/:id/available_dates": [["GET", `/services/${o.service}/available_dates?from=${DATE}`, null, 404]],
    "POST /slots/holds": [
      ["POST", "/slots/holds", { slot_hold: { service_id: o.service, ...window } }, 400],
      ["POST", "/slots/holds", { slot_hold: { event_id: o.event } }, 400],
      ["POST", "/slots/holds", { slot_hold: { service_id: mine.service, resource_id: o.resource, ...window } }, 400],
    ],
    "GET /slots/holds/:id": [["GET", `/slots/holds/${o.hold}`, null, 404]],
    "GET /waitlist": [["GET", `/waitlist?service_id=${o.service}`, null, 200]],
    "POST /waitlist": [
      ["POST", "/waitlist", { waitlist_entry: { service_id: o.service, ...window, person_attributes: { name: "x" } } }, 400],
      ["POST", "/waitlist", { waitlist_entry: { event_id: o.event, person_attributes: { name: "x" } } }, 400],
    ],
    "GET /waitlist/:id": [["GET", `/waitlist/${o.waitlistEntry}`, null, 404]],
    "DELETE /waitlist/:id": [["DELETE", `/waitlist/${o.waitlistEntry}`, null, 404]],
    "DELETE /slots/holds/:id": [["DELETE", `/slots/holds/${o.hold}`, null, 404]],
    "GET /providers": [
      ["GET", "/providers", null, 200],
      ["GET", `/providers?service_id=${o.service}&resource_id=${o.resource}`, null, 200],
    ],
    "GET /providers/:id": [["GET", `/providers/${o.provider}`, null, 404]],
    "POST /providers": [
      ["POST", "/providers", { provider: { resource_id: o.resource, service_id: mine.service } }, 400],
      ["POST", "/providers", { provider: { resource_id: mine.resource, service_id: o.service } }, 400],
    ],
    "DELETE /providers/:id": [["DELETE", `/providers/${o.provider}`, null, 404]],
    "GET /categories": [["GET", "/categories", null, 200]],
    "GET /categories/:id": [["GET", `/categories/${o.category}`, null, 404]],
    "GET /categories/:id/services": [["GET", `/categories/${o.category}/services`, null, 404]],
    "POST /categories": [
      ["POST", "/categories", { category: { title: "x", service_id_list: [o.service] } }, 400],
      ["POST", "/categories", { category: { title: "x", parent_id: o.category } }, 400],
    ],
    "PUT /categories/:id": [
      ["PUT", `/categories/${o.category}`, { category: { title: "Hijacked" } }, 404],
      ["PUT", `/categories/${mine.category}`, { category: { parent_id: o.category } }, 400],
      ["PUT", `/categories/${mine.category}`, { category: { service_id_list: [o.service] } }, 400],
    ],
    "DELETE /categories/:id": [["DELETE", `/categories/${o.category}`, null, 404]],
    "GET /resources": [["GET", "/resources", null, 200]],
    "GET /resources/:id": [["GET", `/resources/${o.resource}`, null, 404]],
    "POST /resources": [["POST", "/resources", { resource: { title: "Mine too" } }, 200]],
    "PUT /resources/:id": [["PUT", `/resources/${o.resource}`, { resource: { title: "Hijacked" } }, 404]],
    "DELETE /resources/:id": [["DELETE", `/resources/${o.resource}`, null, 404]],
    "GET /resources/:id/opening_hours": [["GET", `/resources/${o.resource}/opening_hours?from=${DATE}`, null, 404]],
    "GET /resources/:id/exception_dates": [["GET", `/resources/${o.resource}/exception_dates`, null, 404]],
    "GET /resources/:id/exception_dates/:date": [["GET", `/resources/${o.resource}/exception_dates/${DATE}`, null, 404]],
    "DELETE /resources/:id/exception_dates/:date": [["DELETE", `/resources/${o.resource}/exception_dates/${DATE}`, null, 404]],
    "GET /events": [
      ["GET", "/events", null, 200],
      ["GET", `/events?resource_id=${o.resource}&service_id=${o.attendance}`, null, 200],
    ],
    "GET /events/:id": [["GET", `/events/${o.event}`, null, 404]],
    "POST /events": [
      ["POST", "/events", { event: { ...ownEvent, resource_id: o.resource } }, 400],
      ["POST", "/events", { event: { ...ownEvent, service_id: o.attendance } }, 400],
    ],
    "PUT /events/:id": [
      ["PUT", `/events/${o.event}`, { event: { title: "Hijacked" } }, 404],
      ["PUT", `/events/${mine.event}`, { event: { resource_id: o.resource } }, 400],
    ],
    "DELETE /events/:id": [["DELETE", `/events/${o.event}`, null, 404]],
    "GET /events/:id/bookings": [["GET", `/events/${o.event}/bookings`, null, 404]],
    "POST /events/recurring": [["POST", "/events/recurring", { event: { ...ownEvent, resource_id: o.resource }, recurrence: { rrule: "FREQ=DAILY;COUNT=2" } }, 400]],
    "GET /events/recurring/:collection_id": [
      ["GET", `/events/recurring/${o.eventCollection}`, null, 404],
      ["GET", `/events/recurring/${o.bookingCollection}`, null, 404],
    ],
    "GET /events/recurring/:collection_id/status": [["GET", `/events/recurring/${o.eventCollection}/status`, null, 404]],
    "GET /web_hooks": [["GET", "/web_hooks", null, 200]],
    "GET /web_hooks/:id": [["GET", `/web_hooks/${o.webHook}`, null, 404]],
    "POST /web_hooks": [["POST", "/web_hooks", { web_hook: { target_url: receiver().url, event: "event.*", active: false } }, 200]],
    "PUT /web_hooks/:id": [["PUT", `/web_hooks/${o.webHook}`, { web_hook: { target_url: receiver().url } }, 404]],
    "DELETE /web_hooks/:id": [["DELETE", `/web_hooks/${o.webHook}`, null, 404]],
    "GET /web_hooks/:id/deliveries": [["GET", `/web_hooks/${o.webHook}/deliveries`, null, 404]],
    "POST /web_hooks/:id/deliveries/:delivery_id/redeliver": [
      ["POST", `/web_hooks/${o.webHook}/deliveries/${o.delivery}/redeliver`, null, 404],
      ["POST", `/web_hooks/${mine.webHook}/deliveries/${o.delivery}/redeliver`, null, 404],
    ],
    "GET /messages": [
      ["GET", "/messages", null, 200],
      ["GET", `/messages?booking_id=${o.booking}`, null, 200],
    ],
    "GET /messages/:id": [["GET", `/messages/${o.message}`, null, 404]],
    // A feed of the owner's resource is a 404; the intruder's own resource and account feeds are its own.
    "GET /calendar_feeds": [["GET", "/calendar_feeds", null, 200]],
    "POST /calendar_feeds": [
      ["POST", "/calendar_feeds", { calendar_feed: { resource_id: o.resource } }, 404],
      ["POST", "/calendar_feeds", { calendar_feed: { resource_id: mine.resource } }, 200],
      ["POST", "/calendar_feeds", {}, 200],
    ],
    "DELETE /calendar_feeds/:id": [["DELETE", `/calendar_feeds/${o.calendarFeed}`, null, 404]],
    // The owner's subscription is a 404; subscribing the owner's resource too; listing by it finds nothing.
    "GET /calendar_subscriptions": [
      ["GET", "/calendar_subscriptions", null, 200],
      ["GET", `/calendar_subscriptions?resource_id=${o.resource}`, null, 200],
    ],
    "POST /calendar_subscriptions": [
      ["POST", "/calendar_subscriptions", { calendar_subscription: { resource_id: o.resource, url: `${env.TEST_RECEIVER}/calendars/x` } }, 404],
      ["POST", "/calendar_subscriptions", { calendar_subscription: { resource_id: mine.resource, url: `${env.TEST_RECEIVER}/calendars/x` } }, 200],
    ],
    "GET /calendar_subscriptions/conflicts": [
      ["GET", "/calendar_subscriptions/conflicts", null, 200],
      ["GET", `/calendar_subscriptions/conflicts?resource_id=${o.resource}`, null, 200],
    ],
    "GET /calendar_subscriptions/:id": [["GET", `/calendar_subscriptions/${o.calendarSubscription}`, null, 404]],
    "DELETE /calendar_subscriptions/:id": [["DELETE", `/calendar_subscriptions/${o.calendarSubscription}`, null, 404]],
    "POST /mcp": [
      ["POST", "/mcp", toolCall("get_booking", { booking_id: o.booking }), 200, MCP_HEADERS],
      ["POST", "/mcp", toolCall("list_bookings", { person_id: o.person }), 200, MCP_HEADERS],
    ],
    "GET /client": [["GET", "/client", null, 200]],
    "PUT /client": [["PUT", "/client", { client: { name: "Renamed", id: ownerId, account_id: ownerId } }, 200]],
    "GET /client/holidays": [["GET", "/client/holidays", null, 200]],
    // The caller's own secret: never another account's, and rotating it leaves the owner's alone.
    "GET /client/webhook_secret": [["GET", "/client/webhook_secret", null, 200]],
    "POST /client/webhook_secret/rotate": [["POST", "/client/webhook_secret/rotate", null, 200]],
    "GET /client/users": [["GET", "/client/users", null, 200]],
    "GET /client/users/:id": [["GET", `/client/users/${o.userLink}`, null, 404]],
    "POST /client/users": [["POST", "/client/users", { user: { name: "Staff", email: "staff@ownermark.example" }, role: "admin" }, 200]],
    // The API's description and reference page: the same for every caller, no account data.
    "GET /openapi": [["GET", "/openapi.json", null, 200]],
    "GET /docs": [["GET", "/docs", null, 200]],
    "GET /docs.css": [["GET", "/docs.css", null, 200]],
  };
  for (const listing of LISTINGS) {
    table[`GET /bookings/${listing}`] = [["GET", `/bookings/${listing}`, null, 200]];
    table[`GET /people/:id/bookings/${listing}`] = [["GET", `/people/${o.person}/bookings/${listing}`, null, 404]];
  }
  for (const action of ["verify", "confirm", "decline", "cancel"]) {
    table[`PUT /bookings/:id/${action}`] = [
      ["PUT", `/bookings/${o.booking}/${action}`, flags, 404],
      ["PUT", `/bookings/${o.eventBooking}/${action}`, flags, 404],
    ];
  }
  for (const method of ["POST", "PUT"]) {
    table[`${method} /resources/:id/exception_dates`] = [
      [method, `/resources/${o.resource}/exception_dates`, { resource_exception_dates: [{ exception_date: DATE, _destroy: true }] }, 404],
    ];
    table[`${method} /resources/:id/exception_dates/:date`] = [
      [method, `/resources/${o.resource}/exception_dates/${DATE}`, { resource_exception_date: { opening_hours: null } }, 404],
    ];
  }
  return table;
}

/** The owner's rows in every table: the sweep must leave each exactly as it was. */
async function ownerRows() {
  const all = await dbSnapshot();
  return Object.fromEntries(
    Object.entries(all).map(([table, rows]) => [
      table,
      (rows as Record<string, unknown>[]).filter((r) => (table === "accounts" ? r.id === ownerId : r.account_id === ownerId)),
    ]),
  );
}

describe("another tenant's key on every private MCP tool", () => {
  it("refuses the owner's ids as the REST routes do (404, or 400 for a reference), finds none of the owner's in a list, and changes nothing", async () => {
    const before = await ownerRows();
    const mcp = await mcpClient("http://api.test/api/v1/mcp", { authorization: `Bearer ${intruder.apiKey}` });
    const window = { booked_from: "2030-01-12 10:00", booked_to: "2030-01-12 11:00" };
    const refusals: [tool: string, args: Record<string, unknown>, status: 400 | 404][] = [
      ["get_booking", { booking_id: o.booking }, 404],
      ["get_booking", { booking_id: o.eventBooking }, 404],
      ["verify_booking", { booking_id: o.booking, verification_code: "12345" }, 404],
      ["confirm_booking", { booking_id: o.booking }, 404],
      ["decline_booking", { booking_id: o.eventBooking }, 404],
      ["cancel_booking", { booking_id: o.booking }, 404],
      ["get_person", { person_id: o.person }, 404],
      ["find_times", { service_id: o.service, from: DATE }, 404],
      ["find_available_dates", { service_id: o.service, from: DATE }, 404],
      ["hold_time", { service_id: o.service, ...window }, 400],
      ["release_hold", { hold_id: o.hold }, 404],
      ["book", { booking: { service_id: o.service, ...window, person_attributes: { name: "x" } } }, 400],
      ["book", { booking: { resource_id: mine.resource, person_id: o.person, ...window } }, 400],
      ["book", { booking: { event_id: o.event, person_attributes: { name: "x" } } }, 400],
    ];
    for (const [tool, args, status] of refusals) {
      const refused = await mcp.refusal(tool, args);
      expect({ tool, status: refused.error.status }, refused.text).toEqual({ tool, status });
      expect(refused.text, tool).not.toContain(MARK);
    }
    expect((await mcp.call("list_bookings", { person_id: o.person })).bookings).toEqual([]);
    expect((await mcp.call("list_bookings", { listing: "all", external_id: `${MARK}-ext` })).bookings).toEqual([]);
    expect((await mcp.call("list_people", { search: MARK })).people).toEqual([]);
    expect(JSON.stringify(await mcp.call("list_services"))).not.toContain(MARK);
    expect(await ownerRows()).toEqual(before);
  });
});

describe("the sweep table", () => {
  it("covers every route mounted on the private API, and names no route that is not mounted", () => {
    const mounted = mountedRoutes("/api/v1")
      .map((r) => `${r.method} ${r.path.slice("/api/v1".length)}`)
      .sort();
    const covered = Object.keys(sweep()).sort();
    expect({ missing: mounted.filter((r) => !covered.includes(r)), stale: covered.filter((r) => !mounted.includes(r)) }).toEqual({ missing: [], stale: [] });
  });
});

describe("another tenant's key on every private route", () => {
  it("answers 404 for the owner's ids, 400 for references to them, never shows the owner's data, and changes none of it", async () => {
    const before = await ownerRows();
    for (const [route, probes] of Object.entries(sweep())) {
      for (const [method, path, body, expected, headers] of probes) {
        const res = method === "GET" ? await intruder.get(path) : await intruder[method.toLowerCase() as "post"](path, body ?? undefined, headers);
        const context = `${route}: ${method} ${path}`;
        expect({ context, status: res.status }, JSON.stringify(res.body)).toEqual({ context, status: expected });
        if (expected === 404) expect(res.body, context).toEqual({ error: expect.any(String) });
        expect(JSON.stringify(res.body), context).not.toContain(MARK);
        if (expected === 400) expect(Object.keys(res.body).length, context).toBeGreaterThan(0);
      }
    }
    expect(await ownerRows()).toEqual(before);
  });

  it("verifies a code for the owner's person's number as nobody in its own account", async () => {
    await must(intruder.post("/people/perishable_token/send", { person: { phone_number: o.personPhone } }));
    const [latest] = await settledMessagesOf(intruder, "?kind=token");
    const code = /(\d{5})/.exec(latest.body)![1];
    const res = await intruder.post("/people/perishable_token/verify", { perishable_token: code, person: { phone_number: o.personPhone } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ person: {} });
  });

  it("keeps the owner's objects intact and readable by the owner after the sweep", async () => {
    expect((await owner.get(`/bookings/${o.booking}`)).body.booking).toMatchObject({ title: `${MARK} booking`, state: "confirmed" });
    expect((await owner.get(`/people/${o.person}`)).body.person).toMatchObject({ name: `${MARK} Ann`, active: true });
    expect((await owner.get(`/web_hooks/${o.webHook}`)).body.web_hook).toMatchObject({ event: "booking.created" });
    expect((await owner.get("/client")).body.client.name).toBe(`${MARK} clinic`);
  });
});

describe("a visitor's booking token on another account's booking site", () => {
  it("opens nothing there: the owner's booking and the intruder's own ids answer 404, and nothing changes", async () => {
    const ownerAccount = (await owner.get("/client")).body.client;
    const ownerSite = publicSite(ownerAccount.subdomain);
    const intruderSite = publicSite((await intruder.get("/client")).body.client.subdomain);
    const mineToken = await must(
      ownerSite.post("/bookings", {
        booking: { service_id: o.service, booked_from: `${DATE} 10:00`, booked_to: `${DATE} 11:00`, person_attributes: { name: "Visitor", email: "v@example.com" } },
      }),
    );
    const headers = { "x-booking-token": mineToken.booking_token };
    const before = await ownerRows();
    for (const id of [mineToken.booking.id, o.booking, mine.booking]) {
      for (const res of [
        await intruderSite.get(`/bookings/${id}`, headers),
        await intruderSite.put(`/bookings/${id}/cancel`, {}, headers),
        await intruderSite.put(`/bookings/${id}/verify_code`, { verification_code: "12345" }, headers),
      ]) {
        expect({ id, status: res.status }).toEqual({ id, status: 404 });
        expect(JSON.stringify(res.body)).not.toContain(MARK);
      }
    }
    expect(await ownerRows()).toEqual(before);
    expect((await ownerSite.get(`/bookings/${mineToken.booking.id}`, headers)).status).toBe(200);
  });
});
