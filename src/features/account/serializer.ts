// Account (client) output: every attribute but secrets (webhook secret, merchant key).
import type { Account } from "../../db/schema";
import { formatInstant } from "../../domain/time";

export function toAccountJson(account: Account) {
  const {
    webhook_secret: _secret, previous_webhook_secret: _previous, previous_webhook_secret_expires_at: _expires,
    gateway_merchant_key: _key, shard: _shard, created_at, updated_at, ...rest
  } = account;
  return {
    ...rest,
    created_at: formatInstant(created_at, account.time_zone),
    updated_at: formatInstant(updated_at, account.time_zone),
  };
}
