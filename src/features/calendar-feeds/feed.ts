// A calendar feed's answer: the bookings and events of the account (or of one resource) from 30
// days back to 365 ahead, rendered once per listing version and kept per isolate, so a calendar
// app polling every few minutes costs one small statement (the feed and the version) and, when
// it sends If-None-Match, no body (docs/decisions/calendar-feeds.md).
import { and, asc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import { bookings, calendarFeeds, events, listingVersions, people, resources, services, type Booking, type Event } from "../../db/schema";
import { SizedCache } from "../../db/sized-cache";
import { ACTIVE_STATES, effectiveState, lapsesByTime } from "../../domain/booking-states";
import type { Deps } from "../../env";
import { sha256Hex } from "../../http/secrets";
import { bookingUid, calendarText, eventUid, type CalendarEntry } from "./ics";

const DAY_MS = 86_400_000;
const WINDOW_DAYS = { back: 30, ahead: 365 } as const;
/** Bounds one feed's work and size: the earliest bookings of the window are kept. */
const MAX_FEED_BOOKINGS = 5_000;

export interface FeedRef {
  id: number;
  resource_id: number | null;
  /** The account's listing version, read before any row the body comes from (a later write can only make the entry look stale). */
  version: number;
}

interface RenderedFeed {
  version: number;
  /** The UTC day the window was computed on: the window moves daily without a write. */
  day: number;
  /** The first lapse of a booking shown awaiting verification or payment: its status changes with no write. */
  validUntil: number;
  host: string;
  name: string;
  etag: string;
  body: string;
}

/** Bounds memory per isolate (128 MB in all): a 5,000-booking feed is about 2 MB of text. */
const MAX_CHARS_KEPT = 8 * 1024 * 1024;
const rendered = new SizedCache<RenderedFeed>(MAX_CHARS_KEPT, (f) => f.body.length);

/** The feed the token opens, with the account's listing version, in one statement; null when it opens none. */
export async function feedOfToken({ db, account }: Deps, token: string): Promise<FeedRef | null> {
  const [row] = await db
    .select({
      id: calendarFeeds.id,
      resource_id: calendarFeeds.resource_id,
      version: sql<number | null>`(SELECT ${listingVersions.version} FROM ${listingVersions} WHERE ${listingVersions.account_id} = ${account.id})`,
    })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.account_id, account.id), eq(calendarFeeds.token_hash, await sha256Hex(token))))
    .limit(1);
  return row ? { ...row, version: row.version ?? 0 } : null;
}

/** The feed's answer: from this isolate while the version, the day and every shown state stand, else rendered anew. */
export async function feedAnswer(deps: Deps, feed: FeedRef, host: string): Promise<RenderedFeed> {
  const { account, now } = deps;
  const key = `${account.id}|${account.shard}|${feed.id}`;
  const day = Math.floor(now / DAY_MS);
  const hit = rendered.get(key);
  if (hit && hit.version === feed.version && hit.day === day && now < hit.validUntil && hit.host === host && hit.name === account.name) return hit;
  const { entries, validUntil } = await feedEntries(deps, feed, day, host);
  const body = calendarText({ name: account.name, product: "calendar feed", entries });
  const answer = { version: feed.version, day, validUntil, host, name: account.name, etag: `"${(await sha256Hex(body)).slice(0, 32)}"`, body };
  rendered.set(key, answer);
  return answer;
}

const statusOf = (booking: Booking, now: number): CalendarEntry["status"] => {
  const state = effectiveState(booking, now);
  if (state === "confirmed") return "confirmed";
  return ACTIVE_STATES.has(state) ? "tentative" : "cancelled";
};

async function feedEntries({ db, account, now }: Deps, feed: FeedRef, day: number, host: string) {
  const from = (day - WINDOW_DAYS.back) * DAY_MS;
  const to = (day + WINDOW_DAYS.ahead + 1) * DAY_MS;
  const ofResource = (column: typeof bookings.resource_id | typeof events.resource_id): SQL | undefined =>
    feed.resource_id === null ? undefined : eq(column, feed.resource_id);
  const [rows, eventRows, resourceRows, serviceRows] = await db.batch([
    db
      .select({ booking: bookings, person: { name: people.name, email: people.email, phone: people.phone_e164 } })
      .from(bookings)
      .leftJoin(people, and(eq(people.id, bookings.person_id), eq(people.account_id, account.id)))
      .where(and(eq(bookings.account_id, account.id), ofResource(bookings.resource_id), lt(bookings.booked_from, to), gt(bookings.booked_to, from)))
      .orderBy(asc(bookings.booked_from))
      .limit(MAX_FEED_BOOKINGS),
    db
      .select()
      .from(events)
      .where(and(eq(events.account_id, account.id), ofResource(events.resource_id), lt(events.starts_at, to), gt(events.ends_at, from))),
    db.select({ id: resources.id, title: resources.title }).from(resources).where(eq(resources.account_id, account.id)),
    db.select({ id: services.id, title: services.title }).from(services).where(eq(services.account_id, account.id)),
  ]);
  const resourceTitle = new Map(resourceRows.map((r) => [r.id, r.title]));
  const serviceTitle = new Map(serviceRows.map((s) => [s.id, s.title]));
  const seats = new Map<number, number>();
  const lastChange = new Map<number, number>();
  let validUntil = Number.POSITIVE_INFINITY;
  const entries: CalendarEntry[] = [];
  for (const { booking, person } of rows) {
    if (lapsesByTime(booking.state) && booking.expires_at !== null && booking.expires_at > now) validUntil = Math.min(validUntil, booking.expires_at);
    if (booking.event_id !== null) {
      // A booking of an event is one seat count of the event's entry, not an entry of its own.
      if (ACTIVE_STATES.has(effectiveState(booking, now))) seats.set(booking.event_id, (seats.get(booking.event_id) ?? 0) + booking.count);
      lastChange.set(booking.event_id, Math.max(lastChange.get(booking.event_id) ?? 0, booking.updated_at));
      continue;
    }
    const what = (booking.service_id !== null ? serviceTitle.get(booking.service_id) : null) ?? booking.title ?? "Booking";
    entries.push({
      uid: bookingUid(booking.id, host),
      from: booking.booked_from,
      to: booking.booked_to,
      title: person?.name ? `${what}: ${person.name}` : what,
      location: resourceTitle.get(booking.resource_id) ?? null,
      description: [`Booking ${booking.id} (${effectiveState(booking, now)})`, booking.count > 1 ? `${booking.count} booked` : null, person?.phone, person?.email]
        .filter(Boolean)
        .join("\n"),
      sequence: booking.revision,
      status: statusOf(booking, now),
      stamp: booking.updated_at,
    });
  }
  for (const event of eventRows)
    entries.push(eventEntry(event, seats.get(event.id) ?? 0, lastChange.get(event.id) ?? 0, feed.version, host, serviceTitle, resourceTitle));
  return { entries, validUntil };
}

/**
 * An event with the seats its active bookings hold. Its SEQUENCE is the account's listing version,
 * which every write of the event or of its bookings bumps and which never falls.
 */
function eventEntry(
  event: Event,
  booked: number,
  bookingsChanged: number,
  version: number,
  host: string,
  serviceTitle: Map<number, string | null>,
  resourceTitle: Map<number, string | null>,
): CalendarEntry {
  const title = event.title ?? serviceTitle.get(event.service_id) ?? "Event";
  return {
    uid: eventUid(event.id, host),
    from: event.starts_at,
    to: event.ends_at,
    title: `${title} (${booked}/${event.capacity} booked)`,
    location: resourceTitle.get(event.resource_id) ?? null,
    description: `Event ${event.id}: ${booked} of ${event.capacity} seats booked`,
    sequence: version,
    status: event.active ? "confirmed" : "cancelled",
    stamp: Math.max(event.updated_at, bookingsChanged),
  };
}
