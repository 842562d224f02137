// Operator API (README, Configuration): tenants are created and managed here, behind ADMIN_TOKEN.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ACCOUNT_CACHE_TTL_MS } from "../../http/account-cache";
import { operatorAuth } from "../../http/auth";
import { wrapList } from "../../http/envelope";
import { body, params } from "../../http/validate";
import { toAccountJson } from "../account/serializer";
import type { Account } from "../../db/schema";
import { createAccountBody, moveAccountBody, operatorUpdateBody } from "./schema";
import { createAccount, listAccounts, rotateApiKey, updateAccountAsOperator } from "./service";
import { moveAccount } from "./shards";

/** The operator sees where an account lives; the account itself never does (GET /client). */
const toOperatorAccountJson = (account: Account) => ({ ...toAccountJson(account), shard: account.shard });

export const operatorRoutes = new Hono<AppEnv>();
operatorRoutes.use("*", operatorAuth);

operatorRoutes.post("/accounts", body(createAccountBody, { root: "account" }), async (c) => {
  const { account, apiKey, webhookSecret } = await createAccount(c.env, c.var.db, c.req.valid("json").account, c.var.now);
  return c.json({ account: toOperatorAccountJson(account), api_key: apiKey, webhook_secret: webhookSecret });
});

operatorRoutes.get("/accounts", async (c) => c.json(wrapList("account", (await listAccounts(c.var.db)).map(toOperatorAccountJson))));

operatorRoutes.post("/accounts/:id/api_key", params("id"), async (c) => {
  const apiKey = await rotateApiKey(c.var.db, c.req.valid("param").id, c.var.now);
  // Other isolates may still know the old key from their account cache for its lifetime.
  return c.json({ api_key: apiKey, previous_key_stops_within_seconds: ACCOUNT_CACHE_TTL_MS / 1000 });
});

operatorRoutes.put("/accounts/:id", params("id"), body(operatorUpdateBody, { root: "account" }), async (c) => {
  const account = await updateAccountAsOperator(c.var.db, c.req.valid("param").id, c.req.valid("json").account, c.var.now);
  return c.json({ account: toOperatorAccountJson(account) });
});

// Moves the account's data to another shard (docs/scaling.md); the account must be frozen first.
operatorRoutes.post("/accounts/:id/move", params("id"), body(moveAccountBody), async (c) => {
  const { account, report } = await moveAccount(c.env, c.req.valid("param").id, c.req.valid("json").shard, c.var.now);
  return c.json({ account: toOperatorAccountJson(account), moved: report });
});
