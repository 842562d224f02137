// Amounts in minor units (domain/money.ts): the currency's digits right, and no float on the way.
import { describe, expect, it } from "vitest";
import { fromMinorUnits, minorDigitsOf, toMinorUnits } from "../../src/domain/money";

describe("minor units", () => {
  it("knows each currency's digits", () => {
    expect([minorDigitsOf("NOK"), minorDigitsOf("EUR"), minorDigitsOf("JPY"), minorDigitsOf("KWD")]).toEqual([2, 2, 0, 3]);
  });

  it("turns decimals into minor units times the count, exactly", () => {
    expect(toMinorUnits("450", "NOK")).toBe(45_000);
    expect(toMinorUnits("450.0", "NOK", 3)).toBe(135_000);
    expect(toMinorUnits("0.1", "EUR", 3)).toBe(30); // 0.1 + 0.1 + 0.1 is not 0.30000000000000004 here
    expect(toMinorUnits("1200", "JPY", 2)).toBe(2400);
    expect(toMinorUnits("1.234", "KWD")).toBe(1234);
  });

  it("rounds digits beyond the currency's half up, once, on the total", () => {
    expect(toMinorUnits("0.335", "EUR", 3)).toBe(101);
    expect(toMinorUnits("99.994", "NOK")).toBe(9999);
    expect(toMinorUnits("99.995", "NOK")).toBe(10_000);
    expect(toMinorUnits("10.5", "JPY")).toBe(11);
  });

  it("answers minor units as decimals", () => {
    expect(fromMinorUnits(45_000, "NOK")).toBe("450.00");
    expect(fromMinorUnits(5, "EUR")).toBe("0.05");
    expect(fromMinorUnits(2400, "JPY")).toBe("2400");
    expect(fromMinorUnits(1234, "KWD")).toBe("1.234");
  });

  it("refuses what is not a decimal", () => {
    expect(() => toMinorUnits("1e3", "NOK")).toThrow();
    expect(() => toMinorUnits("-5", "NOK")).toThrow();
  });
});
