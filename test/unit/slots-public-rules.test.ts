import { describe, expect, it } from "vitest";
import { bookableWindow, publicRuleViolation, type SpanRules } from "../../src/domain/bookable-window";
import { at } from "./slots-fixtures";

const rules = (over: { account?: Partial<SpanRules["account"]>; service?: Partial<SpanRules["service"]> } = {}): SpanRules => ({
  now: at("2030-01-07 08:00"),
  timeZone: "Europe/Oslo",
  account: { first_bookable_period: null, future_bookable_period: null, ...over.account },
  service: { interval: 30, max_slots: 2, has_day_booking: false, same_day: false, ...over.service },
});
const span = (from: string, to: string) => ({ from: at(from), to: at(to) });

describe("bookableWindow", () => {
  it("opens now and never closes without periods", () =>
    expect(bookableWindow(at("2030-01-07 08:00"), { first_bookable_period: null, future_bookable_period: null }, "Europe/Oslo")).toEqual({
      earliest: at("2030-01-07 08:00"),
      latest: Infinity,
    }));

  it("adds calendar periods in the zone", () =>
    expect(bookableWindow(at("2030-01-31 08:00"), { first_bookable_period: "2 hours", future_bookable_period: "1 month" }, "Europe/Oslo")).toEqual({
      earliest: at("2030-01-31 10:00"),
      latest: at("2030-02-28 08:00"),
    }));

  it("never opens before now, even for a negative notice", () =>
    expect(bookableWindow(at("2030-01-07 08:00"), { first_bookable_period: "-PT2H", future_bookable_period: null }, "Europe/Oslo").earliest).toBe(
      at("2030-01-07 08:00"),
    ));
});

describe("publicRuleViolation", () => {
  it("accepts a span of up to max_slots intervals inside the window", () =>
    expect(publicRuleViolation(span("2030-01-07 09:00", "2030-01-07 10:00"), rules())).toBeNull());
  it("rejects an empty span", () => expect(publicRuleViolation(span("2030-01-07 09:00", "2030-01-07 09:00"), rules())).toBe("empty"));
  it("rejects a start in the past", () => expect(publicRuleViolation(span("2030-01-07 07:59", "2030-01-07 08:30"), rules())).toBe("past"));
  it("rejects a start inside the minimum notice", () =>
    expect(publicRuleViolation(span("2030-01-07 09:00", "2030-01-07 09:30"), rules({ account: { first_bookable_period: "2 hours" } }))).toBe("too_soon"));
  it("rejects a start after the horizon", () =>
    expect(publicRuleViolation(span("2030-01-08 08:30", "2030-01-08 09:00"), rules({ account: { future_bookable_period: "1 day" } }))).toBe("too_far"));
  it("rejects a span longer than max_slots intervals", () => expect(publicRuleViolation(span("2030-01-07 09:00", "2030-01-07 10:01"), rules())).toBe("too_long"));
  it("counts calendar days for day bookings", () => {
    const days = rules({ service: { has_day_booking: true, max_slots: 2 } });
    expect(publicRuleViolation(span("2030-01-08 00:00", "2030-01-10 00:00"), days)).toBeNull();
    expect(publicRuleViolation(span("2030-01-08 00:00", "2030-01-11 00:00"), days)).toBe("too_long");
  });
  it("keeps a same_day day booking on one date", () =>
    expect(publicRuleViolation(span("2030-01-08 00:00", "2030-01-10 00:00"), rules({ service: { has_day_booking: true, max_slots: 5, same_day: true } }))).toBe(
      "not_same_day",
    ));
});
