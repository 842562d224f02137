// Table of contents: which feature serves which path, on the private API and the public site.
import type { Hono } from "hono";
import type { AppEnv } from "../env";
import { clientRoutes } from "./account/routes";
import { bookingRoutes, eventBookingRoutes, personBookingRoutes, publicBookingRoutes } from "./bookings/routes";
import { categoryRoutes } from "./categories/routes";
import { eventRoutes } from "./events/routes";
import { peopleRoutes } from "./people/routes";
import { providerRoutes } from "./providers/routes";
import { recurringBookingRoutes, recurringEventRoutes } from "./recurrence/routes";
import { resourceRoutes } from "./resources/routes";
import { publicServiceRoutes, serviceRoutes } from "./services/routes";
import { privateSlotRoutes, publicSlotRoutes } from "./slots/routes";
import { userRoutes } from "./users/routes";

export const privateFeatures: [string, Hono<AppEnv>][] = [
  // Registered before /client so the nested prefix never falls through to the account routes.
  ["/client/users", userRoutes],
  ["/client", clientRoutes],
  ["/services", privateSlotRoutes],
  ["/services", serviceRoutes],
  ["/providers", providerRoutes],
  ["/categories", categoryRoutes],
  // Before the people feature, so /people/{id}/bookings is this feature's.
  ["/people", personBookingRoutes],
  ["/people", peopleRoutes],
  ["/resources", resourceRoutes],
  ["/bookings/recurring", recurringBookingRoutes],
  ["/bookings", bookingRoutes],
  ["/events/recurring", recurringEventRoutes],
  ["/events", eventBookingRoutes],
  ["/events", eventRoutes],
];

export const publicFeatures: [string, Hono<AppEnv>][] = [
  ["/services", publicSlotRoutes],
  ["/services", publicServiceRoutes],
  ["/bookings", publicBookingRoutes],
];
