// The account's web hook signing secret: reading it, rotating it with a grace period, and which
// secrets sign a delivery at a given moment.
import { eq } from "drizzle-orm";
import { accounts, type Account } from "../../db/schema";
import type { Deps } from "../../env";
import { newWebhookSecret } from "../../http/secrets";

/** How long a rotated-out secret keeps signing, so receivers can switch without missing events. */
export const GRACE_PERIOD_MS = 24 * 60 * 60 * 1000;

type SecretColumns = Pick<Account, "webhook_secret" | "previous_webhook_secret" | "previous_webhook_secret_expires_at">;

/** The current secret first, then the previous one while its grace period lasts. */
export function signingSecrets(account: SecretColumns, now: number): string[] {
  const { webhook_secret, previous_webhook_secret: previous, previous_webhook_secret_expires_at: expiresAt } = account;
  return previous && expiresAt != null && expiresAt > now ? [webhook_secret, previous] : [webhook_secret];
}

export async function rotateWebhookSecret({ db, account, now }: Deps): Promise<Account> {
  const [updated] = await db
    .update(accounts)
    .set({
      webhook_secret: newWebhookSecret(),
      // A second rotation within the grace period drops the oldest: only the last secret lingers.
      previous_webhook_secret: account.webhook_secret,
      previous_webhook_secret_expires_at: now + GRACE_PERIOD_MS,
      updated_at: now,
    })
    .where(eq(accounts.id, account.id))
    .returning();
  return updated;
}
