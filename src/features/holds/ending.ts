// How a hold stands at an instant: the one reading of its columns (the SQL one is liveHoldSql in
// bookings/active-sql.ts), so a lapse needs no write, as an unverified booking's does not.
import type { SlotHold } from "../../db/schema";

export type HoldEnding = "released" | "converted" | "expired";

/** Null while the hold is live. */
export function holdEnding(hold: Pick<SlotHold, "ended_at" | "ended_by" | "expires_at">, now: number): HoldEnding | null {
  if (hold.ended_at !== null) return hold.ended_by === "converted" ? "converted" : "released";
  return hold.expires_at <= now ? "expired" : null;
}
