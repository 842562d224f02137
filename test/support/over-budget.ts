// Routes whose waits in sequence pass their budget (issue 33: a read 1, a write 2) where the
// Worker answers writes itself, by catalogue name (bench/route-catalogue.ts), warm and cold, as
// test/integration/route-waits-*.test.ts measure them in the `workers` project. The tests assert
// these counts exactly: a route that gets worse fails, and so does one that improves, until its
// line here shrinks or goes. Only counts over the budget are listed.
//
// These are the counts of a Worker beside its database (its local D1 measures near, so `auto`
// answers writes in the Worker): a write's reads one after another, the waitlist's lines walked
// after a booking change (two waits a line: the shop has two), a paid create's steps. Far from
// the database every write is answered beside it; the same tests run so in the
// `workers-at-distance` project (WRITES_BESIDE_DATABASE=always), where none is allowed over budget.
export type Temperature = "warm" | "cold";

export const OVER_BUDGET: Record<string, Partial<Record<Temperature, number>>> = {
  "POST /api/v1/client/users": { warm: 3 },
  "PUT /api/v1/categories/{id}": { warm: 3 },
  "PUT /api/v1/people/{id}": { warm: 3 },
  "POST /api/v1/people/{id}/merge": { warm: 4 },
  // The person's read, the sweeps, and the round that erases the person row: bounded rounds, each its own transaction.
  "POST /api/v1/people/{id}/erase": { warm: 3 },
  "POST /api/v1/people/perishable_token/send": { warm: 3 },
  "POST /api/v1/people/perishable_token/verify": { warm: 4 },
  "POST /api/v1/waitlist": { warm: 3 },
  "DELETE /api/v1/bookings/recurring/{collection_id}": { warm: 17 },
  "POST /api/v1/bookings": { warm: 5 },
  "PUT /api/v1/bookings/{id}": { warm: 9 },
  "PUT /api/v1/bookings/{id}/confirm": { warm: 5 },
  "PUT /api/v1/bookings/{id}/decline": { warm: 9 },
  "PUT /api/v1/bookings/{id}/cancel": { warm: 8 },
  "PUT /api/v1/bookings/{id}/verify_code": { warm: 3 },
  "PUT /api/v1/bookings/{id}/status": { warm: 8 },
  "DELETE /api/v1/bookings/{id}": { warm: 8 },
  "POST /api/v1/bookings/{id}/payment": { warm: 7 },
  "PUT /api/v1/events/{id}": { warm: 3 },
  "DELETE /api/v1/events/{id}": { warm: 3 },
  "POST /api/v1/web_hooks/{id}/deliveries/{delivery_id}/redeliver": { warm: 4 },
  "POST /api/v1/calendar_subscriptions": { warm: 3 },
  "POST /api/v1/payments/stripe/events": { warm: 7, cold: 7 },
  // The account by id in the directory, then the message and the event's record on its shard, then its write.
  "POST /api/v1/messages/resend/events": { warm: 3, cold: 3 },
  "POST https://<subdomain>/bookings": { warm: 3 },
  "PUT https://<subdomain>/bookings/{id}/verify_code": { warm: 4 },
  "PUT https://<subdomain>/bookings/{id}/cancel": { warm: 10 },
  "PUT https://<subdomain>/bookings/{id}/move": { warm: 9 },
  "POST https://<subdomain>/waitlist": { warm: 3 },
  "POST https://<subdomain>/waitlist/{id}/accept": { warm: 6 },
  "POST https://<subdomain>/people/perishable_token/send": { warm: 3 },
  "POST https://<subdomain>/people/perishable_token/verify": { warm: 4 },
  "mcp book (site)": { warm: 3 },
  "mcp verify_booking (site)": { warm: 4 },
  "mcp cancel_booking (site)": { warm: 10 },
  "mcp move_booking (site)": { warm: 9 },
  "mcp book (private)": { warm: 5 },
  "mcp verify_booking (private)": { warm: 3 },
  "mcp confirm_booking (private)": { warm: 5 },
  "mcp decline_booking (private)": { warm: 9 },
  "mcp cancel_booking (private)": { warm: 8 },
};
