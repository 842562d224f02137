// CPU time per call of the pure availability engine on the large account (no I/O, no runtime).
import { computeSlots, nextAvailableDate } from "../src/domain/slots";
import { largeAccountInput } from "./large-account";
import { busyTimesOf } from "../src/features/calendar-subscriptions/busy-times";
import { mergeSpans, spanChanges } from "../src/features/calendar-subscriptions/busy-rows";
import { calendarFeed } from "./calendar-feed";

interface Figure {
  name: string;
  unit: "ms";
  median: number;
  p95: number;
  mean: number;
  calls: number;
  slots?: number;
  detail?: string;
}

function measure(name: string, run: () => unknown, calls = 200): Figure {
  for (let i = 0; i < 30; i += 1) run(); // warm-up: JIT and the engine's per-zone caches
  const times: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { name, unit: "ms", median: round(at(0.5)), p95: round(at(0.95)), mean: round(times.reduce((a, b) => a + b, 0) / times.length), calls };
}

const nextAvailable = largeAccountInput(2);
const fixed = largeAccountInput(1);
const offGrid = largeAccountInput(2, 15, 5);

const figures: Figure[] = [
  { ...measure("engine: slots, next-available (type 2), 31 days", () => computeSlots(nextAvailable)), slots: computeSlots(nextAvailable).length },
  { ...measure("engine: slots, fixed (type 1), 31 days", () => computeSlots(fixed)), slots: computeSlots(fixed).length },
  { ...measure("engine: slots, type 2, 5-minute rounding (off-grid)", () => computeSlots(offGrid)), slots: computeSlots(offGrid).length },
  measure("engine: next_available_date, 30-day window", () => nextAvailableDate(nextAvailable)),
  calendarSync(),
];

/** A sync's CPU outside I/O on a 2,000-event feed: parse and expand a year, merge, diff against the rows of the last sync. */
function calendarSync(): Figure {
  const { text, window } = calendarFeed();
  const stored = mergeSpans(busyTimesOf(text, window, { floatingZone: "Europe/Oslo" }).busy).map((s, i) => ({ ...s, id: i + 1 }));
  let busy = 0;
  const figure = measure(
    "calendars: sync of a 2,000-event feed, a year (parse, expand, merge, diff)",
    () => {
      const parsed = busyTimesOf(text, window, { floatingZone: "Europe/Oslo" });
      busy = parsed.busy.length;
      return spanChanges(stored, mergeSpans(parsed.busy));
    },
    20,
  );
  return { ...figure, detail: `${busy} busy intervals from 2,000 events (1,800 single, 200 weekly series from 2027), CPU in Node` };
}

process.stdout.write(JSON.stringify(figures));
