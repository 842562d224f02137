// The account's availability version (drizzle/0006): bumped by triggers in the statement of every
// write that can change a slot answer or a booking's fit. Read beside other reads in one batch,
// it dates them: equal versions mean no such write committed in between. No row reads as 0.
import { eq } from "drizzle-orm";
import type { Db } from "../env";
import { availabilityVersions } from "./schema";

export const availabilityVersionQuery = (db: Db, accountId: number) =>
  db.select({ version: availabilityVersions.version }).from(availabilityVersions).where(eq(availabilityVersions.account_id, accountId));

/** The version a batch read (its rows), 0 when the account has none yet. */
export const versionOf = (rows: { version: number }[]): number => Number(rows[0]?.version ?? 0);
