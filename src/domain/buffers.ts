// Buffers between appointments: the one rule of what a booking holds of its resource
// (docs/decisions/buffers.md). A booking of a service with buffers occupies its resource from
// `booked_from − buffer_before` to `booked_to + buffer_after`; its own times stay the customer's.
// The bookings table states the same rule as its generated columns occupied_from / occupied_to
// (src/db/schema.ts), which every SQL reader of capacity uses; the engine and the writes use this.
import { MINUTE_MS } from "./zone-days";

/** Minutes before and after, as a service states them and a booking keeps them. */
export interface Buffers {
  buffer_before: number;
  buffer_after: number;
}

/** At most a day each way: what the issue allows, and what bounds how far a slot read widens. */
export const MAX_BUFFER_MINUTES = 24 * 60;

export const NO_BUFFERS: Buffers = { buffer_before: 0, buffer_after: 0 };

/** The span of `[from, to)` with `buffers` held around it: `[from, to)` itself when there are none. */
export function occupiedSpan(from: number, to: number, buffers: Buffers): { from: number; to: number } {
  return { from: from - buffers.buffer_before * MINUTE_MS, to: to + buffers.buffer_after * MINUTE_MS };
}

/** The buffers a service's bookings take: none without a service (a booking of a bare resource). */
export const buffersOf = (service: Buffers | null | undefined): Buffers =>
  service ? { buffer_before: service.buffer_before, buffer_after: service.buffer_after } : NO_BUFFERS;
