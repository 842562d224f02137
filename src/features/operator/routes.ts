// Operator API (CONTRACT.md): tenants are created and managed here, behind ADMIN_TOKEN.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ACCOUNT_CACHE_TTL_MS } from "../../http/account-cache";
import { operatorAuth } from "../../http/auth";
import { renderNotFound } from "../../http/render-error";
import { wrapList } from "../../http/envelope";
import { body, params } from "../../http/validate";
import { toAccountJson } from "../account/serializer";
import { createAccountBody, operatorUpdateBody } from "./schema";
import { createAccount, listAccounts, rotateApiKey, updateAccountAsOperator } from "./service";

export const operatorRoutes = new Hono<AppEnv>();
operatorRoutes.use("*", operatorAuth);

operatorRoutes.post("/accounts", body(createAccountBody, { root: "account" }), async (c) => {
  const { account, apiKey, webhookSecret } = await createAccount(c.var.db, c.req.valid("json").account, c.var.now);
  return c.json({ account: toAccountJson(account), api_key: apiKey, webhook_secret: webhookSecret });
});

operatorRoutes.get("/accounts", async (c) => c.json(wrapList("account", (await listAccounts(c.var.db)).map(toAccountJson))));

operatorRoutes.post("/accounts/:id/api_key", params("id"), async (c) => {
  const apiKey = await rotateApiKey(c.var.db, c.req.valid("param").id, c.var.now);
  // Other isolates may still know the old key from their account cache for its lifetime.
  return c.json({ api_key: apiKey, previous_key_stops_within_seconds: ACCOUNT_CACHE_TTL_MS / 1000 });
});

operatorRoutes.put("/accounts/:id", params("id"), body(operatorUpdateBody, { root: "account" }), async (c) => {
  const account = await updateAccountAsOperator(c.var.db, c.req.valid("param").id, c.req.valid("json").account, c.var.now);
  return c.json({ account: toAccountJson(account) });
});

// Unknown operator paths end here rather than falling through to the public site.
operatorRoutes.all("*", renderNotFound);
