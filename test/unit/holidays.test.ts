import { describe, expect, it } from "vitest";
import { isPublicHoliday, publicHolidays } from "../../src/domain/holidays";

describe("publicHolidays", () => {
  it("lists Norway's public holidays of 2026 in English, without observances", () =>
    expect(publicHolidays("NO", "en", "2026-01-01", "2026-12-31")).toEqual([
      { date: "2026-01-01", name: "New Year's Day" },
      { date: "2026-04-02", name: "Maundy Thursday" },
      { date: "2026-04-03", name: "Good Friday" },
      { date: "2026-04-05", name: "Easter Sunday" },
      { date: "2026-04-06", name: "Easter Monday" },
      { date: "2026-05-01", name: "Labour Day" },
      { date: "2026-05-14", name: "Ascension Day" },
      { date: "2026-05-17", name: "Constitution Day" },
      { date: "2026-05-24", name: "Pentecost" },
      { date: "2026-05-25", name: "Whit Monday" },
      { date: "2026-12-25", name: "Christmas Day" },
      { date: "2026-12-26", name: "Boxing Day" },
    ]));

  it("names holidays in Norwegian for the nb locale", () =>
    expect(publicHolidays("NO", "nb", "2026-05-17", "2026-05-17")).toEqual([{ date: "2026-05-17", name: "Grunnlovsdagen" }]));

  it("names holidays in Swedish for the sv locale", () =>
    expect(publicHolidays("SE", "sv", "2026-06-01", "2026-06-30")).toEqual([
      { date: "2026-06-06", name: "nationaldagen" },
      { date: "2026-06-20", name: "midsommardagen" },
    ]));

  it("falls back to English where the library has no name in the locale", () =>
    expect(publicHolidays("US", "sv", "2026-11-20", "2026-11-30")).toEqual([{ date: "2026-11-26", name: "Thanksgiving Day" }]));

  it("includes both ends of the range and spans years in date order", () =>
    expect(publicHolidays("NO", "en", "2026-12-26", "2027-01-01")).toEqual([
      { date: "2026-12-26", name: "Boxing Day" },
      { date: "2027-01-01", name: "New Year's Day" },
    ]));

  it("lists every day of a holiday that lasts several days", () => {
    const eid = publicHolidays("AE", "en", "2026-03-19", "2026-03-23").map((h) => h.date);
    expect(eid).toEqual(["2026-03-20", "2026-03-21", "2026-03-22"]);
  });

  it("lists a substitute day when the law moves a holiday off a weekend", () =>
    expect(publicHolidays("US", "en", "2026-07-03", "2026-07-04")).toEqual([
      { date: "2026-07-03", name: "Independence Day (substitute day)" },
      { date: "2026-07-04", name: "Independence Day" },
    ]));

  it("answers nothing for a range without holidays and for a country the library does not know", () => {
    expect(publicHolidays("NO", "en", "2026-06-01", "2026-06-30")).toEqual([]);
    expect(publicHolidays("AQ", "en", "2026-01-01", "2026-12-31")).toEqual([]);
  });

  it("accepts a lower-case country code", () =>
    expect(publicHolidays("no", "en", "2026-05-17", "2026-05-17")).toEqual([{ date: "2026-05-17", name: "Constitution Day" }]));

  it("returns copies, so a caller cannot change the cache", () => {
    publicHolidays("NO", "en", "2026-05-17", "2026-05-17")[0].name = "changed";
    expect(publicHolidays("NO", "en", "2026-05-17", "2026-05-17")[0].name).toBe("Constitution Day");
  });
});

describe("isPublicHoliday", () => {
  it("knows Constitution Day from an ordinary Monday", () => {
    expect(isPublicHoliday("NO", "2026-05-17")).toBe(true);
    expect(isPublicHoliday("NO", "2026-05-18")).toBe(false);
  });
});
