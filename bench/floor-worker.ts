// Benchmark-only Worker entry: the production app (rate limiter included) plus the runtime's floor,
// a private API route that answers a JSON body of a requested size and does nothing else. Built
// only by the generated bench/.build/wrangler.floor.toml, never deployed (bench/README.md).
import { Hono } from "hono";
import { buildApp } from "../src/app";
import { privateFeatures } from "../src/features";
import type { AppEnv, Env } from "../src/env";
import { handleScheduled } from "../src/cron";
import { handleQueue } from "../src/queues";
import { and, eq } from "drizzle-orm";
import { calendarSubscriptions } from "../src/db/schema";
import { deps } from "../src/features/deps";
import { forgetIsolateCaches } from "./isolate-caches";
import { withRtt, withRttBesideDatabase } from "./rtt";
import { withSingleWriter } from "./single-writer";

/** The production guard, its database behind the simulated single writer when the shards suite asks, one short hop away with `--rtt`. */
export class CapacityGuard extends ProductionCapacityGuard {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withRttBesideDatabase(withSingleWriter(env)));
  }
}

/** The production object running this Worker's app, beside the database under `--rtt` as a deployment places it. */
export class NearDatabase extends ProductionNearDatabase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withRttBesideDatabase(withSingleWriter(env)));
  }

  protected override buildApp(options: Parameters<typeof buildApp>[0]) {
    return buildApp({ ...options, privateFeatures: benchFeatures });
  }
}
import { NearDatabase as ProductionNearDatabase } from "../src/durable-objects/near-database";

import { CapacityGuard as ProductionCapacityGuard } from "../src/durable-objects/capacity-guard";
export { RateLimiter } from "../src/durable-objects/rate-limiter";

const FRAME = '{"floor":""}';
const MAX_BYTES = 8 * 1024 * 1024;
// Built once per size, so a floor request spends nothing on making its body.
const paddings = new Map<number, string>();

const floor = new Hono<AppEnv>();
// Any method: a POST floor must answer as cheaply as a GET one and never reads its body.
floor.all("/floor", (c) => {
  const bytes = Math.min(MAX_BYTES, Math.max(FRAME.length, Number(c.req.query("bytes")) || FRAME.length));
  let padding = paddings.get(bytes);
  if (padding === undefined) {
    padding = "x".repeat(bytes - FRAME.length);
    paddings.set(bytes, padding);
  }
  return c.json({ floor: padding });
});

// The bench's clock (POST /__bench/clock): the paid mix runs this Worker ahead past its payment
// windows instead of waiting them out. Every instant of the app, its guard's and the Stripe SDK's
// signature check come from Date.now, so all of them move together (the guard and the app share
// this isolate under wrangler dev).
const realNow = Date.now;
let aheadMs = 0;
Date.now = () => realNow() + aheadMs;
floor.post("/clock", async (c) => {
  const { ahead_ms: ahead } = await c.req.json<{ ahead_ms: unknown }>();
  if (!Number.isInteger(ahead) || (ahead as number) < 0) return c.json({ error: "ahead_ms takes a whole number, 0 or more" }, 400);
  aheadMs = ahead as number;
  return c.json({ now: Date.now() });
});
// The every-minute cron, run now on this Worker's clock (the bench server has no scheduler).
floor.post("/cron", async (c) => {
  await handleScheduled({ scheduledTime: Date.now(), cron: "* * * * *", noRetry() {} }, c.env);
  return c.json({ ran_at: Date.now() });
});

// One calendar subscription's sync, run in this request as the fetch queue's consumer runs it
// (features/calendar-subscriptions/sync.ts): the bench times it from outside, where the clock
// runs during CPU work too, which inside workerd it does not.
floor.post("/calendar-sync/:id", async (c) => {
  const { syncSubscription } = await import("../src/features/calendar-subscriptions/sync");
  const subscription = await c.var.db.query.calendarSubscriptions.findFirst({
    where: and(eq(calendarSubscriptions.id, Number(c.req.param("id"))), eq(calendarSubscriptions.account_id, c.var.account.id)),
  });
  if (!subscription) return c.json({ error: "no such calendar subscription" }, 404);
  return c.json(await syncSubscription(deps(c), subscription));
});

// What a fresh isolate has not seen (bench/routes.ts, its cold samples): the accounts it cached,
// their slot and booking-list answers. The next request of any account pays for a first sight.
floor.post("/forget", (c) => {
  forgetIsolateCaches();
  return c.json({ forgotten: true });
});

const benchFeatures: [string, Hono<AppEnv>][] = [...privateFeatures, ["/__bench", floor]];
const app = buildApp({ privateFeatures: benchFeatures, forwardUnknownAccounts: true });

export default {
  // `--rtt N` (bench/rtt.ts): the bindings wait N ms per call, as for a visitor far from D1.
  // BENCH_D1_WRITE_MS (bench/single-writer.ts): each shard takes one write at a time.
  fetch: (request, env, ctx) => app.fetch(request, withRtt(withSingleWriter(env)), ctx),
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
