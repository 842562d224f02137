// Creating one chunk of a collection's occurrences, each through the single-create path: the
// booking draft and guarded insert (capacity guard), or the event draft and insert.
import { and, eq, isNotNull } from "drizzle-orm";
import { bookings, events, type RecurringCollection, type SkippedOccurrence } from "../../db/schema";
import { formatInstant } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { afterBookingChange } from "../bookings/effects";
import { draftBooking, insertDraft } from "../bookings/create";
import { getBooking } from "../bookings/queries";
import type { CreateBookingBody } from "../bookings/schema";
import { afterEventChange } from "../events/effects";
import type { EventInput } from "../events/schema";
import { draftEvent } from "../events/service";

interface Chunk {
  from: number;
  to: number;
}

/** A concurrent delivery inserted the same occurrence first: it exists, so it is done. */
const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed/i.test(`${error} ${(error as { cause?: unknown })?.cause ?? ""}`);

/** Runs `create`; a 400 (the reason a single create would give) skips the occurrence. */
async function attempt(index: number, [from, to]: [number, number], skipped: SkippedOccurrence[], create: () => Promise<void>) {
  try {
    await create();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) skipped.push({ index, from, to, errors: error.body });
    else if (!isUniqueViolation(error)) throw error;
  }
}

/**
 * The person the collection's bookings are for, once one occurrence created or matched it, so
 * `person_attributes` make one person rather than one per occurrence.
 */
async function personOfCollection(deps: Deps, collectionId: string): Promise<number | null> {
  const row = await deps.db.query.bookings.findFirst({
    columns: { person_id: true },
    where: and(eq(bookings.account_id, deps.account.id), eq(bookings.collection_id, collectionId), isNotNull(bookings.person_id)),
  });
  return row?.person_id ?? null;
}

/** Starts of the collection's stored occurrences. */
async function storedStarts(deps: Deps, collectionId: string): Promise<Set<number>> {
  const rows = await deps.db
    .select({ at: bookings.booked_from })
    .from(bookings)
    .where(and(eq(bookings.account_id, deps.account.id), eq(bookings.collection_id, collectionId)));
  return new Set(rows.map((r) => r.at));
}

export async function createBookingChunk(deps: Deps, collection: RecurringCollection, chunk: Chunk): Promise<SkippedOccurrence[]> {
  const template = collection.template as CreateBookingBody;
  const tz = deps.account.time_zone;
  const existing = await storedStarts(deps, collection.id);
  const findsPerson = template.booking.person_id == null && template.booking.person_attributes !== undefined;
  let personId = findsPerson ? await personOfCollection(deps, collection.id) : null;
  const skipped: SkippedOccurrence[] = [];
  for (let index = chunk.from; index < chunk.to; index++) {
    const [from, to] = collection.occurrences[index];
    if (existing.has(from)) continue;
    const booking = { ...template.booking, booked_from: formatInstant(from, tz), booked_to: formatInstant(to, tz) };
    if (personId !== null) Object.assign(booking, { person_id: personId, person_attributes: undefined });
    await attempt(index, [from, to], skipped, async () => {
      const id = await insertDraft(deps, await draftBooking(deps, { ...template, booking }), { collection_id: collection.id });
      const created = await getBooking(deps, id);
      if (findsPerson) personId ??= created.person_id;
      // One series, one conversation: occurrences announce themselves by webhook, not by 50 messages.
      await afterBookingChange(deps, "created", created, undefined, { messages: false });
    });
  }
  if (skipped.length === 0) return skipped;
  // A concurrent delivery of this chunk may have created an occurrence first, which then no longer
  // fits here: it exists, so it is not skipped. Its insert came before our refusal, so it shows now.
  const stored = await storedStarts(deps, collection.id);
  return skipped.filter((s) => !stored.has(s.from));
}

export async function createEventChunk(deps: Deps, collection: RecurringCollection, chunk: Chunk): Promise<SkippedOccurrence[]> {
  const template = collection.template as EventInput;
  const tz = deps.account.time_zone;
  const existing = new Set(
    (
      await deps.db
        .select({ at: events.starts_at })
        .from(events)
        .where(and(eq(events.account_id, deps.account.id), eq(events.collection_id, collection.id)))
    ).map((r) => r.at),
  );
  const skipped: SkippedOccurrence[] = [];
  for (let index = chunk.from; index < chunk.to; index++) {
    const [from, to] = collection.occurrences[index];
    if (existing.has(from)) continue;
    await attempt(index, [from, to], skipped, async () => {
      const row = await draftEvent(deps, { ...template, starts_at: formatInstant(from, tz), ends_at: formatInstant(to, tz) });
      // The unique (collection_id, starts_at) index makes a redelivered occurrence a no-op.
      const [event] = await deps.db
        .insert(events)
        .values({ ...row, collection_id: collection.id })
        .onConflictDoNothing()
        .returning();
      if (event) await afterEventChange(deps, "created", { event, booked: 0 });
    });
  }
  return skipped;
}
