// What follows a change to an event, after it is stored: its webhook event. Bookings that move
// with their event are announced by the event's own `event.modified`.
import type { Event } from "../../db/schema";
import type { Deps } from "../../env";
import { emitEvent, performedByOf } from "../webhooks/emit";
import { toEventJson } from "./serializer";

export async function afterEventChange(
  deps: Deps,
  change: "created" | "modified" | "deleted",
  result: { event: Event; booked: number },
): Promise<{ event: Event; booked: number }> {
  const json = toEventJson(result.event, result.booked, deps.account.time_zone);
  await emitEvent(deps.env, deps.account, `event.${change}`, { kind: "event", id: result.event.id, json }, performedByOf(deps.surface), deps.now);
  return result;
}
