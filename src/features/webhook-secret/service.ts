// The account's web hook signing secret: reading it, rotating it with a grace period, and which
// secrets sign a delivery at a given moment.
import { eq, sql } from "drizzle-orm";
import { accounts, type Account } from "../../db/schema";
import { directoryDb } from "../../db/directory";
import type { Deps } from "../../env";
import { evictAccount } from "../../http/account-cache";
import { newWebhookSecret } from "../../http/secrets";

/** How long a rotated-out secret keeps signing, so receivers can switch without missing events. */
const GRACE_PERIOD_MS = 24 * 60 * 60 * 1000;

type SecretColumns = Pick<Account, "webhook_secret" | "previous_webhook_secret" | "previous_webhook_secret_expires_at">;

/** The current secret first, then the previous one while its grace period lasts. */
export function signingSecrets(account: SecretColumns, now: number): string[] {
  const { webhook_secret, previous_webhook_secret: previous, previous_webhook_secret_expires_at: expiresAt } = account;
  return previous && expiresAt != null && expiresAt > now ? [webhook_secret, previous] : [webhook_secret];
}

/**
 * The secret columns as stored: the request's account may come from the per-isolate cache
 * (http/account-cache.ts), up to 30 s old when another isolate rotated the secret.
 */
export async function storedSecrets({ env, account }: Deps): Promise<Account> {
  return {
    ...account,
    ...(await directoryDb(env).query.accounts.findFirst({
      where: eq(accounts.id, account.id),
      columns: { webhook_secret: true, previous_webhook_secret: true, previous_webhook_secret_expires_at: true },
    })),
  };
}

export async function rotateWebhookSecret({ env, account, now }: Deps): Promise<Account> {
  const [updated] = await directoryDb(env)
    .update(accounts)
    .set({
      webhook_secret: newWebhookSecret(),
      // A second rotation within the grace period drops the oldest: only the last secret lingers.
      // Read in SQL (the value before this update), not from a possibly cached account.
      previous_webhook_secret: sql`${accounts.webhook_secret}`,
      previous_webhook_secret_expires_at: now + GRACE_PERIOD_MS,
      updated_at: now,
    })
    .where(eq(accounts.id, account.id))
    .returning();
  evictAccount(account.id);
  return updated;
}
