// Routes whose waits in sequence pass their budget (issue 33: a read 1, a write 2), by catalogue
// name (bench/route-catalogue.ts), warm and cold, as test/integration/route-waits-*.test.ts measure
// them. The tests assert these counts exactly: a route that gets worse fails, and so does one that
// improves, until its line here shrinks or goes. Only counts over the budget are listed: none today.
//
// Reads of a known account wait once here (their statements in one batch); a write, and any request
// of an account the isolate does not know, is answered beside the database (a NearDatabase object:
// the limiter's verdict and one wait for a write, one wait for a read), whatever the route does
// there in short hops (http/near-database.ts).
export type Temperature = "warm" | "cold";

export const OVER_BUDGET: Record<string, Partial<Record<Temperature, number>>> = {};
