import { describe, expect, it } from "vitest";
import { attributeName } from "../../../src/features/resources/validate";

describe("attributeName", () => {
  it("names an entry's attribute by index", () =>
    expect(attributeName(["resource_exception_dates", 1, "exception_date"])).toBe("resource_exception_dates[1].exception_date"));
  it("names a whole entry or the list itself", () => {
    expect(attributeName(["resource_exception_dates", 0])).toBe("resource_exception_dates[0]");
    expect(attributeName(["resource_exception_dates"])).toBe("resource_exception_dates");
  });
  it("falls back to base for a fault of the whole body", () => expect(attributeName([])).toBe("base"));
});
