// Account (client) output: every attribute but secrets (webhook secret, merchant key).
import type { Account } from "../../db/schema";
import { formatInstant } from "../../domain/time";

/** Paid bookings' settings (docs/decisions/payments.md), shown once the account's provider is Stripe: before, its answer is as it always was. */
const paymentSettingsOut = (account: Account) =>
  account.payment_provider === "stripe"
    ? { payment_window_minutes: account.payment_window_minutes, refund_until_hours: account.refund_until_hours, stripe_account_id: account.stripe_account_id }
    : {};

/** Retention settings (docs/decisions/personal-data.md), shown once one is set: before, the answer is as it always was. */
const retentionSettingsOut = (account: Account) =>
  account.retention_days_after_last_booking !== null || account.message_body_retention_days !== null || account.delivery_payload_retention_days !== null
    ? {
        retention_days_after_last_booking: account.retention_days_after_last_booking,
        message_body_retention_days: account.message_body_retention_days,
        delivery_payload_retention_days: account.delivery_payload_retention_days,
      }
    : {};

export function toAccountJson(account: Account) {
  const {
    webhook_secret: _secret,
    previous_webhook_secret: _previous,
    previous_webhook_secret_expires_at: _expires,
    gateway_merchant_key: _key,
    shard: _shard,
    created_at,
    updated_at,
    payment_window_minutes: _window,
    refund_until_hours: _refunds,
    stripe_account_id: _stripe,
    closed_at: _closed,
    delete_at: _deleteAt,
    retention_days_after_last_booking: _retention,
    message_body_retention_days: _bodies,
    delivery_payload_retention_days: _payloads,
    ...rest
  } = account;
  return {
    ...rest,
    ...paymentSettingsOut(account),
    ...retentionSettingsOut(account),
    created_at: formatInstant(created_at, account.time_zone),
    updated_at: formatInstant(updated_at, account.time_zone),
  };
}
