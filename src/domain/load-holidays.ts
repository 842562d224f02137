// The holiday engine on first use: date-holidays-parser, its time-zone and astronomy code and
// every country's rules took about a fifth of a fresh isolate's start-up, and only accounts
// closed for holidays and GET /client/holidays need them (docs/decisions/latency.md, Start-up).
// esbuild wraps a dynamically imported module in a lazy initialiser, so the one-file bundle
// evaluates it when this promise is first asked for, once per isolate.
// The module is kept, not the promise of it (features/messages/render.ts says why).
let engine: typeof import("./holidays") | undefined;

export const loadHolidays = async () => (engine ??= await import("./holidays"));
