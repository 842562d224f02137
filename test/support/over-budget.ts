// Routes whose waits in sequence pass their budget today (issue 33: a read 1, a write 2), by
// catalogue name (bench/route-catalogue.ts), warm and cold, as test/integration/route-waits-*.test.ts
// measure them. The tests assert these counts exactly: a route that gets worse fails, and so does
// one that improves, until its line here shrinks or goes. Only counts over the budget are listed.
//
// Cold, a request is answered beside the database (a NearDatabase object: one wait for a read, the
// limiter's verdict and one for a write), except MCP's, whose every call is a POST and so waits for
// the verdict before it is forwarded. Most writes' warm counts over 2 are reads one after another
// before the write; the booking changes (cancel, decline, delete, status, edits) also walk the
// account's waitlist lines one by one afterwards (waitlist/offers.ts `offerFreedSeats`, two waits a
// line: the shop has two lines), and a paid shop's create and payment add the payment's own steps.
export type Temperature = "warm" | "cold";

export const OVER_BUDGET: Record<string, Partial<Record<Temperature, number>>> = {
  // The private API and the reference routes on its host (route-waits-private.test.ts)
  "POST /api/v1/client/users": { warm: 3 },
  "PUT /api/v1/categories/{id}": { warm: 3 },
  "GET /api/v1/people/{id}/children": { warm: 2 },
  "PUT /api/v1/people/{id}": { warm: 3 },
  "POST /api/v1/people/{id}/merge": { warm: 4 },
  "POST /api/v1/people/perishable_token/send": { warm: 3 },
  "POST /api/v1/people/perishable_token/verify": { warm: 4 },
  "GET /api/v1/resources/{id}/opening_hours": { warm: 2 },
  "GET /api/v1/resources/{id}/exception_dates": { warm: 2 },
  "GET /api/v1/resources/{id}/exception_dates/{date}": { warm: 2 },
  "POST /api/v1/waitlist": { warm: 3 },
  "GET /api/v1/bookings/recurring/{collection_id}": { warm: 2 },
  "DELETE /api/v1/bookings/recurring/{collection_id}": { warm: 18 },
  "GET /api/v1/bookings/find_by/external_id/{external_id}": { warm: 2 },
  "POST /api/v1/bookings": { warm: 5 },
  "PUT /api/v1/bookings/{id}": { warm: 9 },
  "PUT /api/v1/bookings/{id}/confirm": { warm: 5 },
  "PUT /api/v1/bookings/{id}/decline": { warm: 9 },
  "PUT /api/v1/bookings/{id}/cancel": { warm: 8 },
  "PUT /api/v1/bookings/{id}/verify_code": { warm: 3 },
  "PUT /api/v1/bookings/{id}/status": { warm: 8 },
  "DELETE /api/v1/bookings/{id}": { warm: 8 },
  "POST /api/v1/bookings/{id}/payment": { warm: 7 },
  "GET /api/v1/events/recurring/{collection_id}": { warm: 3 },
  "GET /api/v1/events": { warm: 2 },
  "PUT /api/v1/events/{id}": { warm: 3 },
  "DELETE /api/v1/events/{id}": { warm: 3 },
  "GET /api/v1/web_hooks/{id}/deliveries": { warm: 3 },
  "POST /api/v1/web_hooks/{id}/deliveries/{delivery_id}/redeliver": { warm: 4 },
  "POST /api/v1/calendar_subscriptions": { warm: 3 },
  "POST /api/v1/payments/stripe/events": { warm: 8, cold: 8 },
  // The booking site (route-waits-site.test.ts)
  "POST https://<subdomain>/bookings": { warm: 3 },
  "GET https://<subdomain>/bookings/{id}": { warm: 2 },
  "PUT https://<subdomain>/bookings/{id}/verify_code": { warm: 4 },
  "PUT https://<subdomain>/bookings/{id}/cancel": { warm: 10 },
  // The move itself is two waits (its reads in one batch, then the guarded update that reads the
  // booking back); the other seven are what follows every booking change, as after the private
  // API's PUT /bookings/{id} (9): the webhook, the modification message, the waitlist lines' pass.
  "PUT https://<subdomain>/bookings/{id}/move": { warm: 9 },
  "POST https://<subdomain>/waitlist": { warm: 3 },
  "POST https://<subdomain>/waitlist/{id}/accept": { warm: 6 },
  "POST https://<subdomain>/people/perishable_token/send": { warm: 3 },
  "POST https://<subdomain>/people/perishable_token/verify": { warm: 4 },
  "GET https://<subdomain>/calendar/bookings/{file}": { warm: 3 },
  // MCP, both endpoints (route-waits-mcp.test.ts)
  "mcp initialize (site)": { cold: 2 },
  "mcp tools/list (site)": { cold: 2 },
  "mcp list_services (site)": { cold: 2 },
  "mcp find_available_dates (site)": { cold: 2 },
  "mcp find_times (site)": { cold: 2 },
  "mcp book (site)": { warm: 3 },
  "mcp verify_booking (site)": { warm: 4 },
  "mcp show_booking (site)": { warm: 2, cold: 2 },
  "mcp cancel_booking (site)": { warm: 10 },
  "mcp move_booking (site)": { warm: 9 },
  "mcp initialize (private)": { cold: 2 },
  "mcp tools/list (private)": { cold: 2 },
  "mcp list_services (private)": { cold: 2 },
  "mcp find_available_dates (private)": { cold: 2 },
  "mcp find_times (private)": { cold: 2 },
  "mcp book (private)": { warm: 5 },
  "mcp verify_booking (private)": { warm: 3 },
  "mcp get_booking (private)": { cold: 2 },
  "mcp list_bookings (private)": { cold: 2 },
  "mcp confirm_booking (private)": { warm: 5 },
  "mcp decline_booking (private)": { warm: 9 },
  "mcp cancel_booking (private)": { warm: 8 },
  "mcp list_people (private)": { cold: 2 },
  "mcp get_person (private)": { cold: 2 },
};
