// CPU time per call of the pure availability engine on the large account (no I/O, no runtime).
import { computeSlots, nextAvailableDate } from "../src/domain/slots";
import { largeAccountInput } from "./large-account";

interface Figure {
  name: string;
  unit: "ms";
  median: number;
  p95: number;
  mean: number;
  calls: number;
  slots?: number;
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
];

process.stdout.write(JSON.stringify(figures));
