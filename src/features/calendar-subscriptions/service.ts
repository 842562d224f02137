// The private API's calendar subscriptions: subscribe a resource to an address (answered once),
// list, read, and end one (its busy times go with it). The first fetch is queued at once; the cron
// queues the rest (refresh.ts).
import { and, eq } from "drizzle-orm";
import { busyTimes, calendarSubscriptions, type CalendarSubscription } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { getResource } from "../resources/queries";
import { targetPolicy } from "../webhooks/policy";
import { addressHint, addressProblem, feedUrl } from "./address";
import { ownFeedOf } from "./own-feed";
import { queueFetch } from "./refresh";
import type { CreateCalendarSubscriptionBody } from "./schema";

/** A person or room keeps a few calendars; more is a mistake or abuse, each fetched every interval. */
const MAX_SUBSCRIPTIONS_PER_RESOURCE = 10;

const ofAccount = ({ account }: Pick<Deps, "account">) => eq(calendarSubscriptions.account_id, account.id);

export async function createCalendarSubscription(
  deps: Deps,
  input: CreateCalendarSubscriptionBody["calendar_subscription"],
): Promise<{ subscription: CalendarSubscription; url: string }> {
  // One of this service's own feeds is read in-process (own-feed.ts), so the network rule does not apply to it.
  const problem = ownFeedOf(feedUrl(input.url), deps.env) ? null : addressProblem(input.url, targetPolicy(deps.env));
  if (problem) throw ApiError.invalid("url", problem);
  await getResource(deps, input.resource_id);
  const { db, account, now } = deps;
  const existing = await db.$count(calendarSubscriptions, and(ofAccount(deps), eq(calendarSubscriptions.resource_id, input.resource_id)));
  if (existing >= MAX_SUBSCRIPTIONS_PER_RESOURCE) {
    throw ApiError.invalid("resource_id", `has ${MAX_SUBSCRIPTIONS_PER_RESOURCE} calendar subscriptions already (the most one resource may have)`);
  }
  const url = feedUrl(input.url);
  const [subscription] = await db
    .insert(calendarSubscriptions)
    .values({
      account_id: account.id,
      resource_id: input.resource_id,
      url,
      url_hint: addressHint(url),
      name: input.name ?? null,
      next_fetch_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning();
  await queueFetch(deps.env, { shard: account.shard, account_id: account.id, subscription_id: subscription.id });
  return { subscription, url };
}

export const listCalendarSubscriptions = (deps: Deps, resourceId?: number): Promise<CalendarSubscription[]> =>
  deps.db.query.calendarSubscriptions.findMany({
    where: resourceId === undefined ? ofAccount(deps) : and(ofAccount(deps), eq(calendarSubscriptions.resource_id, resourceId)),
    orderBy: calendarSubscriptions.id,
  });

export async function getCalendarSubscription(deps: Deps, id: number): Promise<CalendarSubscription> {
  const row = await deps.db.query.calendarSubscriptions.findFirst({ where: and(ofAccount(deps), eq(calendarSubscriptions.id, id)) });
  if (!row) throw ApiError.notFound("calendar subscription");
  return row;
}

/** Ends the subscription and frees its busy times in one batch. */
export async function deleteCalendarSubscription(deps: Deps, id: number): Promise<CalendarSubscription> {
  const row = await getCalendarSubscription(deps, id);
  const { db } = deps;
  await db.batch([
    db.delete(busyTimes).where(and(eq(busyTimes.account_id, deps.account.id), eq(busyTimes.subscription_id, id))),
    db.delete(calendarSubscriptions).where(and(ofAccount(deps), eq(calendarSubscriptions.id, id))),
  ]);
  return row;
}
