// A request the Worker cannot start on its own, because its isolate does not know the account yet
// (an integrator's or a visitor's first request there), is answered here instead: this object is
// created beside the directory's database, so the account's lookup and the route's reads and
// writes are short hops, and the Worker waits on one long hop rather than two or three in a row
// (docs/decisions/latency.md, "Who is asking, at distance"). It runs the whole app, so it is an
// entry, beside index.ts: only entries build the app (.dependency-cruiser.cjs).
import { DurableObject } from "cloudflare:workers";
import type { MiddlewareHandler } from "hono";
import { buildApp } from "./app";
import type { AppEnv, Env } from "./env";

/** The Worker that forwarded the request has counted it against its budgets already. */
const limitedByTheWorker: MiddlewareHandler<AppEnv> = (_c, next) => next();

export class NearDatabase extends DurableObject<Env> {
  #app?: ReturnType<typeof buildApp>;

  /** The app the forwarding Worker runs, as it runs beside the database. */
  protected buildApp(options: Parameters<typeof buildApp>[0]) {
    return buildApp(options);
  }

  override fetch(request: Request): Promise<Response> {
    this.#app ??= this.buildApp({ rateLimit: limitedByTheWorker, besideDatabase: true });
    return Promise.resolve(
      this.#app.fetch(request, this.env, {
        waitUntil: (promise: Promise<unknown>) => this.ctx.waitUntil(promise),
        passThroughOnException: () => undefined,
        props: {},
      } as unknown as ExecutionContext),
    );
  }
}
