// A feature's routes, known to the router from the start but built on the first request that
// reaches one of them (issue 21, scope 5): building them imports the feature's zod schemas, which
// were most of a fresh isolate's start-up CPU.
import { Hono } from "hono";
import type { RouterRoute } from "hono/types";
import type { AppEnv } from "../env";

/** A feature's route entries in the order it registers them: one per handler, as `Hono.routes` lists them. */
export type RouteTable = readonly (readonly [method: string, path: string])[];

/**
 * A Hono app with `table`'s routes, each handler standing in for the one at the same place in the
 * app `load` answers. The parent's router, middleware and context are untouched: it matches these
 * entries exactly as it would match the feature's own (same methods, patterns and order, so the
 * same params and the same 405s), and each stand-in calls the real handler with the same `c` and
 * `next`. `test/integration/route-tables.test.ts` keeps `table` equal to the loaded app's routes.
 */
export function lazyRoutes(table: RouteTable, load: () => Promise<Hono<AppEnv>>): Hono<AppEnv> {
  let handlers: RouterRoute["handler"][] | undefined;
  let loading: Promise<RouterRoute["handler"][]> | undefined;
  const loaded = () => (loading ??= load().then((routes) => (handlers = handlersMatching(table, routes))));
  const app = new Hono<AppEnv>();
  table.forEach(([method, path], at) => {
    // Once loaded, the real handler is called without a promise in between, as before.
    app.on(method, path, (c, next) => (handlers ? handlers[at](c, next) : loaded().then((real) => real[at](c, next))));
  });
  return app;
}

/**
 * The loaded app's handlers, refused unless its routes are the table's: a stand-in must never call
 * another route's handler (an out-of-date table answers 500, never a wrong handler's answer).
 */
function handlersMatching(table: RouteTable, routes: Hono<AppEnv>): RouterRoute["handler"][] {
  const same = routes.routes.length === table.length && routes.routes.every((route, at) => route.method === table[at][0] && route.path === table[at][1]);
  if (!same) throw new Error("A feature's routes differ from its route table: run npm run routes:tables.");
  return routes.routes.map((route) => route.handler);
}
