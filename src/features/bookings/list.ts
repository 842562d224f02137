// The booking listings (/bookings and its variants, a person's and an event's bookings): which
// states each shows (spec: Listing rules) and how the query parameters filter them.
import { eq, ne, sql, type SQL } from "drizzle-orm";
import { bookings } from "../../db/schema";
import { inIds } from "../../db/id-list";
import { changedSince, type SyncDirection } from "../../db/sync-order";
import type { BookingState } from "../../domain/booking-states";
import { parseDateTimeInput, startOfDay } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { ACTIVE, inEffectiveStates, isActiveSql, ownerExists, pageOfBookings, syncPageOfBookings, type ListChecks, type ListFreshness } from "./queries";
import type { ListQuery } from "./schema";
import type { ListedBooking, ListedRelated } from "./serializer";

export const LISTINGS = ["active", "recent", "upcoming", "unconfirmed", "all", "visible"] as const;
export type Listing = (typeof LISTINGS)[number];

export type Owner = { kind: "account" } | { kind: "person"; id: number } | { kind: "event"; id: number };

/** Listings with a fixed set of states; a `state` filter narrows them. */
const FIXED_STATES: Partial<Record<Listing, readonly BookingState[]>> = {
  // Bookings waiting for the administrator; unverified ones wait for the customer first.
  unconfirmed: ["awaiting_confirmation"],
  visible: [...ACTIVE, "declined", "cancelled"],
};

/** Listing rule 1: which states a listing shows. */
function stateCondition(deps: Deps, listing: Listing, query: ListQuery, owner: Owner): SQL | undefined {
  const fixed = FIXED_STATES[listing];
  if (fixed) {
    const wanted = query.state ? fixed.filter((s) => query.state!.includes(s)) : fixed;
    return inEffectiveStates(wanted, deps.now);
  }
  if (query.state) return inEffectiveStates(query.state, deps.now);
  if (listing === "all") return undefined;
  if (listing === "active") {
    const everyBooking = owner.kind === "person" || query.resource_id !== undefined || query.start !== undefined || query.end !== undefined;
    if (everyBooking) return ne(bookings.state, "deleted");
  }
  return isActiveSql(deps.now);
}

function instant(deps: Deps, attribute: string, text: string): number {
  const value = parseDateTimeInput(text, deps.account.time_zone);
  if (value === null) throw ApiError.invalid(attribute, "is not a valid datetime: use YYYY-MM-DD hh:mm or ISO 8601");
  return value;
}

function filters(deps: Deps, listing: Listing, query: ListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.service_id) conditions.push(inIds(bookings.service_id, query.service_id));
  if (query.event_id) conditions.push(inIds(bookings.event_id, query.event_id));
  if (query.resource_id) conditions.push(inIds(bookings.resource_id, query.resource_id));
  if (query.person_id) conditions.push(inIds(bookings.person_id, query.person_id));
  if (query.external_id !== undefined) conditions.push(eq(bookings.external_id, query.external_id));
  if (query.collection_id !== undefined) conditions.push(eq(bookings.collection_id, query.collection_id));
  if (query.status) conditions.push(sql`${bookings.status} IN (select value from json_each(${JSON.stringify(query.status)}))`);
  if (query.start !== undefined) conditions.push(sql`${bookings.booked_from} >= ${instant(deps, "start", query.start)}`);
  if (query.end !== undefined) conditions.push(sql`${bookings.booked_to} <= ${instant(deps, "end", query.end)}`);
  if (query.since !== undefined) conditions.push(changedSince(bookings.updated_at, instant(deps, "since", query.since)));
  if (listing === "upcoming") {
    const from = query.from !== undefined ? startOfDay(query.from, deps.account.time_zone) : deps.now;
    conditions.push(sql`${bookings.booked_to} > ${from}`);
  }
  return conditions;
}

/** The owner's condition; whether the owner is the account's is read in the page's batch (queries.ts). */
function ownerCondition(owner: Owner): SQL | undefined {
  if (owner.kind === "person") return eq(bookings.person_id, owner.id);
  if (owner.kind === "event") return eq(bookings.event_id, owner.id);
  return undefined;
}

/**
 * Sync listings (docs/decisions/sync.md) page by (updated_at, id): `recent` newest first, any other
 * listing with `since` oldest first, unless the caller asked for an order of their own.
 */
function syncDirection(listing: Listing, query: ListQuery): SyncDirection | null {
  if (listing === "recent") return "desc";
  if (query.since !== undefined && query.order === undefined) return "asc";
  return null;
}

export async function listBookings(
  deps: Deps,
  listing: Listing,
  query: ListQuery,
  request: PageRequest,
  owner: Owner = { kind: "account" },
): Promise<{ rows: ListedBooking[]; total: number; nextCursor?: string | null; related: ListedRelated; freshness: ListFreshness }> {
  const direction = syncDirection(listing, query);
  if (request.cursor && !direction) {
    throw ApiError.invalid("cursor", "applies only to since listings without an order, and to recent");
  }
  const conditions = [ownerCondition(owner), stateCondition(deps, listing, query, owner), ...filters(deps, listing, query)].filter((c): c is SQL => c !== undefined);
  const checks: ListChecks = { owner: owner.kind === "account" ? undefined : ownerExists(deps, owner), endsWithTime: listing === "upcoming" && query.from === undefined };
  const page = direction
    ? await syncPageOfBookings(deps, conditions, direction, request, checks)
    : await pageOfBookings(deps, conditions, query.order === "booked_from_desc" ? "booked_from_desc" : "booked_from", request, checks);
  // In the same snapshot as the rows: a person or event deleted meanwhile is a 404, not an empty list.
  if (!page.freshness.ownerFound) throw ApiError.notFound(owner.kind);
  return page;
}
