// A slot as the slot endpoints and the MCP tools answer it: its times in the account zone, and seats.
import type { Slot } from "../../domain/slots";

export const toSlotJson = (s: Slot) => ({
  timestamp: s.timestamp,
  timestamp_end: s.timestamp_end,
  formatted_timestamp: s.formatted_timestamp,
  formatted_timestamp_end: s.formatted_timestamp_end,
  free: s.free,
  available_resources: s.available_resources,
  maximum_capacity: s.maximum_capacity,
});
