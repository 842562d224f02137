import { describe, expect, it } from "vitest";
import { hoursOn, weekdayOf, weeklyHoursOf } from "../../src/domain/opening-hours";

const weekly = weeklyHoursOf({
  opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"],
  opening_hours_tue: ["09:00", "17:00"],
  opening_hours_wed: null,
  opening_hours_thu: null,
  opening_hours_fri: null,
  opening_hours_sat: null,
  opening_hours_sun: null,
});

describe("hoursOn", () => {
  it("uses the weekday's hours when there is no exception", () => expect(hoursOn("2030-01-07", weekly)).toEqual(["09:00", "12:00", "13:00", "17:00"]));
  it("lets an exception date replace the weekday's hours", () => expect(hoursOn("2030-01-07", weekly, ["10:00", "11:00"])).toEqual(["10:00", "11:00"]));
  it("lets an exception date close an open day", () => expect(hoursOn("2030-01-07", weekly, null)).toBeNull());
  it("is closed on a weekday without hours", () => expect(hoursOn("2030-01-09", weekly)).toBeNull());
  it("knows Sunday from Monday", () => {
    expect(weekdayOf("2030-01-06")).toBe("sun");
    expect(weekdayOf("2030-01-07")).toBe("mon");
  });
});
