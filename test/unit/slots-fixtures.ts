// Builders for availability engine tests: one open Monday resource and a service with the spec's defaults.
import type { OpeningHours } from "../../src/db/schema";
import { WEEKDAYS, type WeeklyHours } from "../../src/domain/opening-hours";
import type { SlotInput, SlotResource } from "../../src/domain/slots";
import { parseDateTimeInput } from "../../src/domain/time";

const ZONE = "Europe/Oslo";
export const MONDAY = "2030-01-07";

const closedWeek = (): WeeklyHours => Object.fromEntries(WEEKDAYS.map((day) => [day, null])) as WeeklyHours;

export const resource = (id: number, hours: Partial<WeeklyHours>, extra: { capacity?: number; exceptions?: [string, OpeningHours][] } = {}): SlotResource => ({
  id,
  capacity: extra.capacity ?? 1,
  weekly: { ...closedWeek(), ...hours },
  exceptions: new Map(extra.exceptions ?? []),
});

/** Epoch ms of a wall time, read in `zone`. */
export const at = (text: string, zone = ZONE) => parseDateTimeInput(text, zone)!;

export const booking = (resource_id: number, from: string, to: string, count = 1, zone = ZONE) => ({ resource_id, from: at(from, zone), to: at(to, zone), count });

export const input = (over: Partial<SlotInput> = {}): SlotInput => ({
  timeZone: ZONE,
  locale: "en",
  now: at("2030-01-01 00:00"),
  from: MONDAY,
  to: MONDAY,
  resources: [resource(1, { mon: ["09:00", "12:00"] })],
  bookings: [],
  holidays: new Set(),
  ...over,
  service: {
    interval: 60,
    interval_rounding: null,
    max_slots: 1,
    has_day_booking: false,
    day_booking_specify_time: false,
    same_day: false,
    ...over.service,
  },
  account: {
    interval_rounding: 15,
    slot_generation_type: 2,
    first_bookable_period: null,
    future_bookable_period: null,
    ...over.account,
  },
});
