// The chain of waits Server-Timing reports as "in sequence" (src/db/request-scope.ts).
import { describe, expect, it } from "vitest";
import { sequentialWaits, type WaitSpan } from "../../../src/db/request-scope";

const span = (kind: WaitSpan["kind"], startedAt: number, endedAt: number): WaitSpan => ({ kind, startedAt, endedAt });

describe("sequentialWaits", () => {
  it("is nothing without waits", () => {
    expect(sequentialWaits([])).toEqual({ total: 0, d1: 0, do: 0 });
  });

  it("counts waits started together once: the limiter beside the reads", () => {
    // Both start at tick 0; the read ends first (tick 1), the limiter second (tick 2).
    expect(sequentialWaits([span("d1", 0, 1), span("do", 0, 2)])).toEqual({ total: 1, d1: 1, do: 0 });
  });

  it("counts a wait that started after another ended as following it", () => {
    // references read → guard call → effects read
    const spans = [span("d1", 0, 1), span("do", 0, 2), span("do", 2, 3), span("d1", 3, 4)];
    expect(sequentialWaits(spans)).toEqual({ total: 3, d1: 2, do: 1 });
  });

  it("takes the longest of several chains, whatever order the spans come in", () => {
    const spans = [span("d1", 2, 4), span("d1", 0, 1), span("do", 0, 3), span("d1", 1, 2), span("d1", 4, 5)];
    // d1(0,1) → d1(1,2) → d1(2,4) → d1(4,5); the DO wait overlaps the first three.
    expect(sequentialWaits(spans)).toEqual({ total: 4, d1: 4, do: 0 });
  });
});
