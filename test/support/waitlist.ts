// The waitlist's pairing invariant (src/features/waitlist/pairing.ts) read from D1: what a test
// expects to be empty after any race of freeing writes.
import { unpairedOffersSql } from "../../src/features/waitlist/pairing";
import { env } from "./api";

/** `hold <id>` for a live offer hold held for nobody, `entry <id>` for an offer whose hold was released. */
export async function orphanHolds(accountId: number): Promise<string[]> {
  const rows = await env.DB.prepare(unpairedOffersSql(accountId, Date.now())).all<{ kind: string; id: number }>();
  return rows.results.map((r) => `${r.kind} ${r.id}`);
}
