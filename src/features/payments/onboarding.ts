// Linking a shop's own Stripe account (docs/decisions/payments.md): the platform makes a connected
// account for it (once: an idempotency key per account) and answers Stripe's onboarding link, where
// the shop gives Stripe what it needs to be paid. The operator may link an existing account too.
import { and, eq, isNull } from "drizzle-orm";
import { directoryDb } from "../../db/directory";
import { accounts, type Account } from "../../db/schema";
import type { Deps } from "../../env";
import { evictAccount } from "../../http/account-cache";
import { siteOriginOf } from "../waitlist/offer-message";
import { paymentProvider } from "./provider-of";

export async function stripeOnboarding(deps: Deps): Promise<{ account: Account; url: string }> {
  const provider = await paymentProvider(deps.env);
  let account = deps.account;
  if (!account.stripe_account_id) {
    const { accountId } = await provider.createConnectedAccount({ email: account.email, country: account.country_code, idempotencyKey: `connect-account:${account.id}` });
    const db = directoryDb(deps.env);
    // Only while none is linked: two onboardings at once link the same account (one idempotency key).
    const [linked] = await db
      .update(accounts)
      .set({ stripe_account_id: accountId, updated_at: deps.now })
      .where(and(eq(accounts.id, account.id), isNull(accounts.stripe_account_id)))
      .returning();
    account = linked ?? (await db.query.accounts.findFirst({ where: eq(accounts.id, account.id) })) ?? account;
    evictAccount(account.id);
  }
  const site = siteOriginOf(deps);
  const { url } = await provider.onboardingLink(account.stripe_account_id!, `${site}/?stripe=refresh`, `${site}/?stripe=return`);
  return { account, url };
}
