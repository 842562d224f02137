// POST /slots/holds, GET and DELETE /slots/holds/{id}: on the booking site (a visitor, by the
// secret the create answered: `X-Hold-Secret`) and on the private API (the account's key).
import { Hono, type Context } from "hono";
import type { SlotHold } from "../../db/schema";
import type { AppEnv } from "../../env";
import { rateLimitKey } from "../../http/client-ip";
import { wrap } from "../../http/envelope";
import { body, params } from "../../http/validate";
import { deps } from "../deps";
import { createHoldBody } from "./schema";
import { toHoldJson } from "./serializer";
import { createHold, holdFor, releaseHold, type Holder } from "./service";

type C = Context<AppEnv>;

const HOLD_SECRET_HEADER = "x-hold-secret";

const answer = (c: C, hold: SlotHold, extra: Record<string, unknown> = {}) =>
  c.json({ ...wrap("slot_hold", toHoldJson(hold, c.var.account.time_zone, c.var.now)), ...extra });

function holdRoutes(holderOf: (c: C) => Holder) {
  const routes = new Hono<AppEnv>();
  routes.post("/", body(createHoldBody, { root: "slot_hold" }), async (c) => {
    const { hold, secret } = await createHold(deps(c), c.req.valid("json"), holderOf(c));
    return answer(c, hold, { hold_secret: secret });
  });
  routes.get("/:id", params("id"), async (c) => answer(c, await holdFor(deps(c), c.req.valid("param").id, holderOf(c), c.req.header(HOLD_SECRET_HEADER))));
  routes.delete("/:id", params("id"), async (c) => answer(c, await releaseHold(deps(c), c.req.valid("param").id, holderOf(c), c.req.header(HOLD_SECRET_HEADER))));
  return routes;
}

export const privateHoldRoutes = holdRoutes(() => ({ kind: "key" }));
export const publicHoldRoutes = holdRoutes((c) => ({ kind: "visitor", address: rateLimitKey(c.req.header("cf-connecting-ip")) }));
