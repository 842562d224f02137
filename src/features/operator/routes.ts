// Operator API (README, Configuration): tenants are created and managed here, behind ADMIN_TOKEN.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ACCOUNT_CACHE_TTL_MS } from "../../http/account-cache";
import { operatorAuth } from "../../http/auth";
import { wrapList } from "../../http/envelope";
import { body, params, query } from "../../http/validate";
import { formatNullableInstant } from "../../domain/time";
import { toAccountJson } from "../account/serializer";
import type { Account } from "../../db/schema";
import { exportAccount } from "./export";
import { importAccount } from "./import";
import { closeAccount, restoreAccount } from "./lifecycle";
import { createAccountBody, importAccountQuery, moveAccountBody, operatorUpdateBody } from "./schema";
import { createAccount, listAccounts, rotateApiKey, updateAccountAsOperator } from "./service";
import { moveAccount } from "./shards";

/** The operator sees where an account lives and whether it is leaving; the account itself never does (GET /client). */
const toOperatorAccountJson = (account: Account) => ({
  ...toAccountJson(account),
  shard: account.shard,
  closed_at: formatNullableInstant(account.closed_at, account.time_zone),
  delete_at: formatNullableInstant(account.delete_at, account.time_zone),
});

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

// Closes the account now and deletes it after the grace period (docs/decisions/personal-data.md, "An account that leaves").
operatorRoutes.delete("/accounts/:id", params("id"), async (c) => {
  const account = await closeAccount(c.env, c.var.db, c.req.valid("param").id, c.var.now);
  return c.json({ account: toOperatorAccountJson(account), previous_access_stops_within_seconds: ACCOUNT_CACHE_TTL_MS / 1000 });
});

operatorRoutes.post("/accounts/:id/restore", params("id"), async (c) => {
  const account = await restoreAccount(c.var.db, c.req.valid("param").id, c.var.now);
  return c.json({ account: toOperatorAccountJson(account) });
});

// JSON lines, read from D1 page by page as the client reads them (docs/decisions/recovery.md).
operatorRoutes.get("/accounts/:id/export", params("id"), async (c) => {
  const { id } = c.req.valid("param");
  const stream = await exportAccount(c.env, id, c.var.now);
  return c.body(stream, 200, { "content-type": "application/x-ndjson", "content-disposition": `attachment; filename="account-${id}.jsonl"` });
});

operatorRoutes.post("/accounts/import", query(importAccountQuery), async (c) => {
  const { account, report } = await importAccount(c.env, c.req.raw.body, c.req.valid("query").shard, c.var.now);
  return c.json({ account: toOperatorAccountJson(account), imported: report });
});
