// Table of contents: which feature serves which path, on the private API and the public site.
import type { Hono } from "hono";
import type { AppEnv } from "../env";
import { clientRoutes } from "./account/routes";
import { bookingPageRoutes } from "./booking-page/routes";
import { bookingRoutes, eventBookingRoutes, personBookingRoutes, publicBookingRoutes } from "./bookings/routes";
import { categoryRoutes } from "./categories/routes";
import { eventRoutes } from "./events/routes";
import { messageRoutes } from "./messages/routes";
import { peopleRoutes } from "./people/routes";
import { perishableTokenRoutes } from "./perishable-tokens/routes";
import { providerRoutes } from "./providers/routes";
import { recurringBookingRoutes, recurringEventRoutes } from "./recurrence/routes";
import { resourceRoutes } from "./resources/routes";
import { publicServiceRoutes, serviceRoutes } from "./services/routes";
import { privateSlotRoutes, publicSlotRoutes } from "./slots/routes";
import { userRoutes } from "./users/routes";
import { webhookSecretRoutes } from "./webhook-secret/routes";
import { webHookRoutes } from "./webhooks/routes";

export const privateFeatures: [string, Hono<AppEnv>][] = [
  // Registered before /client so the nested prefix never falls through to the account routes.
  ["/client/users", userRoutes],
  ["/client/webhook_secret", webhookSecretRoutes],
  ["/client", clientRoutes],
  ["/services", privateSlotRoutes],
  ["/services", serviceRoutes],
  ["/providers", providerRoutes],
  ["/categories", categoryRoutes],
  // Before the people feature, so /people/{id}/bookings is this feature's.
  ["/people", personBookingRoutes],
  // Before the people feature, so /people/perishable_token is not read as a person id.
  ["/people/perishable_token", perishableTokenRoutes],
  ["/people", peopleRoutes],
  ["/resources", resourceRoutes],
  ["/bookings/recurring", recurringBookingRoutes],
  ["/bookings", bookingRoutes],
  ["/events/recurring", recurringEventRoutes],
  ["/events", eventBookingRoutes],
  ["/events", eventRoutes],
  ["/web_hooks", webHookRoutes],
  ["/messages", messageRoutes],
];

export const publicFeatures: [string, Hono<AppEnv>][] = [
  ["/services", publicSlotRoutes],
  ["/services", publicServiceRoutes],
  ["/bookings", publicBookingRoutes],
  // A widget proves a visitor's phone number before booking; the SMS caps keep it from being pumped.
  ["/people/perishable_token", perishableTokenRoutes],
  // The page a person books on (GET /), its script and style, and the widget's script.
  ["/", bookingPageRoutes],
];
