// Slot holds (docs/decisions/holds.md): seats of one time held while a visitor fills in the form.
// Taken through the CapacityGuard of their scope with the same fits condition as a booking, so a
// hold that does not fit is refused like one; a hold lapses by time alone; released early by its
// holder (the secret on the booking site, the key on the private API); converted by a booking.
import { and, isNull } from "drizzle-orm";
import { slotHolds, type SlotHold } from "../../db/schema";
import { followBookmark } from "../../db/request-scope";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { randomToken, secretsEqual, sha256Hex } from "../../http/secrets";
import { placeSlot, EVENT_FULL, FULLY_BOOKED } from "../bookings/placement";
import { holdEnding } from "./ending";
import { MAX_HOLD_MINUTES, MAX_LIVE_HOLDS_PER_ACCOUNT, MAX_LIVE_HOLDS_PER_VISITOR } from "./limits";
import { holdExpiry, holdOfAccount, holdWindow, insertHoldStatement, limitReadStatement, newHoldColumns, type HoldColumns } from "./queries";
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
const clientHashOf = (deps: Deps, holder: Holder) => (holder.kind === "visitor" ? sha256Hex(`${deps.account.id}|${holder.address}`) : Promise.resolve(null));

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
  const base = newHoldColumns(deps, placement, {
    serviceId: service.id,
    count,
    secretHash: await sha256Hex(secret),
    clientHash: await clientHashOf(deps, holder),
    expiresAt: holdExpiry(deps.now, minutes),
  });
  const window = holdWindow(base, deps.now);
  let limits: { account_live: number; visitor_live: number; visitor_first_lapse: number | null; account_first_lapse: number | null } | undefined;
  for (const { resource, scope } of placement.candidates) {
    const values: HoldColumns = { ...base, resource_id: resource.id };
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
  // None: a booking converted it meanwhile, which is how it stands now.
  return (await endHold(deps, hold.id)) ?? (await holdFor(deps, id, { kind: "key" }, undefined));
}

/**
 * Releases the account's hold if it has not ended (a visitor's, or a declined waitlist offer's).
 * Releasing only frees capacity, so it needs no guard; the version triggers tell every cache.
 */
async function endHold(deps: Deps, holdId: number): Promise<SlotHold | undefined> {
  const [released] = await deps.db
    .update(slotHolds)
    .set({ ended_at: deps.now, ended_by: "released" })
    .where(and(holdOfAccount(deps, holdId), isNull(slotHolds.ended_at)))
    .returning();
  return released;
}
