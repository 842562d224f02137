// The large account the issue names: 20 resources with a break, 31 days, a 15-minute interval and
// 5,000 bookings in range. Deterministic (seeded), so runs compare.
import type { SlotInput } from "../src/domain/slots";
import { startOfDay } from "../src/domain/time";

export const ZONE = "Europe/Oslo";
const FROM = "2030-03-01"; // a month with a DST change in it
const TO = "2030-03-31";

export function largeAccountInput(generation: 1 | 2, interval = 15, rounding = 15): SlotInput {
  const hours = ["08:00", "12:00", "13:00", "17:00"];
  const weekly = { mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat: hours, sun: hours };
  const resources = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, capacity: 1 + (i % 3), weekly, exceptions: new Map() }));
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const start = startOfDay(FROM, ZONE);
  const bookings = Array.from({ length: 5000 }, () => {
    const from = start + Math.floor(random() * 31 * 24 * 12) * 5 * 60_000;
    return { resource_id: 1 + Math.floor(random() * 20), from, to: from + (10 + Math.floor(random() * 80)) * 60_000, count: 1 };
  });
  return {
    timeZone: ZONE,
    locale: "en",
    now: start - 86_400_000,
    from: FROM,
    to: TO,
    resources,
    bookings,
    holidays: new Set(),
    service: { interval, interval_rounding: null, max_slots: 1, has_day_booking: false, day_booking_specify_time: false, same_day: false },
    account: { interval_rounding: rounding, slot_generation_type: generation, first_bookable_period: null, future_bookable_period: "3 months" },
  };
}
