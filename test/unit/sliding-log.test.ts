import { describe, expect, it } from "vitest";
import { SlidingLog } from "../../src/domain/sliding-log";

const policy = { limit: 2, windowMs: 2000 };
const T = 1_000_000;

describe("SlidingLog", () => {
  it("refuses once the budget is spent and lets requests through when the window has passed", () => {
    const log = new SlidingLog();
    expect(log.hit(policy, T)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 2 });
    expect(log.hit(policy, T + 10)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 2 });
    expect(log.hit(policy, T + 20)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 2 });
    expect(log.hit(policy, T + 1000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
    expect(log.hit(policy, T + 2010)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 2 });
  });

  it("slides: frees one request when the oldest leaves the window, not the whole budget", () => {
    const log = new SlidingLog();
    const wide = { limit: 2, windowMs: 1500 };
    log.hit(wide, T);
    log.hit(wide, T + 800);
    expect(log.hit(wide, T + 801).allowed).toBe(false);
    // T's request leaves at T + 1500; T + 800's is still counted.
    expect(log.hit(wide, T + 1700)).toMatchObject({ allowed: true, remaining: 0 });
    expect(log.hit(wide, T + 1701).allowed).toBe(false);
  });

  it("does not count refused requests against the client", () => {
    const log = new SlidingLog();
    const one = { limit: 1, windowMs: 1000 };
    log.hit(one, T);
    for (let i = 1; i < 50; i += 1) expect(log.hit(one, T + i).allowed).toBe(false);
    expect(log.hit(one, T + 1001).allowed).toBe(true);
  });

  it("never allows more than the limit in any window over a long run", () => {
    const log = new SlidingLog();
    const budget = { limit: 5, windowMs: 1000 };
    const allowedAt: number[] = [];
    for (let t = 0; t < 20_000; t += 37) if (log.hit(budget, T + t).allowed) allowedAt.push(t);
    for (const start of allowedAt) expect(allowedAt.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(5);
    expect(allowedAt.length).toBeGreaterThan(90);
  });

  it("refunds exactly the request counted at a time, as if it had never been counted", () => {
    const log = new SlidingLog();
    const one = { limit: 2, windowMs: 1000 };
    log.hit(one, T);
    log.hit(one, T + 100);
    expect(log.hit(one, T + 200).allowed).toBe(false);
    log.refund(T + 100);
    // T's request is still counted, and the window still ends with it.
    expect(log.hit(one, T + 300)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 1 });
    expect(log.hit(one, T + 400).allowed).toBe(false);
  });

  it("refunds nothing for a time it never counted or that has left the window", () => {
    const log = new SlidingLog();
    const one = { limit: 1, windowMs: 1000 };
    log.hit(one, T);
    log.refund(T + 5);
    expect(log.hit(one, T + 10).allowed).toBe(false);
    expect(log.hit(one, T + 1001).allowed).toBe(true);
    log.refund(T);
    expect(log.hit(one, T + 1002).allowed).toBe(false);
  });
});
