// The people list query (GET /people, /people/all, children) as SQL conditions, and paging.
import { and, asc, eq, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { people, type Person } from "../../db/schema";
import type { Deps } from "../../env";
import { pageOf, syncPageOf } from "../../db/page";
import { changedSince } from "../../db/sync-order";
import { parseDateTimeInput } from "../../domain/time";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { nationalIdKeys } from "../../config";
import { nationalIdIs, phoneE164 } from "./identity";
import type { PeopleQuery } from "./schema";

/** `%` and `_` in a search term are literal characters, not wildcards. */
const contains = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const like = (column: AnyColumn, term: string) => sql`${column} LIKE ${contains(term)} ESCAPE '\\'`;

export function peopleFilters({ account, env }: Deps, query: PeopleQuery): SQL[] {
  const conditions: SQL[] = [];
  const country = account.country_code;
  const keys = nationalIdKeys(env);
  if (query.search?.trim()) {
    const term = query.search.trim();
    const e164 = phoneE164(term, country);
    // SQLite's LIKE ignores case (ASCII letters), which is what a search box wants. A sealed national
    // id is found only whole, through its keyed hash: no part of it is stored readable (personal-data.md).
    const nationalId = keys ? nationalIdIs(keys, account.id, term) : like(people.national_id_no, term);
    const matches = [like(people.email, term), like(people.phone_number, term), nationalId, like(people.name, term)];
    if (e164) matches.push(eq(people.phone_e164, e164));
    conditions.push(or(...matches)!);
  }
  if (query.email !== undefined) conditions.push(eq(people.email, query.email.trim().toLowerCase()));
  if (query.phone_number !== undefined) {
    const e164 = phoneE164(query.phone_number, country);
    // A number that cannot be read names nobody, rather than every person without a phone.
    conditions.push(e164 ? eq(people.phone_e164, e164) : sql`0`);
  }
  if (query.external_id !== undefined) conditions.push(eq(people.external_id, query.external_id));
  if (query.name !== undefined) conditions.push(sql`${people.name} = ${query.name.trim()} COLLATE NOCASE`);
  if (query.date_of_birth !== undefined) conditions.push(eq(people.date_of_birth, query.date_of_birth));
  if (query.national_id_no !== undefined) conditions.push(nationalIdIs(keys, account.id, query.national_id_no));
  if (query.since !== undefined) {
    const since = parseDateTimeInput(query.since, account.time_zone);
    if (since === null) throw ApiError.invalid("since", "is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601");
    conditions.push(changedSince(people.updated_at, since));
  }
  return conditions;
}

/**
 * One page of the account's people matching `conditions`, and how many match in all: by id, or as
 * a sync listing by (updated_at, id) when the query has `since` (docs/decisions/sync.md). `also`
 * are statements for the page's batch (the parent's existence), answered in `extra`.
 */
export async function pageOfPeople(
  { db, account }: Deps,
  conditions: (SQL | undefined)[],
  request: PageRequest,
  opts: { sync?: boolean; also?: BatchItem<"sqlite">[] } = {},
): Promise<{ rows: Person[]; total: number; nextCursor?: string | null; extra: unknown[] }> {
  const where = and(eq(people.account_id, account.id), ...conditions);
  const alongside = opts.also && (() => opts.also!);
  if (opts.sync) return syncPageOf(db, people, { updatedAt: people.updated_at, id: people.id }, where, "asc", request, alongside);
  if (request.cursor) throw ApiError.invalid("cursor", "applies only to since listings");
  return pageOf(db, people, where, [asc(people.id)], request, alongside);
}
