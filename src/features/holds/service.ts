// Slot holds (docs/decisions/holds.md): seats of one time held while a visitor fills in the form.
// Taken through the CapacityGuard of their scope with the same fits condition as a booking, so a
// hold that does not fit is refused like one; a hold lapses by time alone; released early by its
// holder (the secret on the booking site, the key on the private API); converted by a booking.
import { and, eq, isNull } from "drizzle-orm";
import { slotHolds, type SlotHold } from "../../db/schema";
import { followBookmark } from "../../db/request-scope";
import { occupiedSpan } from "../../domain/buffers";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { randomToken, secretsEqual, sha256Hex } from "../../http/secrets";
import { placeSlot, EVENT_FULL, FULLY_BOOKED } from "../bookings/create";
import { holdEnding } from "./ending";
import { MAX_HOLD_MINUTES, MAX_LIVE_HOLDS_PER_ACCOUNT, MAX_LIVE_HOLDS_PER_VISITOR } from "./limits";
import { holdOfAccount, insertHoldStatement, limitReadStatement, type HoldColumns } from "./queries";
import type { CreateHoldBody } from "./schema";

const MINUTE_MS = 60_000;

/** Who asks: a visitor of the booking site (by address) or the account's own key. */
export type Holder = { kind: "visitor"; address: string } | { kind: "key" };

const notFound = () => ApiError.notFound("slot hold");

function tooManyHolds(why: string, firstLapse: number | null, now: number): ApiError {
  const seconds = Math.max(1, Math.ceil(((firstLapse ?? now + MINUTE_MS) - now) / 1000));
  return new ApiError(429, { error: why }, { "Retry-After": String(seconds) });
}

/** The visitor's key for the per-visitor limit: their address as the rate limiter groups it, keyed by account. */
const clientHashOf = (deps: Deps, holder: Holder) =>
  holder.kind === "visitor" ? sha256Hex(`${deps.account.id}|${holder.address}`) : Promise.resolve(null);

export async function createHold(deps: Deps, body: CreateHoldBody, holder: Holder): Promise<{ hold: SlotHold; secret: string }> {
  const onSite = holder.kind === "visitor";
  if (onSite && !deps.account.slot_holds_enabled) {
    throw new ApiError(403, { error: "This booking site does not hold times: slot holds are not enabled for the account." });
  }
  const input = body.slot_hold;
  if (!input.event_id && !input.service_id) throw ApiError.invalid("service_id", "can't be blank");
  // A hold is placed as a booking of the same input would be, under the site's public rules.
  const placement = await placeSlot(deps, input, onSite);
  if (!placement.service) throw ApiError.invalid("service_id", "can't be blank");
  const service = placement.service;
  const count = input.count ?? 1;
  if (service.booking_capacity && count > service.booking_capacity) {
    throw ApiError.invalid("count", "More than maximum count per booking");
  }
  const secret = randomToken("", 32);
  const minutes = Math.min(Math.max(deps.account.slot_hold_minutes, 1), MAX_HOLD_MINUTES);
  const occupied = occupiedSpan(placement.from, placement.to, placement.buffers);
  const base = {
    account_id: deps.account.id,
    service_id: service.id,
    event_id: placement.eventId,
    booked_from: placement.from,
    booked_to: placement.to,
    occupied_from: occupied.from,
    occupied_to: occupied.to,
    count,
    secret_hash: await sha256Hex(secret),
    client_hash: await clientHashOf(deps, holder),
    expires_at: deps.now + minutes * MINUTE_MS,
    ended_at: null,
    ended_by: null,
    booking_id: null,
    created_at: deps.now,
  };
  let limits: { account_live: number; visitor_live: number; visitor_first_lapse: number | null; account_first_lapse: number | null } | undefined;
  for (const { resource, scope } of placement.candidates) {
    const values: HoldColumns = { ...base, resource_id: resource.id };
    const window = { from: placement.eventId ? placement.from : occupied.from, to: placement.eventId ? placement.to : occupied.to, count, now: deps.now };
    const result = await deps.capacityGuard.apply(scope, {
      statements: [insertHoldStatement(values, scope, window), limitReadStatement(values, deps.now)],
      atomic: true,
    });
    if (result.failure) throw new Error(result.failure);
    followBookmark(result.shard, result.bookmark);
    if (result.applied) return { hold: { ...values, id: Number(result.rows[0][0].id) }, secret };
    limits = result.rows[1]?.[0] as typeof limits;
    if (limits && limits.account_live >= MAX_LIVE_HOLDS_PER_ACCOUNT) break;
    if (limits && onSite && limits.visitor_live >= MAX_LIVE_HOLDS_PER_VISITOR) break;
  }
  if (limits && onSite && limits.visitor_live >= MAX_LIVE_HOLDS_PER_VISITOR) {
    throw tooManyHolds(`Too many held times: a visitor may hold ${MAX_LIVE_HOLDS_PER_VISITOR} at once. Book or release one first.`, limits.visitor_first_lapse, deps.now);
  }
  if (limits && limits.account_live >= MAX_LIVE_HOLDS_PER_ACCOUNT) {
    throw tooManyHolds(`Too many held times on this account: at most ${MAX_LIVE_HOLDS_PER_ACCOUNT} at once.`, limits.account_first_lapse, deps.now);
  }
  throw placement.eventId ? ApiError.invalid("event_id", EVENT_FULL) : ApiError.invalid("booked_from", FULLY_BOOKED);
}

/**
 * The account's hold by id, for its holder: on the booking site only with its secret, and a
 * missing or wrong secret looks exactly like an unknown id.
 */
export async function holdFor(deps: Deps, id: number, holder: Holder, secret: string | undefined): Promise<SlotHold> {
  if (holder.kind === "visitor" && !secret) throw notFound();
  const hold = await deps.db.query.slotHolds.findFirst({ where: holdOfAccount(deps, id) });
  if (!hold) throw notFound();
  if (holder.kind === "visitor" && !(await secretsEqual(await sha256Hex(secret!), hold.secret_hash))) throw notFound();
  return hold;
}

/** Ends a live hold at once: its seats are free for the next request. An ended or lapsed hold stays as it is. */
export async function releaseHold(deps: Deps, id: number, holder: Holder, secret: string | undefined): Promise<SlotHold> {
  const hold = await holdFor(deps, id, holder, secret);
  if (holdEnding(hold, deps.now) !== null) return hold;
  // Releasing only frees capacity, so it needs no guard; the version triggers tell every cache.
  const [released] = await deps.db.update(slotHolds).set({ ended_at: deps.now, ended_by: "released" })
    .where(and(eq(slotHolds.id, hold.id), isNull(slotHolds.ended_at))).returning();
  // None: a booking converted it meanwhile, which is how it stands now.
  return released ?? (await holdFor(deps, id, { kind: "key" }, undefined));
}
