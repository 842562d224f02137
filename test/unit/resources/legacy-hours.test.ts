import { describe, expect, it } from "vitest";
import { weeklyHoursOf } from "../../../src/domain/opening-hours";
import { legacyHoursIn, legacyHoursOut } from "../../../src/features/resources/legacy-hours";

const closedWeek = {
  opening_hours_mon: null,
  opening_hours_tue: null,
  opening_hours_wed: null,
  opening_hours_thu: null,
  opening_hours_fri: null,
  opening_hours_sat: null,
  opening_hours_sun: null,
};

describe("legacyHoursOut", () => {
  it("gives the first opening and last closing per weekday, Monday = 0 and Sunday = 6, null when closed", () => {
    const out = legacyHoursOut(
      weeklyHoursOf({
        ...closedWeek,
        opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"],
        opening_hours_sun: ["10:00", "24:00"],
      }),
    );
    expect(out).toEqual({
      open_0: "09:00",
      close_0: "17:00",
      open_1: null,
      close_1: null,
      open_2: null,
      close_2: null,
      open_3: null,
      close_3: null,
      open_4: null,
      close_4: null,
      open_5: null,
      close_5: null,
      open_6: "10:00",
      close_6: "24:00",
    });
  });
});

describe("legacyHoursIn", () => {
  const none = new Set<never>();

  it("turns a pair into that weekday's single opening", () =>
    expect(legacyHoursIn({ open_2: "08:00", close_2: "16:30" }, none)).toEqual({ hours: { wed: ["08:00", "16:30"] }, errors: [] }));

  it("closes a weekday when both halves are sent empty", () =>
    expect(legacyHoursIn({ open_6: null, close_6: null }, none)).toEqual({ hours: { sun: null }, errors: [] }));

  it("leaves weekdays alone when neither half is sent", () => expect(legacyHoursIn({ title: "Room" }, none)).toEqual({ hours: {}, errors: [] }));

  it("reports the missing half of a pair, whether unsent or empty", () =>
    expect(legacyHoursIn({ open_0: "08:00", open_1: null, close_1: "10:00" }, none).errors).toEqual([
      { attribute: "close_0", message: "can't be blank: send open_0 and close_0 together" },
      { attribute: "open_1", message: "can't be blank: send open_1 and close_1 together" },
    ]));

  it("reports a close at or before its open", () =>
    expect(legacyHoursIn({ open_0: "10:00", close_0: "10:00", open_1: "10:00", close_1: "09:59" }, none)).toEqual({
      hours: {},
      errors: [
        { attribute: "close_0", message: "must be after open_0" },
        { attribute: "close_1", message: "must be after open_1" },
      ],
    }));

  it("ignores pairs for weekdays sent as opening_hours_<day>", () =>
    expect(legacyHoursIn({ open_0: "08:00", open_1: "08:00", close_1: "09:00" }, new Set(["mon"] as const))).toEqual({
      hours: { tue: ["08:00", "09:00"] },
      errors: [],
    }));

  it("skips values its field validation already rejected", () => expect(legacyHoursIn({ open_0: "8am", close_0: "07:00" }, none)).toEqual({ hours: {}, errors: [] }));
});
