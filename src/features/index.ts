// Table of contents: which feature serves which path, on the private API and the public site.
import type { Hono } from "hono";
import type { AppEnv } from "../env";
import { lazyRoutes } from "./lazy-routes";
import { routeLoaders, type FeatureRoutes } from "./loaders";
import { ROUTE_TABLES } from "./route-tables";

/** The feature's routes, registered now and built on the first request that reaches one (issue 21). */
export const onFirstUse = (feature: FeatureRoutes) => lazyRoutes(ROUTE_TABLES[feature], routeLoaders[feature]);

// Mounted twice (private API and booking site), loaded once.
const perishableTokenRoutes = onFirstUse("perishableTokens");

export const privateFeatures: [string, Hono<AppEnv>][] = [
  // Registered before /client so the nested prefix never falls through to the account routes.
  ["/client/users", onFirstUse("users")],
  ["/client/webhook_secret", onFirstUse("webhookSecret")],
  ["/client", onFirstUse("account")],
  ["/slots/holds", onFirstUse("privateHolds")],
  ["/waitlist", onFirstUse("privateWaitlist")],
  ["/services", onFirstUse("privateSlots")],
  ["/services", onFirstUse("services")],
  ["/providers", onFirstUse("providers")],
  ["/categories", onFirstUse("categories")],
  // Before the people feature, so /people/{id}/bookings is this feature's.
  ["/people", onFirstUse("personBookings")],
  // Before the people feature, so /people/perishable_token is not read as a person id.
  ["/people/perishable_token", perishableTokenRoutes],
  // Before the people feature: a person's export and erasure (docs/decisions/personal-data.md).
  ["/people", onFirstUse("personalData")],
  ["/people", onFirstUse("people")],
  ["/resources", onFirstUse("resources")],
  ["/bookings/recurring", onFirstUse("recurringBookings")],
  ["/bookings", onFirstUse("bookings")],
  ["/events/recurring", onFirstUse("recurringEvents")],
  ["/events", onFirstUse("eventBookings")],
  ["/events", onFirstUse("events")],
  ["/web_hooks", onFirstUse("webHooks")],
  ["/messages", onFirstUse("messages")],
  ["/calendar_feeds", onFirstUse("calendarFeeds")],
  // Busy times read from calendars kept elsewhere (docs/decisions/calendar-subscriptions.md).
  ["/calendar_subscriptions", onFirstUse("calendarSubscriptions")],
  // Assistants book through the Model Context Protocol with the same services (docs/decisions/mcp.md).
  ["/mcp", onFirstUse("privateMcp")],
];

export const publicFeatures: [string, Hono<AppEnv>][] = [
  ["/slots/holds", onFirstUse("publicHolds")],
  ["/waitlist", onFirstUse("publicWaitlist")],
  ["/services", onFirstUse("publicSlots")],
  ["/services", onFirstUse("publicServices")],
  ["/bookings", onFirstUse("publicBookings")],
  // What the visitor's booking token opens, as one export (docs/decisions/personal-data.md).
  ["/bookings", onFirstUse("visitorExport")],
  // A widget proves a visitor's phone number before booking; the SMS caps keep it from being pumped.
  ["/people/perishable_token", perishableTokenRoutes],
  // Calendar apps subscribe to a feed by its secret URL; messages link a booking's file (signed).
  ["/calendar", onFirstUse("calendarFiles")],
  // An assistant books for a visitor through the Model Context Protocol (docs/decisions/mcp.md).
  ["/mcp", onFirstUse("siteMcp")],
  // The page a person books on (GET /), its script and style, and the widget's script.
  ["/", onFirstUse("bookingPage")],
];
