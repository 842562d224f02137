// The account's calendar feeds: create or rotate (answering the secret URL once), list, delete.
import { and, eq, isNull } from "drizzle-orm";
import { calendarFeeds, type CalendarFeed } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { randomToken, sha256Hex } from "../../http/secrets";
import { getResource } from "../resources/queries";

/** `cal_` + 32 random bytes in URL-safe base64 (256 bits): only its SHA-256 is stored. */
const newFeedToken = () => randomToken("cal_", 32);

const ofAccount = ({ account }: Deps) => eq(calendarFeeds.account_id, account.id);

/**
 * Creates the feed of the scope, or replaces it: the old token's row is deleted in the same batch,
 * so its URL answers 404 from the next request on. D1 runs batches one at a time, so two racing
 * rotations leave one feed.
 */
export async function rotateCalendarFeed(deps: Deps, resourceId: number | null): Promise<{ feed: CalendarFeed; token: string }> {
  if (resourceId !== null) await getResource(deps, resourceId);
  const token = newFeedToken();
  const { db, account, now } = deps;
  const scope = and(ofAccount(deps), resourceId === null ? isNull(calendarFeeds.resource_id) : eq(calendarFeeds.resource_id, resourceId));
  const [, [feed]] = await db.batch([
    db.delete(calendarFeeds).where(scope),
    db
      .insert(calendarFeeds)
      .values({ account_id: account.id, resource_id: resourceId, token_hash: await sha256Hex(token), created_at: now })
      .returning(),
  ]);
  return { feed, token };
}

export const listCalendarFeeds = (deps: Deps): Promise<CalendarFeed[]> => deps.db.query.calendarFeeds.findMany({ where: ofAccount(deps), orderBy: calendarFeeds.id });

export async function deleteCalendarFeed(deps: Deps, id: number): Promise<CalendarFeed> {
  const [row] = await deps.db
    .delete(calendarFeeds)
    .where(and(ofAccount(deps), eq(calendarFeeds.id, id)))
    .returning();
  if (!row) throw ApiError.notFound("calendar feed");
  return row;
}
