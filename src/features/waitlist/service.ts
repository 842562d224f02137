// The waitlist (docs/decisions/waitlist.md): a visitor or an integrator joins the line of a full
// time or event with the person attributes a booking takes, and gets a token that opens their
// place (to see it, leave it, or accept an offer). Offers are made by offers.ts.
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { slotHolds, waitlistEntries, type WaitlistEntry } from "../../db/schema";
import { accountD1 } from "../../db/shards";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { randomToken, secretsEqual, sha256Hex } from "../../http/secrets";
import { fitsCondition } from "../bookings/capacity-sql";
import { placeSlot } from "../bookings/placement";
import { lookUpPerson, personError } from "../bookings/person-link";
import { createOnSite } from "../bookings/site";
import { occupiedSpan } from "../../domain/buffers";
import { emitEvent, performedByOf } from "../webhooks/emit";
import type { JoinWaitlistBody } from "./schema";
import { offerFreedSeats } from "./offers";
import { holdOfAccount } from "../holds/queries";
import { toWaitlistJson } from "./serializer";

/** Who asks: a visitor by the entry's token (booking site), or the account's key. */
export type Asker = { kind: "visitor"; token: string | undefined } | { kind: "key" };

const notFound = () => ApiError.notFound("waitlist entry");

const emit = (deps: Deps, event: "waitlist.joined" | "waitlist.accepted", entry: WaitlistEntry) =>
  emitEvent(
    deps.env,
    deps.account,
    event,
    { kind: "waitlist_entry", id: entry.id, json: toWaitlistJson(entry, deps.account.time_zone) },
    performedByOf(deps.surface),
    deps.now,
  );

export async function joinWaitlist(deps: Deps, body: JoinWaitlistBody, asker: Asker): Promise<{ entry: WaitlistEntry; token: string }> {
  if (asker.kind === "visitor" && !deps.account.waitlist_enabled) {
    throw new ApiError(403, { error: "This booking site has no waitlist: the account has not enabled it." });
  }
  const input = body.waitlist_entry;
  if (!input.event_id && !input.service_id) throw ApiError.invalid("service_id", "can't be blank");
  const person = lookUpPerson(deps, { person_attributes: input.person_attributes });
  const placement = await placeSlot(deps, input, asker.kind === "visitor", [person.reads]);
  const plan = person.decide(placement.moreReads[0]);
  if (plan.kind === "none") throw personError(["can't be blank"]);
  if (!placement.service) throw ApiError.invalid("service_id", "can't be blank");
  const count = input.count ?? 1;
  // A line is for a time that is full: a seat that fits now is booked, not waited for.
  const occupied = placement.eventId ? { from: placement.from, to: placement.to } : occupiedSpan(placement.from, placement.to, placement.buffers);
  const d1 = accountD1(deps);
  const fits = await d1.batch(
    placement.candidates.map(({ scope }) => {
      const condition = fitsCondition(scope, { from: occupied.from, to: occupied.to, count, now: deps.now });
      return d1.prepare(`SELECT (${condition.sql}) AS fits`).bind(...condition.params);
    }),
  );
  if (fits.some((r) => (r.results?.[0] as { fits: number } | undefined)?.fits === 1)) {
    throw ApiError.invalid(placement.eventId ? "event_id" : "booked_from", "has a free seat: book it instead of waiting");
  }
  const token = randomToken("", 32);
  const [entry] = await deps.db
    .insert(waitlistEntries)
    .values({
      account_id: deps.account.id,
      service_id: placement.service.id,
      resource_id: input.resource_id ?? null,
      event_id: placement.eventId,
      booked_from: placement.from,
      booked_to: placement.to,
      count,
      person_attributes: input.person_attributes,
      token_hash: await sha256Hex(token),
      state: "waiting",
      created_at: deps.now,
      updated_at: deps.now,
    })
    .returning();
  await emit(deps, "waitlist.joined", entry);
  return { entry, token };
}

/**
 * The account's entry by id, for its holder: on the site only with its token, or with the secret of
 * its current offer (the link its offer message carries). A wrong one looks like an unknown id.
 */
export async function entryFor(deps: Deps, id: number, asker: Asker): Promise<WaitlistEntry> {
  const entry = await deps.db.query.waitlistEntries.findFirst({ where: and(eq(waitlistEntries.id, id), eq(waitlistEntries.account_id, deps.account.id)) });
  if (!entry) throw notFound();
  if (asker.kind === "visitor" && !(await opens(deps, entry, asker.token))) throw notFound();
  return entry;
}

async function opens(deps: Deps, entry: WaitlistEntry, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const hash = await sha256Hex(token);
  if (await secretsEqual(hash, entry.token_hash)) return true;
  if (entry.state !== "offered" || !entry.hold_id) return false;
  const hold = await deps.db.query.slotHolds.findFirst({ where: holdOfAccount(deps, entry.hold_id) });
  return hold !== undefined && (await secretsEqual(hash, hold.secret_hash));
}

/**
 * Leaves the line (or declines an offer). The entry leaves and its offer's hold is released in one
 * transaction, whatever state a concurrent pass left it in, so a live offer hold never outlives
 * its entry's offer; the seat then passes on at once.
 */
export async function leaveWaitlist(deps: Deps, id: number, asker: Asker): Promise<WaitlistEntry> {
  const entry = await entryFor(deps, id, asker);
  if (entry.state !== "waiting" && entry.state !== "offered") return entry;
  const ofEntry = and(eq(waitlistEntries.id, entry.id), eq(waitlistEntries.account_id, deps.account.id));
  const [released, [left]] = await deps.db.batch([
    deps.db
      .update(slotHolds)
      .set({ ended_at: deps.now, ended_by: "released" })
      .where(
        and(
          eq(slotHolds.account_id, deps.account.id),
          isNull(slotHolds.ended_at),
          inArray(
            slotHolds.id,
            deps.db
              .select({ id: waitlistEntries.hold_id })
              .from(waitlistEntries)
              .where(and(ofEntry, eq(waitlistEntries.state, "offered"))),
          ),
        ),
      )
      .returning({ id: slotHolds.id }),
    deps.db
      .update(waitlistEntries)
      .set({ state: "left", updated_at: deps.now })
      .where(and(ofEntry, inArray(waitlistEntries.state, ["waiting", "offered"])))
      .returning(),
  ]);
  // A declined offer's seat goes to the next in line now, not at the next cron.
  if (released.length > 0) await offerFreedSeats(deps);
  return left ?? (await entryFor(deps, id, { kind: "key" }));
}

/**
 * Accepting an offer books exactly the held seat: a create on the site with the entry's person
 * attributes that converts the offer's hold (its holder proved by the token or the offer's
 * secret), so nothing can refuse it for capacity. A lapsed offer is no longer `offered` after the
 * next pass; before it, the hold's lapse makes this a plain create, which may still succeed.
 */
export async function acceptOffer(deps: Deps, id: number, token: string | undefined, siteOrigin: string) {
  const entry = await entryFor(deps, id, { kind: "visitor", token });
  if (entry.state !== "offered" || !entry.hold_id) throw ApiError.invalid("waitlist_entry", `is ${entry.state}, not offered`);
  const hold = await deps.db.query.slotHolds.findFirst({ where: holdOfAccount(deps, entry.hold_id) });
  const { booking, token: bookingToken } = await createOnSite(
    deps,
    {
      booking: {
        service_id: entry.service_id,
        event_id: entry.event_id,
        resource_id: hold?.resource_id ?? entry.resource_id,
        ...(entry.event_id ? {} : { booked_from: new Date(entry.booked_from).toISOString(), booked_to: new Date(entry.booked_to).toISOString() }),
        count: entry.count,
        person_attributes: entry.person_attributes,
      },
    },
    siteOrigin,
    { heldBy: entry.hold_id },
  );
  const [accepted] = await deps.db
    .update(waitlistEntries)
    .set({ state: "accepted", booking_id: booking.id, updated_at: deps.now })
    .where(eq(waitlistEntries.id, entry.id))
    .returning();
  await emit(deps, "waitlist.accepted", accepted);
  return { entry: accepted, booking, bookingToken };
}

/** The private API's line of a time or an event, in order. */
export async function lineOf(deps: Deps, filter: { event_id?: number; service_id?: number }): Promise<WaitlistEntry[]> {
  return deps.db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.account_id, deps.account.id),
        ...(filter.event_id ? [eq(waitlistEntries.event_id, filter.event_id)] : []),
        ...(filter.service_id ? [eq(waitlistEntries.service_id, filter.service_id)] : []),
      ),
    )
    .orderBy(asc(waitlistEntries.booked_from), asc(waitlistEntries.id));
}
