// The account's availability version (drizzle/0006): bumped by triggers in the statement of every
// write that can change a slot answer or a booking's fit. Read beside other reads in one batch,
// it dates them: equal versions mean no such write committed in between. No row reads as 0.
import { eq, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import { fixedStatement } from "./fixed-statement";
import { availabilityVersions } from "./schema";

/** Rendered once per isolate; bind `accountId`. Its rows are `{ version }`. */
export const availabilityVersionStatement = fixedStatement<"accountId">(() =>
  new QueryBuilder()
    .select({ version: availabilityVersions.version })
    .from(availabilityVersions)
    .where(eq(availabilityVersions.account_id, sql.placeholder("accountId"))),
);

/** The version a batch read (its rows), 0 when the account has none yet. */
export const versionOf = (rows: { version: number }[] | undefined): number => Number(rows?.[0]?.version ?? 0);
