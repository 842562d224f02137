// SMS caps (issue 4): at most 5 SMS an hour to one phone number, and a daily number per account,
// so neither the public token endpoint nor a booking loop can be used to pump SMS.
import { configOf } from "../../config";
import type { Account } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import type { Env } from "../../env";

const SMS_PER_NUMBER_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const dailyCap = (env: Env) => configOf(env).SMS_DAILY_CAP_PER_ACCOUNT;

// Refused (failed) messages were never sent, so they do not use up the allowance.
const COUNTED = "status IN ('queued', 'sending', 'sent')";

/** SQL condition, true while both caps allow one more SMS; parameters: recipient, since, account, since, cap. */
export const UNDER_CAPS = `
  (SELECT count(*) FROM messages WHERE recipient = ? AND channel = 'sms' AND created_at > ? AND ${COUNTED}) < ${SMS_PER_NUMBER_PER_HOUR}
  AND (SELECT count(*) FROM messages WHERE account_id = ? AND channel = 'sms' AND created_at > ? AND ${COUNTED}) < ?`;

export const underCapsParams = (env: Env, accountId: number, recipient: string, now: number) => [recipient, now - HOUR_MS, accountId, now - DAY_MS, dailyCap(env)];

export type CapHit = "number" | "account";

/** Which cap refused a message: read after the refusal, only to say why. */
export async function capHit(deps: { env: Env; account: Account }, recipient: string, now: number): Promise<CapHit> {
  // The per-number count sees the shard's messages only: a number texted by accounts on two shards
  // is capped per shard (docs/scaling.md).
  const row = await accountD1(deps)
    .prepare(`SELECT count(*) AS n FROM messages WHERE recipient = ? AND channel = 'sms' AND created_at > ? AND ${COUNTED}`)
    .bind(recipient, now - HOUR_MS)
    .first<{ n: number }>();
  return (row?.n ?? 0) >= SMS_PER_NUMBER_PER_HOUR ? "number" : "account";
}

export const CAP_MESSAGES: Record<CapHit, string> = {
  number: `SMS limit reached: at most ${SMS_PER_NUMBER_PER_HOUR} SMS an hour to one phone number.`,
  account: "SMS limit reached: the account has sent its daily number of SMS.",
};

export const CAP_RETRY_AFTER_SECONDS: Record<CapHit, number> = { number: 3600, account: 86_400 };
