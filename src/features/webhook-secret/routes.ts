// /client/webhook_secret on the private API: the secret deliveries are signed with, and its rotation.
import { Hono } from "hono";
import type { Account } from "../../db/schema";
import type { AppEnv } from "../../env";
import { formatNullableInstant } from "../../domain/time";
import { deps } from "../deps";
import { rotateWebhookSecret, signingSecrets, storedSecrets } from "./service";

export const webhookSecretRoutes = new Hono<AppEnv>();

const toSecretJson = (account: Account, now: number) => {
  const lingering = signingSecrets(account, now).length > 1;
  return {
    webhook_secret: {
      secret: account.webhook_secret,
      previous_secret_expires_at: lingering ? formatNullableInstant(account.previous_webhook_secret_expires_at, account.time_zone) : null,
    },
  };
};

webhookSecretRoutes.get("/", async (c) => c.json(toSecretJson(await storedSecrets(deps(c)), c.var.now)));

webhookSecretRoutes.post("/rotate", async (c) => c.json(toSecretJson(await rotateWebhookSecret(deps(c)), c.var.now)));
