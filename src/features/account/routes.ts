// The caller's own account: read and update (PUT /client).
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { body } from "../../http/validate";
import { toAccountJson } from "./serializer";
import { updateClientBody } from "./schema";
import { updateAccount } from "./service";
import { deps } from "../deps";

export const clientRoutes = new Hono<AppEnv>();

clientRoutes.get("/", (c) => c.json({ client: toAccountJson(c.var.account) }));

clientRoutes.put("/", body(updateClientBody, { root: "client" }), async (c) => {
  const account = await updateAccount(deps(c), c.req.valid("json").client);
  return c.json({ client: toAccountJson(account) });
});
