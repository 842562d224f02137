// The engine with buffers (docs/decisions/buffers.md): a slot needs its buffered span free, other
// bookings count over their occupied span (the caller passes it), and with
// buffers_within_opening_hours the buffers must fit inside opening hours too.
import { describe, expect, it } from "vitest";
import { computeSlots, type Slot } from "../../src/domain/slots";
import { at, booking, input, resource } from "./slots-fixtures";

const table = (slots: Slot[]) => slots.map((s) => [s.timestamp.slice(11, 16), s.free]);
const buffered = (before: number, after: number) => ({ interval: 60, buffer_before: before, buffer_after: after }) as never;

describe("computeSlots with buffers", () => {
  it("without buffers, or with both 0, is exactly the plain grid", () => {
    const plain = computeSlots(input({ bookings: [booking(1, "2030-01-07 10:00", "2030-01-07 11:00")] }));
    const zero = computeSlots(input({ service: buffered(0, 0), bookings: [booking(1, "2030-01-07 10:00", "2030-01-07 11:00")] }));
    expect(zero).toEqual(plain);
  });

  it("takes the slot whose buffer after reaches a booking, and moves the grid past a booking plus the buffer before", () => {
    const slots = computeSlots(
      input({ service: buffered(15, 10), resources: [resource(1, { mon: ["09:00", "14:00"] })], bookings: [booking(1, "2030-01-07 11:00", "2030-01-07 12:00")] }),
    );
    // 10:00–11:00 needs up to 11:10 free: taken; 11:00 is the booking's own time, listed as taken;
    // after it the first start is 12:00 plus the 15 minutes before.
    expect(table(slots)).toEqual([
      ["09:00", 1],
      ["10:00", 0],
      ["11:00", 0],
      ["12:15", 1],
    ]);
  });

  it("lets buffers reach into closed hours unless the account keeps them inside", () => {
    const hours = [resource(1, { mon: ["09:00", "12:00"] })];
    expect(table(computeSlots(input({ service: buffered(30, 30), resources: hours })))).toEqual([
      ["09:00", 1],
      ["10:00", 1],
      ["11:00", 1],
    ]);
    const inside = computeSlots(input({ service: buffered(30, 30), resources: hours, account: { buffers_within_opening_hours: true } as never }));
    expect(table(inside)).toEqual([
      ["09:30", 1],
      ["10:30", 1],
    ]);
    // A service without buffers is not narrowed by the setting.
    expect(table(computeSlots(input({ resources: hours, account: { buffers_within_opening_hours: true } as never })))).toEqual([
      ["09:00", 1],
      ["10:00", 1],
      ["11:00", 1],
    ]);
  });

  it("Europe/Oslo, the night the clocks go back: buffers are real minutes across the repeated hour", () => {
    const night = "2030-10-27";
    const open = resource(1, { sun: ["00:00", "06:00"] });
    // A booking 03:00–04:00 (+01:00) with 60 minutes before it holds from the second 02:00.
    const held = { resource_id: 1, from: at(`${night} 03:00`) - 60 * 60_000, to: at(`${night} 04:00`), count: 1 };
    const slots = computeSlots(input({ from: night, to: night, resources: [open], bookings: [held] }));
    expect(slots.map((s) => [s.timestamp, s.free])).toEqual([
      ["2030-10-27T00:00:00+02:00", 1],
      ["2030-10-27T01:00:00+02:00", 1],
      ["2030-10-27T02:00:00+02:00", 1],
      ["2030-10-27T02:00:00+01:00", 0],
      ["2030-10-27T03:00:00+01:00", 0],
      ["2030-10-27T04:00:00+01:00", 1],
      ["2030-10-27T05:00:00+01:00", 1],
    ]);
  });
});
