// Account settings written by the account itself.
import { eq } from "drizzle-orm";
import { accounts, type Account } from "../../db/schema";
import type { Deps } from "../../env";
import { assertSubdomainFree } from "../operator/service";
import type { AccountUpdate } from "./schema";

export async function updateAccount({ db, account, now }: Deps, input: AccountUpdate): Promise<Account> {
  const { remove_logo, ...changes } = input;
  if (changes.subdomain && changes.subdomain !== account.subdomain) await assertSubdomainFree(db, changes.subdomain);
  const [updated] = await db
    .update(accounts)
    .set({ ...changes, ...(remove_logo ? { logo: null } : {}), updated_at: now } as Partial<Account>)
    .where(eq(accounts.id, account.id))
    .returning();
  return updated;
}
