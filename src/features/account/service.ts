// Account settings written by the account itself, and the holidays of its country.
import { eq } from "drizzle-orm";
import { accounts, type Account } from "../../db/schema";
import type { Holiday } from "../../domain/holidays";
import { loadHolidays } from "../../domain/load-holidays";
import { addDays, addYears, todayIn } from "../../domain/time";
import { directoryDb } from "../../db/directory";
import type { Deps } from "../../env";
import { evictAccount } from "../../http/account-cache";
import { ApiError } from "../../http/errors";
import { assertSubdomainFree } from "../operator/service";
import type { AccountUpdate, HolidaysQuery } from "./schema";

/** The widest holiday range one request may ask for. */
const MAX_HOLIDAY_YEARS = 3;

export async function updateAccount({ env, account, now }: Deps, input: AccountUpdate): Promise<Account> {
  const db = directoryDb(env);
  const { remove_logo, ...changes } = input;
  if (changes.subdomain && changes.subdomain !== account.subdomain) await assertSubdomainFree(db, changes.subdomain);
  const [updated] = await db
    .update(accounts)
    .set({ ...changes, ...(remove_logo ? { logo: null } : {}), updated_at: now } as Partial<Account>)
    .where(eq(accounts.id, account.id))
    .returning();
  evictAccount(account.id);
  return updated;
}

/** Defaults: from today in the account zone, to one year later less a day (a full year ahead). */
export async function listHolidays({ account, now }: Deps, query: HolidaysQuery): Promise<Holiday[]> {
  const from = query.from ?? todayIn(now, account.time_zone);
  const to = query.to ?? addDays(addYears(from, 1), -1);
  if (to < from) throw ApiError.invalid("to", "must be on or after from");
  if (to >= addYears(from, MAX_HOLIDAY_YEARS)) throw ApiError.invalid("to", `must be less than ${MAX_HOLIDAY_YEARS} years after from`);
  return (await loadHolidays()).publicHolidays(account.country_code, account.locale, from, to);
}
