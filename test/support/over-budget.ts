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
  "GET /api/v1/people/{id}/children": { warm: 2 },
  "GET /api/v1/resources/{id}/opening_hours": { warm: 2 },
  "GET /api/v1/resources/{id}/exception_dates": { warm: 2 },
  "GET /api/v1/resources/{id}/exception_dates/{date}": { warm: 2 },
  "GET /api/v1/bookings/recurring/{collection_id}": { warm: 2 },
  "GET /api/v1/bookings/find_by/external_id/{external_id}": { warm: 2 },
  "GET /api/v1/events/recurring/{collection_id}": { warm: 3 },
  "GET /api/v1/events": { warm: 2 },
  "GET /api/v1/web_hooks/{id}/deliveries": { warm: 3 },
  // The booking site (route-waits-site.test.ts)
  "GET https://<subdomain>/bookings/{id}": { warm: 2 },
  "GET https://<subdomain>/calendar/bookings/{file}": { warm: 3 },
  // MCP, both endpoints (route-waits-mcp.test.ts)
  "mcp show_booking (site)": { warm: 2 },
};
