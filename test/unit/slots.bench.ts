// Micro-benchmark of the availability engine on the large case: `npx vitest bench --run --project unit test/unit/slots.bench.ts`.
import { bench, describe } from "vitest";
import { computeSlots, nextAvailableDate } from "../../src/domain/slots";
import { largeAccountInput as largeCase } from "../../bench/large-account";

describe("20 resources with a break, 31 days, 15-minute interval, 5,000 bookings", () => {
  const nextAvailable = largeCase(2, 15);
  const fixed = largeCase(1, 15);
  const offGrid = largeCase(2, 15, 5);
  bench("computeSlots, next available (type 2)", () => void computeSlots(nextAvailable));
  bench("computeSlots, fixed (type 1)", () => void computeSlots(fixed));
  bench("computeSlots, type 2 with 5-minute rounding (slots off the quarter-hour grid)", () => void computeSlots(offGrid));
  bench("nextAvailableDate", () => void nextAvailableDate(nextAvailable));
});
