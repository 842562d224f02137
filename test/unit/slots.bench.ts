// Micro-benchmark of the availability engine on the large case: `npx vitest bench --run --project unit test/unit/slots.bench.ts`.
import { bench, describe } from "vitest";
import { computeSlots, nextAvailableDate, type SlotInput } from "../../src/domain/slots";
import { startOfDay } from "../../src/domain/time";
import { closedWeek } from "./slots-fixtures";

const ZONE = "Europe/Oslo";
const FROM = "2030-03-01"; // a month with a DST change in it
const TO = "2030-03-31";

/** 20 resources open 08:00-12:00 and 13:00-17:00 every day, 5,000 bookings spread over the month. */
function largeCase(generation: 1 | 2, interval: number): SlotInput {
  const hours = ["08:00", "12:00", "13:00", "17:00"];
  const weekly = { ...closedWeek(), mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat: hours, sun: hours };
  const resources = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, capacity: 1 + (i % 3), weekly, exceptions: new Map() }));
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const start = startOfDay(FROM, ZONE);
  const bookings = Array.from({ length: 5000 }, () => {
    const from = start + Math.floor(random() * 31 * 24 * 12) * 5 * 60_000;
    return { resource_id: 1 + Math.floor(random() * 20), from, to: from + (10 + Math.floor(random() * 80)) * 60_000, count: 1 };
  });
  return {
    timeZone: ZONE, locale: "en", now: start - 86_400_000, from: FROM, to: TO, resources, bookings, holidays: new Set(),
    service: { interval, interval_rounding: null, max_slots: 1, has_day_booking: false, day_booking_specify_time: false, same_day: false },
    account: { interval_rounding: 15, slot_generation_type: generation, first_bookable_period: null, future_bookable_period: "3 months" },
  };
}

describe("20 resources with a break, 31 days, 15-minute interval, 5,000 bookings", () => {
  const nextAvailable = largeCase(2, 15);
  const fixed = largeCase(1, 15);
  const offGrid = { ...largeCase(2, 15), account: { ...nextAvailable.account, interval_rounding: 5 } };
  bench("computeSlots, next available (type 2)", () => void computeSlots(nextAvailable));
  bench("computeSlots, fixed (type 1)", () => void computeSlots(fixed));
  bench("computeSlots, type 2 with 5-minute rounding (slots off the quarter-hour grid)", () => void computeSlots(offGrid));
  bench("nextAvailableDate", () => void nextAvailableDate(nextAvailable));
});
