import { describe, expect, it } from "vitest";
import { availableDates, computeSlots, nextAvailableDate, type Slot } from "../../src/domain/slots";
import { formatInstant } from "../../src/domain/time";
import { MONDAY, at, booking, input, resource } from "./slots-fixtures";

const starts = (slots: Slot[]) => slots.map((s) => s.timestamp);
/** [start, end, free, available_resources, maximum_capacity] per slot, start and end as wall time hh:mm. */
const table = (slots: Slot[]) => slots.map((s) => [s.timestamp.slice(11, 16), s.timestamp_end.slice(11, 16), s.free, s.available_resources, s.maximum_capacity]);

describe("computeSlots: shape and opening hours", () => {
  it("returns interval-long slots from the opening time with every field", () => {
    expect(computeSlots(input({ resources: [resource(7, { mon: ["09:00", "11:00"] })] }))).toEqual([
      {
        startMs: at("2030-01-07 09:00"),
        endMs: at("2030-01-07 10:00"),
        date: MONDAY,
        timestamp: "2030-01-07T09:00:00+01:00",
        timestamp_end: "2030-01-07T10:00:00+01:00",
        formatted_timestamp: "Monday, 7 January 2030, 09:00",
        formatted_timestamp_end: "Monday, 7 January 2030, 10:00",
        free: 1,
        available_resources: [7],
        maximum_capacity: 1,
      },
      {
        startMs: at("2030-01-07 10:00"),
        endMs: at("2030-01-07 11:00"),
        date: MONDAY,
        timestamp: "2030-01-07T10:00:00+01:00",
        timestamp_end: "2030-01-07T11:00:00+01:00",
        formatted_timestamp: "Monday, 7 January 2030, 10:00",
        formatted_timestamp_end: "Monday, 7 January 2030, 11:00",
        free: 1,
        available_resources: [7],
        maximum_capacity: 1,
      },
    ]);
  });

  it("skips the break between opening pairs and restarts at the second opening", () =>
    expect(starts(computeSlots(input({ resources: [resource(1, { mon: ["09:00", "11:00", "12:30", "14:30"] })] })))).toEqual([
      "2030-01-07T09:00:00+01:00",
      "2030-01-07T10:00:00+01:00",
      "2030-01-07T12:30:00+01:00",
      "2030-01-07T13:30:00+01:00",
    ]));

  it("keeps a slot ending exactly at closing and drops one that would run past it", () =>
    expect(starts(computeSlots(input({ resources: [resource(1, { mon: ["09:00", "11:30"] })] })))).toEqual(["2030-01-07T09:00:00+01:00", "2030-01-07T10:00:00+01:00"]));

  it("uses the interval as both length and step", () =>
    expect(table(computeSlots(input({ service: { interval: 45 } as never, resources: [resource(1, { mon: ["09:00", "11:00"] })] })))).toEqual([
      ["09:00", "09:45", 1, [1], 1],
      ["09:45", "10:30", 1, [1], 1],
    ]));

  it("returns no slots when an exception date closes the day", () =>
    expect(computeSlots(input({ resources: [resource(1, { mon: ["09:00", "12:00"] }, { exceptions: [[MONDAY, null]] })] }))).toEqual([]));

  it("uses an exception date's hours instead of the weekday's", () =>
    expect(starts(computeSlots(input({ resources: [resource(1, { mon: ["09:00", "12:00"] }, { exceptions: [[MONDAY, ["14:00", "16:00"]]] })] })))).toEqual([
      "2030-01-07T14:00:00+01:00",
      "2030-01-07T15:00:00+01:00",
    ]));

  it("opens a closed weekday when an exception date gives hours", () =>
    expect(
      starts(computeSlots(input({ from: "2030-01-08", to: "2030-01-08", resources: [resource(1, {}, { exceptions: [["2030-01-08", ["08:00", "09:00"]]] })] }))),
    ).toEqual(["2030-01-08T08:00:00+01:00"]));

  it("closes every resource on a holiday and leaves the other dates open", () =>
    expect(
      starts(
        computeSlots(
          input({
            from: MONDAY,
            to: "2030-01-08",
            holidays: new Set([MONDAY]),
            resources: [resource(1, { mon: ["09:00", "10:00"], tue: ["09:00", "10:00"] }), resource(2, { mon: ["09:00", "10:00"] })],
          }),
        ),
      ),
    ).toEqual(["2030-01-08T09:00:00+01:00"]));

  it("covers every date from `from` to `to` inclusive", () =>
    expect(starts(computeSlots(input({ from: "2030-01-06", to: "2030-01-14", resources: [resource(1, { mon: ["09:00", "10:00"] })] })))).toEqual([
      "2030-01-07T09:00:00+01:00",
      "2030-01-14T09:00:00+01:00",
    ]));
});

describe("computeSlots: several resources", () => {
  it("merges equal slots of several resources and lists only those open for the whole slot", () =>
    expect(
      table(
        computeSlots(
          input({
            resources: [resource(2, { mon: ["10:00", "13:00"] }, { capacity: 2 }), resource(1, { mon: ["09:00", "12:00"] })],
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "10:00", 1, [1], 1],
      ["10:00", "11:00", 3, [1, 2], 3],
      ["11:00", "12:00", 3, [1, 2], 3],
      ["12:00", "13:00", 2, [2], 2],
    ]));

  it("lists a resource only when the slot fits in one of its opening pairs", () =>
    expect(
      table(
        computeSlots(
          input({
            resources: [resource(1, { mon: ["09:00", "10:00", "10:30", "12:00"] }), resource(2, { mon: ["09:30", "11:30"] })],
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "10:00", 1, [1], 1],
      ["09:30", "10:30", 1, [2], 1],
      ["10:30", "11:30", 2, [1, 2], 2],
    ]));

  it("keeps a slot whose open resources are all full, with free 0 and no resources", () =>
    expect(
      table(
        computeSlots(
          input({
            resources: [resource(1, { mon: ["09:00", "11:00"] }), resource(2, { mon: ["09:00", "11:00"] })],
            bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 10:00"), booking(2, "2030-01-07 09:30", "2030-01-07 11:00")],
            account: { slot_generation_type: 1 } as never,
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "10:00", 0, [], 2],
      ["10:00", "11:00", 1, [1], 2],
    ]));

  it("ignores bookings of resources it was not given", () =>
    expect(table(computeSlots(input({ bookings: [booking(99, "2030-01-07 09:00", "2030-01-07 12:00")] })))).toEqual([
      ["09:00", "10:00", 1, [1], 1],
      ["10:00", "11:00", 1, [1], 1],
      ["11:00", "12:00", 1, [1], 1],
    ]));
});

describe("computeSlots: capacity", () => {
  const fixed = { slot_generation_type: 1 } as never;

  it("gives free as capacity minus booked count and lists the resource while one place is left", () =>
    expect(
      table(
        computeSlots(
          input({
            account: fixed,
            resources: [resource(1, { mon: ["09:00", "12:00"] }, { capacity: 3 })],
            bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 10:00", 2), booking(1, "2030-01-07 10:00", "2030-01-07 11:00", 3)],
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "10:00", 1, [1], 3],
      ["10:00", "11:00", 0, [], 3],
      ["11:00", "12:00", 3, [1], 3],
    ]));

  it("takes the most bookings held at one instant, not the sum of those in the slot", () =>
    expect(
      table(
        computeSlots(
          input({
            account: fixed,
            resources: [resource(1, { mon: ["09:00", "11:00"] }, { capacity: 2 })],
            bookings: [
              booking(1, "2030-01-07 09:00", "2030-01-07 09:30"),
              booking(1, "2030-01-07 09:30", "2030-01-07 10:00"),
              booking(1, "2030-01-07 10:00", "2030-01-07 10:40"),
              booking(1, "2030-01-07 10:20", "2030-01-07 11:00"),
            ],
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "10:00", 1, [1], 2],
      ["10:00", "11:00", 0, [], 2],
    ]));

  it("is not blocked by bookings that only touch the slot's start or end", () =>
    expect(
      table(
        computeSlots(
          input({
            account: fixed,
            bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 10:00"), booking(1, "2030-01-07 11:00", "2030-01-07 12:00")],
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "10:00", 0, [], 1],
      ["10:00", "11:00", 1, [1], 1],
      ["11:00", "12:00", 0, [], 1],
    ]));

  it("never reports negative free capacity for a double booking saved with ignore_capacity", () =>
    expect(
      table(
        computeSlots(
          input({
            account: fixed,
            resources: [resource(1, { mon: ["09:00", "10:00"] })],
            bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 10:00"), booking(1, "2030-01-07 09:00", "2030-01-07 10:00")],
          }),
        ),
      ),
    ).toEqual([["09:00", "10:00", 0, [], 1]]));
});

describe("computeSlots: slot_generation_type", () => {
  const hours = [resource(1, { mon: ["09:00", "14:00"] })];
  const shortBooking = [booking(1, "2030-01-07 10:00", "2030-01-07 10:07")];

  it("fixed (1) keeps the grid from the opening time and shows the booked slot as taken", () =>
    expect(table(computeSlots(input({ account: { slot_generation_type: 1 } as never, resources: hours, bookings: shortBooking })))).toEqual([
      ["09:00", "10:00", 1, [1], 1],
      ["10:00", "11:00", 0, [], 1],
      ["11:00", "12:00", 1, [1], 1],
      ["12:00", "13:00", 1, [1], 1],
      ["13:00", "14:00", 1, [1], 1],
    ]));

  it("next available (2) starts the next slot at the booking's end rounded up to the account's rounding", () =>
    expect(table(computeSlots(input({ resources: hours, bookings: shortBooking })))).toEqual([
      ["09:00", "10:00", 1, [1], 1],
      ["10:15", "11:15", 1, [1], 1],
      ["11:15", "12:15", 1, [1], 1],
      ["12:15", "13:15", 1, [1], 1],
    ]));

  it("lets the service's interval_rounding override the account's", () =>
    expect(starts(computeSlots(input({ service: { interval_rounding: 30 } as never, resources: hours, bookings: shortBooking })))).toEqual([
      "2030-01-07T09:00:00+01:00",
      "2030-01-07T10:30:00+01:00",
      "2030-01-07T11:30:00+01:00",
      "2030-01-07T12:30:00+01:00",
    ]));

  it("counts an uneven rounding step from local midnight", () =>
    expect(
      starts(
        computeSlots(
          input({
            account: { interval_rounding: 7 } as never,
            resources: hours,
            bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 10:01")],
          }),
        ),
      ),
    ).toEqual([
      // 10:01 is minute 601 of the day; the next multiple of 7 is 602
      "2030-01-07T09:00:00+01:00",
      "2030-01-07T10:02:00+01:00",
      "2030-01-07T11:02:00+01:00",
      "2030-01-07T12:02:00+01:00",
    ]));

  it("starts right at a booking end that is already on the rounding step", () =>
    expect(table(computeSlots(input({ resources: hours, bookings: [booking(1, "2030-01-07 09:30", "2030-01-07 10:45")] })))).toEqual([
      ["09:00", "10:00", 0, [], 1],
      ["10:45", "11:45", 1, [1], 1],
      ["11:45", "12:45", 1, [1], 1],
      ["12:45", "13:45", 1, [1], 1],
    ]));

  it("lists a block as taken slots while it covers whole slots, then moves to its rounded end", () =>
    expect(table(computeSlots(input({ resources: hours, bookings: [booking(1, "2030-01-07 10:00", "2030-01-07 11:40")] })))).toEqual([
      ["09:00", "10:00", 1, [1], 1],
      ["10:00", "11:00", 0, [], 1],
      ["11:45", "12:45", 1, [1], 1],
      ["12:45", "13:45", 1, [1], 1],
    ]));

  it("does not move the grid while a resource with capacity left is only partly booked", () =>
    expect(
      starts(
        computeSlots(
          input({
            resources: [resource(1, { mon: ["09:00", "12:00"] }, { capacity: 2 })],
            bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 09:07")],
          }),
        ),
      ),
    ).toEqual(["2030-01-07T09:00:00+01:00", "2030-01-07T10:00:00+01:00", "2030-01-07T11:00:00+01:00"]));

  it("moves only the blocked resource's grid and merges the others' slots", () =>
    expect(
      table(
        computeSlots(
          input({
            resources: [resource(1, { mon: ["09:00", "12:00"] }), resource(2, { mon: ["09:00", "12:00"] })],
            bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 09:20")],
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "10:00", 1, [2], 2],
      ["09:30", "10:30", 2, [1, 2], 2],
      ["10:00", "11:00", 2, [1, 2], 2],
      ["10:30", "11:30", 2, [1, 2], 2],
      ["11:00", "12:00", 2, [1, 2], 2],
    ]));
});

describe("computeSlots: bookable periods and now", () => {
  it("drops slots that have started", () =>
    expect(starts(computeSlots(input({ now: at("2030-01-07 09:00:01") })))).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-07T11:00:00+01:00"]));

  it("keeps a slot starting exactly now", () => expect(starts(computeSlots(input({ now: at("2030-01-07 11:00") })))).toEqual(["2030-01-07T11:00:00+01:00"]));

  it("drops slots inside the first_bookable_period notice", () =>
    expect(starts(computeSlots(input({ now: at("2030-01-07 08:30"), account: { first_bookable_period: "2 hours" } as never })))).toEqual(["2030-01-07T11:00:00+01:00"]));

  it("drops slots starting after the future_bookable_period horizon and keeps one exactly on it", () =>
    expect(
      starts(
        computeSlots(
          input({
            now: at("2030-01-06 10:00"),
            from: "2030-01-06",
            to: "2030-01-14",
            account: { future_bookable_period: "+1 day" } as never,
          }),
        ),
      ),
    ).toEqual(["2030-01-07T09:00:00+01:00", "2030-01-07T10:00:00+01:00"]));

  it("ignores an unreadable period instead of hiding every slot", () =>
    expect(computeSlots(input({ account: { first_bookable_period: "soonish" } as never }))).toHaveLength(3));

  // A cached answer is computed for a window wider than now's and cut per request.
  it("keeps the slots starting inside a given window instead of the one at now", () =>
    expect(
      starts(
        computeSlots(
          input({
            now: at("2030-01-07 11:30"),
            window: { earliest: at("2030-01-07 09:30"), latest: at("2030-01-07 11:00") },
          }),
        ),
      ),
    ).toEqual(["2030-01-07T10:00:00+01:00", "2030-01-07T11:00:00+01:00"]));
});

describe("computeSlots: day bookings", () => {
  const dayService = { has_day_booking: true } as never;
  const week = { mon: ["09:00", "12:00", "13:00", "17:00"], wed: ["10:00", "14:00"] };

  it("gives one slot per open day from midnight to midnight", () =>
    expect(
      computeSlots(input({ service: dayService, from: MONDAY, to: "2030-01-09", resources: [resource(1, week)] })).map((s) => [
        s.timestamp,
        s.timestamp_end,
        s.formatted_timestamp,
        s.free,
      ]),
    ).toEqual([
      ["2030-01-07T00:00:00+01:00", "2030-01-08T00:00:00+01:00", "Monday, 7 January 2030, 00:00", 1],
      ["2030-01-09T00:00:00+01:00", "2030-01-10T00:00:00+01:00", "Wednesday, 9 January 2030, 00:00", 1],
    ]));

  it("spans from the first opening to the last closing with day_booking_specify_time", () =>
    expect(
      computeSlots(
        input({
          service: { has_day_booking: true, day_booking_specify_time: true } as never,
          from: MONDAY,
          to: "2030-01-09",
          resources: [resource(1, week)],
        }),
      ).map((s) => [s.timestamp, s.timestamp_end]),
    ).toEqual([
      ["2030-01-07T09:00:00+01:00", "2030-01-07T17:00:00+01:00"],
      ["2030-01-09T10:00:00+01:00", "2030-01-09T14:00:00+01:00"],
    ]));

  it("lists resources with different day spans as separate slots, each resource in those it covers", () =>
    expect(
      table(
        computeSlots(
          input({
            service: { has_day_booking: true, day_booking_specify_time: true } as never,
            resources: [resource(1, { mon: ["09:00", "17:00"] }), resource(2, { mon: ["10:00", "12:00"] })],
          }),
        ),
      ),
    ).toEqual([
      ["09:00", "17:00", 1, [1], 1],
      ["10:00", "12:00", 2, [1, 2], 2],
    ]));

  it("takes a day off the resource when any booking fills it during the day", () =>
    expect(
      table(
        computeSlots(
          input({
            service: dayService,
            resources: [resource(1, week), resource(2, week)],
            bookings: [booking(2, "2030-01-07 15:00", "2030-01-07 16:00")],
          }),
        ),
      ),
    ).toEqual([["00:00", "00:00", 1, [1], 2]]));

  it("drops today's day slot because its start has passed", () =>
    expect(computeSlots(input({ service: dayService, now: at("2030-01-07 08:00"), resources: [resource(1, week)] }))).toEqual([]));
});

describe("computeSlots: formatted timestamps", () => {
  const friday = (locale: "en" | "sv" | "nb") =>
    computeSlots(input({ locale, from: "2020-01-24", to: "2020-01-24", now: at("2020-01-01 00:00"), resources: [resource(1, { fri: ["09:00", "10:00"] })] })).map((s) => [
      s.formatted_timestamp,
      s.formatted_timestamp_end,
    ]);

  it("writes English", () => expect(friday("en")).toEqual([["Friday, 24 January 2020, 09:00", "Friday, 24 January 2020, 10:00"]]));
  it("writes Swedish", () => expect(friday("sv")).toEqual([["fredag, 24 januari 2020, 09:00", "fredag, 24 januari 2020, 10:00"]]));
  it("writes Norwegian Bokmål with the ordinal day", () => expect(friday("nb")).toEqual([["fredag, 24. januar 2020, 09:00", "fredag, 24. januar 2020, 10:00"]]));
  it("writes non-ASCII weekday names", () =>
    expect(
      computeSlots(input({ locale: "nb", from: "2030-01-12", to: "2030-01-13", resources: [resource(1, { sat: ["09:00", "10:00"], sun: ["09:00", "10:00"] })] })).map(
        (s) => s.formatted_timestamp,
      ),
    ).toEqual(["lørdag, 12. januar 2030, 09:00", "søndag, 13. januar 2030, 09:00"]));
});

describe("availableDates and nextAvailableDate", () => {
  const twoDays = input({
    from: "2030-01-06",
    to: "2030-01-09",
    account: { slot_generation_type: 1 } as never,
    resources: [resource(1, { mon: ["09:00", "10:00"], tue: ["09:00", "10:00"], wed: ["09:00", "10:00"] })],
    bookings: [booking(1, "2030-01-07 09:00", "2030-01-07 10:00")],
  });

  it("lists dates with a slot that has free capacity, leaving out fully booked and closed dates", () =>
    expect(availableDates(twoDays)).toEqual(["2030-01-08", "2030-01-09"]));
  it("finds the first date with a free slot", () => expect(nextAvailableDate(twoDays)).toBe("2030-01-08"));
  it("answers null when no date in the range has a free slot", () => expect(nextAvailableDate({ ...twoDays, to: "2030-01-07" })).toBeNull());
});

describe("computeSlots: DST changes", () => {
  const sundaySlots = (zone: string, date: string, hours: string[], extra: object = {}) =>
    computeSlots(
      input({
        timeZone: zone,
        from: date,
        to: date,
        now: at("2026-01-01 00:00", zone),
        resources: [resource(1, { sun: hours })],
        ...extra,
      }),
    );
  const isoPairs = (slots: Slot[]) => slots.map((s) => [s.timestamp, s.timestamp_end]);

  it("Europe/Oslo spring: no slot starts in the skipped hour and offsets change", () =>
    expect(isoPairs(sundaySlots("Europe/Oslo", "2026-03-29", ["01:00", "05:00"]))).toEqual([
      ["2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00"],
      ["2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00"],
      ["2026-03-29T04:00:00+02:00", "2026-03-29T05:00:00+02:00"],
    ]));

  it("Europe/Oslo spring: opening hours inside the skipped hour give no slots", () => expect(sundaySlots("Europe/Oslo", "2026-03-29", ["02:00", "03:00"])).toEqual([]));

  it("Europe/Oslo autumn: the repeated hour is offered twice, once per offset", () =>
    expect(isoPairs(sundaySlots("Europe/Oslo", "2026-10-25", ["01:00", "04:00"]))).toEqual([
      ["2026-10-25T01:00:00+02:00", "2026-10-25T02:00:00+02:00"],
      ["2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00"],
      ["2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00"],
      ["2026-10-25T03:00:00+01:00", "2026-10-25T04:00:00+01:00"],
    ]));

  it("America/New_York spring: no slot starts in the skipped hour and offsets change", () =>
    expect(isoPairs(sundaySlots("America/New_York", "2026-03-08", ["00:30", "05:00"]))).toEqual([
      ["2026-03-08T00:30:00-05:00", "2026-03-08T01:30:00-05:00"],
      ["2026-03-08T01:30:00-05:00", "2026-03-08T03:30:00-04:00"],
      ["2026-03-08T03:30:00-04:00", "2026-03-08T04:30:00-04:00"],
    ]));

  it("America/New_York autumn: the repeated hour is offered twice, once per offset", () =>
    expect(isoPairs(sundaySlots("America/New_York", "2026-11-01", ["00:00", "03:00"]))).toEqual([
      ["2026-11-01T00:00:00-04:00", "2026-11-01T01:00:00-04:00"],
      ["2026-11-01T01:00:00-04:00", "2026-11-01T01:00:00-05:00"],
      ["2026-11-01T01:00:00-05:00", "2026-11-01T02:00:00-05:00"],
      ["2026-11-01T02:00:00-05:00", "2026-11-01T03:00:00-05:00"],
    ]));

  it("keeps ordinary wall-clock slots on a change day away from the change", () =>
    expect(isoPairs(sundaySlots("America/New_York", "2026-03-08", ["09:00", "11:00"]))).toEqual([
      ["2026-03-08T09:00:00-04:00", "2026-03-08T10:00:00-04:00"],
      ["2026-03-08T10:00:00-04:00", "2026-03-08T11:00:00-04:00"],
    ]));

  it("rounds to the wall clock after a booking on a change day", () =>
    expect(
      isoPairs(
        sundaySlots("Europe/Oslo", "2026-03-29", ["01:00", "06:00"], {
          bookings: [booking(1, "2026-03-29 01:00", "2026-03-29 03:07")],
        }),
      ),
    ).toEqual([
      ["2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00"],
      ["2026-03-29T03:15:00+02:00", "2026-03-29T04:15:00+02:00"],
      ["2026-03-29T04:15:00+02:00", "2026-03-29T05:15:00+02:00"],
    ]));

  it("gives 23-hour and 25-hour day slots on the change days", () => {
    const day = (zone: string, date: string) => sundaySlots(zone, date, ["09:00", "17:00"], { service: { has_day_booking: true } });
    const hoursLong = (slots: Slot[]) => slots.map((s) => [s.timestamp, s.timestamp_end, (s.endMs - s.startMs) / 3_600_000]);
    expect(hoursLong(day("Europe/Oslo", "2026-03-29"))).toEqual([["2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", 23]]);
    expect(hoursLong(day("Europe/Oslo", "2026-10-25"))).toEqual([["2026-10-25T00:00:00+02:00", "2026-10-26T00:00:00+01:00", 25]]);
    expect(hoursLong(day("America/New_York", "2026-03-08"))).toEqual([["2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00", 23]]);
    expect(hoursLong(day("America/New_York", "2026-11-01"))).toEqual([["2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", 25]]);
  });

  it("writes the same ISO text as formatInstant for every slot edge", () => {
    const slots = [
      ...sundaySlots("Europe/Oslo", "2026-10-25", ["00:00", "24:00"], { service: { interval: 25 } }),
      ...sundaySlots("America/New_York", "2026-03-08", ["00:00", "24:00"], { service: { interval: 25 } }),
    ];
    expect(slots.length).toBeGreaterThan(100);
    for (const s of slots) {
      const zone = s.timestamp.endsWith("+01:00") || s.timestamp.endsWith("+02:00") ? "Europe/Oslo" : "America/New_York";
      expect([s.timestamp, s.timestamp_end]).toEqual([formatInstant(s.startMs, zone), formatInstant(s.endMs, zone)]);
    }
  });
});
