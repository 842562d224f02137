// Every answer says what it cost in the currencies that matter at the edge: sequential D1 round
// trips, rows D1 read, and Durable Object calls (`Server-Timing`, readable by any client).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { meteredEnv, newMeter, runInScope, type RequestMeter } from "../db/request-scope";

export const serverTimingValue = (m: RequestMeter) =>
  `d1;desc="${m.d1RoundTrips} round trips", d1-rows;desc="${m.rowsRead} rows read", do;desc="${m.doHops} calls"`;

export const meterRequest = createMiddleware<AppEnv>(async (c, next) => {
  const meter = newMeter();
  c.env = meteredEnv(c.env);
  await runInScope({ meter }, next);
  c.res.headers.set("Server-Timing", serverTimingValue(meter));
});
