// Routes whose waits in sequence pass their budget today (issue 33: a read 1, a write 2), by
// catalogue name (bench/route-catalogue.ts), warm and cold, as test/integration/route-waits-*.test.ts
// measure them. The tests assert these counts exactly: a route that gets worse fails, and so does
// one that improves, until its line here shrinks or goes. Only counts over the budget are listed.
export type Temperature = "warm" | "cold";

export const OVER_BUDGET: Record<string, Partial<Record<Temperature, number>>> = {
};
