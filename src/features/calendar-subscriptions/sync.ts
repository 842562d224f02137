// One fetch of one subscription, applied: the busy times written by difference and the status
// kept; a failure (unreachable, refused, too large, too slow, malformed) keeps the last good busy
// times and counts towards telling the account.
import { and, eq, sql } from "drizzle-orm";
import { calendarSubscriptions, type CalendarSubscription } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import { bookableWindow } from "../../domain/bookable-window";
import { addDays, addYears, startOfDay, todayIn } from "../../domain/time";
import type { Deps } from "../../env";
import { forgetVersion } from "../slots/answer-cache";
import { targetPolicy } from "../webhooks/policy";
import { mergeSpans, spanChanges, type Span } from "./busy-rows";
import { fetchFeed } from "./fetch";
import { FAILURES_BEFORE_NOTICE, noticeFailing } from "./notice";
import { ownFeedOf, readOwnFeed } from "./own-feed";

/** Without a booking horizon, busy times are read this far ahead. */
const HORIZON_WITHOUT_LIMIT_YEARS = 1;
/** D1 binds at most 100 values per statement: five per busy row. */
const ROWS_PER_INSERT = 19;

/**
 * From the start of today to the day after the last bookable one, in the account's zone: whole
 * days, so the window (and the clipping of events at its edges) moves once a day, not every fetch.
 */
function expansionWindow(deps: Pick<Deps, "account" | "now">): Span {
  const zone = deps.account.time_zone;
  const today = todayIn(deps.now, zone);
  const latest = bookableWindow(deps.now, deps.account, zone).latest;
  const lastDay = Number.isFinite(latest) ? todayIn(latest, zone) : addYears(today, HORIZON_WITHOUT_LIMIT_YEARS);
  return { from: startOfDay(today, zone), to: startOfDay(addDays(lastDay, 1), zone) };
}

export type FetchResult = { kind: "unchanged" } | { kind: "synced"; added: number; removed: number } | { kind: "failed"; error: string };

export async function syncSubscription(deps: Deps, subscription: CalendarSubscription): Promise<FetchResult> {
  const validators = { etag: subscription.etag, lastModified: subscription.last_modified };
  const own = ownFeedOf(subscription.url, deps.env);
  const outcome = own ? await readOwnFeed(deps.env, own, validators, deps.now) : await fetchFeed(subscription.url, validators, targetPolicy(deps.env));
  if (outcome.kind === "failed") return recordFailure(deps, subscription, outcome.error);
  if (outcome.kind === "unchanged") {
    await recordStatus(deps, subscription, {});
    return { kind: "unchanged" };
  }
  const { busyTimesOf, MalformedFeed } = await import("./busy-times");
  let parsed: ReturnType<typeof busyTimesOf>;
  try {
    parsed = busyTimesOf(outcome.text, expansionWindow(deps), { floatingZone: deps.account.time_zone });
  } catch (error) {
    if (error instanceof MalformedFeed) return recordFailure(deps, subscription, `the feed is not an iCalendar file: ${error.message}`);
    throw error;
  }
  const wanted = mergeSpans(parsed.busy);
  const d1 = accountD1(deps);
  const stored = (
    await d1
      .prepare('SELECT id, occupied_from AS "from", occupied_to AS "to" FROM busy_times WHERE subscription_id = ? AND account_id = ?')
      .bind(subscription.id, deps.account.id)
      .all<Span & { id: number }>()
  ).results;
  const { remove, add } = spanChanges(stored, wanted);
  // Written only while the subscription exists: a delete racing this fetch must not leave busy times behind.
  const exists = "EXISTS (SELECT 1 FROM calendar_subscriptions WHERE id = ? AND account_id = ?)";
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < remove.length; i += 90) {
    const ids = remove.slice(i, i + 90);
    statements.push(d1.prepare(`DELETE FROM busy_times WHERE account_id = ? AND id IN (${ids.map(() => "?").join(", ")})`).bind(deps.account.id, ...ids));
  }
  for (let i = 0; i < add.length; i += ROWS_PER_INSERT) {
    const rows = add.slice(i, i + ROWS_PER_INSERT);
    statements.push(
      d1
        .prepare(
          `INSERT INTO busy_times (account_id, resource_id, subscription_id, occupied_from, occupied_to)
       SELECT * FROM (VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}) WHERE ${exists}`,
        )
        .bind(...rows.flatMap((r) => [deps.account.id, subscription.resource_id, subscription.id, r.from, r.to]), subscription.id, deps.account.id),
    );
  }
  statements.push(
    statusStatement(deps, subscription, {
      etag: outcome.etag,
      last_modified: outcome.lastModified,
      events_read: parsed.eventsRead,
      busy_count: wanted.length,
    }),
  );
  await d1.batch(statements);
  // This isolate's cached slot answers of the account read their versions again, as after a write request.
  if (add.length || remove.length) forgetVersion(deps.account.id);
  return { kind: "synced", added: add.length, removed: remove.length };
}

type StatusFields = Partial<Pick<CalendarSubscription, "etag" | "last_modified" | "events_read" | "busy_count">>;

/** A good fetch: its time, its counts and validators, and the failures forgotten. */
function statusStatement(deps: Deps, subscription: CalendarSubscription, fields: StatusFields) {
  const sets = Object.keys(fields).map((column) => `${column} = ?`);
  return accountD1(deps)
    .prepare(
      `UPDATE calendar_subscriptions SET ${[...sets, "last_fetched_at = ?", "last_success_at = ?", "failures = 0", "updated_at = ?"].join(", ")}
      WHERE id = ? AND account_id = ?`,
    )
    .bind(...Object.values(fields), deps.now, deps.now, deps.now, subscription.id, deps.account.id);
}

const recordStatus = (deps: Deps, subscription: CalendarSubscription, fields: StatusFields) => statusStatement(deps, subscription, fields).run();

/** The error kept on the subscription; its busy times stay as the last good fetch left them. The account is told once. */
async function recordFailure(deps: Deps, subscription: CalendarSubscription, error: string): Promise<FetchResult> {
  const failed = await deps.db
    .update(calendarSubscriptions)
    .set({
      last_fetched_at: deps.now,
      last_error: error.slice(0, 500),
      last_error_at: deps.now,
      failures: sql`${calendarSubscriptions.failures} + 1`,
      updated_at: deps.now,
    })
    .where(and(eq(calendarSubscriptions.id, subscription.id), eq(calendarSubscriptions.account_id, deps.account.id)))
    .returning();
  if (failed[0]?.failures === FAILURES_BEFORE_NOTICE) await noticeFailing(deps, failed[0]);
  return { kind: "failed", error };
}
