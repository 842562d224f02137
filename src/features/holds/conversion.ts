// A booking created with a hold's secret takes over the hold's seats (docs/decisions/holds.md):
// which hold the secret opens, read in the create's references batch, and whether the booking
// may take it. The conversion itself is in the create's one transaction (guarded-write.ts).
import type { SlotHold } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../http/secrets";
import type { Candidate, Placement } from "../bookings/placement";
import type { MoreReads } from "../bookings/references";
import { holdEnding } from "./ending";

export interface Conversion {
  holdId: number;
  /** Where the hold's seats are: the booking goes there and nowhere else. */
  candidate: Candidate;
}

const refused = (why: string) => ApiError.invalid("hold_secret", why);

/** The read of the account's hold the secret opens (secrets are kept only as SHA-256). */
export async function holdBySecretReads(deps: Deps, secret: string): Promise<MoreReads> {
  const hash = await sha256Hex(secret);
  return (d1) => [d1.prepare("SELECT * FROM slot_holds WHERE secret_hash = ? AND account_id = ?").bind(hash, deps.account.id)];
}

/** The read of the account's hold by id, for a caller that proved its right to it otherwise. */
export const holdByIdReads =
  (deps: Deps, id: number): MoreReads =>
  (d1) => [d1.prepare("SELECT * FROM slot_holds WHERE id = ? AND account_id = ?").bind(id, deps.account.id)];

export const holdFromReads = (results: D1Result[] | undefined): SlotHold | undefined => (results?.[0]?.results?.[0] as SlotHold | undefined) ?? undefined;

/**
 * The hold's seats for this booking, or why not. A hold that lapsed is no error: the create runs
 * as any other (the time may well still be free), exactly as if no secret had been sent.
 */
export function heldSeatsFor(deps: Deps, hold: SlotHold | undefined, placement: Placement, count: number): Conversion | undefined {
  if (!hold) throw refused("does not open a hold of this booking site");
  const ending = holdEnding(hold, deps.now);
  if (ending === "expired") return undefined;
  if (ending === "converted") throw refused("has already been booked");
  if (ending === "released") throw refused("was released");
  const sameTime =
    placement.eventId !== null ? hold.event_id === placement.eventId : hold.event_id === null && hold.booked_from === placement.from && hold.booked_to === placement.to;
  if (!sameTime || hold.service_id !== (placement.service?.id ?? null)) throw refused("holds another time or service");
  if (count > hold.count) throw refused(`holds ${hold.count} ${hold.count === 1 ? "seat" : "seats"}, fewer than count`);
  const candidate = placement.candidates.find((c) => (c.scope.kind === "event" ? c.scope.id === hold.event_id : c.resource.id === hold.resource_id));
  if (!candidate) throw refused("holds another resource");
  return { holdId: hold.id, candidate };
}
