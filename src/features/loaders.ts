// Where each feature's routes live. Imported only when a request first reaches the feature
// (features/lazy-routes.ts): in the one-file bundle each `import()` is a lazy initialiser, so a
// feature's modules and schemas are evaluated then, not at start-up.
export const routeLoaders = {
  account: () => import("./account/routes").then((m) => m.clientRoutes),
  bookingPage: () => import("./booking-page/routes").then((m) => m.bookingPageRoutes),
  bookings: () => import("./bookings/routes").then((m) => m.bookingRoutes),
  eventBookings: () => import("./bookings/routes").then((m) => m.eventBookingRoutes),
  personBookings: () => import("./bookings/routes").then((m) => m.personBookingRoutes),
  publicBookings: () => import("./bookings/routes").then((m) => m.publicBookingRoutes),
  calendarFeeds: () => import("./calendar-feeds/routes").then((m) => m.calendarFeedRoutes),
  calendarFiles: () => import("./calendar-feeds/routes").then((m) => m.calendarFileRoutes),
  calendarSubscriptions: () => import("./calendar-subscriptions/routes").then((m) => m.calendarSubscriptionRoutes),
  categories: () => import("./categories/routes").then((m) => m.categoryRoutes),
  events: () => import("./events/routes").then((m) => m.eventRoutes),
  messages: () => import("./messages/routes").then((m) => m.messageRoutes),
  privateMcp: () => import("./mcp/routes").then((m) => m.privateMcpRoutes),
  siteMcp: () => import("./mcp/routes").then((m) => m.siteMcpRoutes),
  operator: () => import("./operator/routes").then((m) => m.operatorRoutes),
  people: () => import("./people/routes").then((m) => m.peopleRoutes),
  perishableTokens: () => import("./perishable-tokens/routes").then((m) => m.perishableTokenRoutes),
  providers: () => import("./providers/routes").then((m) => m.providerRoutes),
  recurringBookings: () => import("./recurrence/routes").then((m) => m.recurringBookingRoutes),
  recurringEvents: () => import("./recurrence/routes").then((m) => m.recurringEventRoutes),
  resources: () => import("./resources/routes").then((m) => m.resourceRoutes),
  services: () => import("./services/routes").then((m) => m.serviceRoutes),
  publicServices: () => import("./services/routes").then((m) => m.publicServiceRoutes),
  privateHolds: () => import("./holds/routes").then((m) => m.privateHoldRoutes),
  publicHolds: () => import("./holds/routes").then((m) => m.publicHoldRoutes),
  privateWaitlist: () => import("./waitlist/routes").then((m) => m.privateWaitlistRoutes),
  publicWaitlist: () => import("./waitlist/routes").then((m) => m.publicWaitlistRoutes),
  privateSlots: () => import("./slots/routes").then((m) => m.privateSlotRoutes),
  publicSlots: () => import("./slots/routes").then((m) => m.publicSlotRoutes),
  users: () => import("./users/routes").then((m) => m.userRoutes),
  webhookSecret: () => import("./webhook-secret/routes").then((m) => m.webhookSecretRoutes),
  webHooks: () => import("./webhooks/routes").then((m) => m.webHookRoutes),
};

export type FeatureRoutes = keyof typeof routeLoaders;
