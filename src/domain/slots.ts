// The availability engine: bookable slots of a service over a date range, computed from plain inputs.
import { bookableWindow, type BookablePeriods, type BookableWindow } from "./bookable-window";
import { occupiedSpan } from "./buffers";
import { Occupancy } from "./occupancy";
import { WEEKDAYS, type OpeningHours, type WeeklyHours } from "./opening-hours";
import { slotTimeTexts, type Locale } from "./slot-format";
import { DAY_MS, MINUTE_MS, dayNumberOf, minutesOfDay, offsetOn, wallMinutesToEpoch, zoneDay, type ZoneDay } from "./zone-days";

export type { Locale } from "./slot-format";

export interface SlotResource {
  id: number;
  capacity: number;
  weekly: WeeklyHours;
  /** Exception dates by `YYYY-MM-DD`; null closes the date. */
  exceptions: ReadonlyMap<string, OpeningHours>;
}

/** An active booking (the caller filters out inactive ones), over the span it occupies: buffers included. */
export interface SlotBooking {
  resource_id: number;
  from: number;
  to: number;
  count: number;
}

export interface SlotServiceSettings {
  interval: number;
  interval_rounding: number | null;
  max_slots: number;
  has_day_booking: boolean;
  day_booking_specify_time: boolean;
  same_day: boolean;
  /** Minutes a booking of the service holds its resource before and after (domain/buffers.ts); none when absent. */
  buffer_before?: number;
  buffer_after?: number;
}

interface SlotAccountSettings extends BookablePeriods {
  interval_rounding: number;
  slot_generation_type: 1 | 2;
  /** Buffers must fall inside opening hours too, not only the customer's times (docs/decisions/buffers.md). */
  buffers_within_opening_hours?: boolean;
}

export interface SlotInput {
  timeZone: string;
  locale: Locale;
  now: number;
  from: string;
  /** Inclusive. */
  to: string;
  resources: readonly SlotResource[];
  bookings: readonly SlotBooking[];
  /** Dates closed for every resource; empty when the account is not closed_for_holidays. */
  holidays: ReadonlySet<string>;
  service: SlotServiceSettings;
  account: SlotAccountSettings;
  /**
   * Slot starts to keep, instead of the bookable window at `now`: a cached answer is computed
   * for a wider window and cut to each request's own (features/slots/answer-cache.ts).
   */
  window?: BookableWindow;
}

/** A slot before it is put into words: what availableDates and nextAvailableDate need. */
interface RawSlot {
  startMs: number;
  endMs: number;
  free: number;
  available_resources: number[];
  maximum_capacity: number;
}

export interface Slot extends RawSlot {
  /** Local date of the start. */
  date: string;
  timestamp: string;
  timestamp_end: string;
  formatted_timestamp: string;
  formatted_timestamp_end: string;
  /**
   * An attendance service's slot is one event: its id, which a booking names. The slot endpoints
   * do not answer it (their shape is the spec's); the MCP tools do, so an assistant can book it.
   */
  event_id?: number;
}

interface Prepared {
  resources: SlotResource[];
  occupancies: Occupancy[];
  intervalMs: number;
  roundingMs: number;
  /** What a slot must find free around itself: its occupied span is [start − beforeMs, end + afterMs). */
  beforeMs: number;
  afterMs: number;
  /** Opening spans narrowed by the buffers, so a slot's buffers stay inside them too. */
  buffersInside: boolean;
  nextAvailable: boolean;
  window: BookableWindow;
}

function prepare(input: SlotInput): Prepared {
  const resources = [...input.resources].sort((a, b) => a.id - b.id);
  const byResource = new Map<number, SlotBooking[]>(resources.map((r) => [r.id, []]));
  for (const booking of input.bookings) byResource.get(booking.resource_id)?.push(booking);
  const rounding = input.service.interval_rounding ?? input.account.interval_rounding;
  const held = occupiedSpan(0, 0, { buffer_before: input.service.buffer_before ?? 0, buffer_after: input.service.buffer_after ?? 0 });
  return {
    resources,
    occupancies: resources.map((r) => new Occupancy(byResource.get(r.id)!)),
    intervalMs: input.service.interval * MINUTE_MS,
    roundingMs: rounding > 0 ? rounding * MINUTE_MS : 0,
    beforeMs: -held.from,
    afterMs: held.to,
    buffersInside: input.account.buffers_within_opening_hours === true && (held.from !== 0 || held.to !== 0),
    nextAvailable: input.account.slot_generation_type !== 1,
    window: input.window ?? bookableWindow(input.now, input.account, input.timeZone),
  };
}

/** Opening pairs of a resource on the day as instants; empty when closed. A pair a DST gap swallows drops out. */
function openSpans(resource: SlotResource, day: ZoneDay, timeZone: string): number[] {
  const hours = resource.exceptions.has(day.date) ? resource.exceptions.get(day.date) : resource.weekly[WEEKDAYS[day.weekday]];
  const spans: number[] = [];
  if (!hours) return spans;
  for (let i = 0; i + 1 < hours.length; i += 2) {
    const open = wallMinutesToEpoch(day, minutesOfDay(hours[i]), timeZone);
    const close = wallMinutesToEpoch(day, minutesOfDay(hours[i + 1]), timeZone);
    if (close > open) spans.push(open, close);
  }
  return spans;
}

/**
 * The spans a slot's customer times may take when its buffers must stay inside opening hours:
 * each opening pair less the buffer before at its start and the buffer after at its end.
 */
function narrowed(spans: number[], p: Prepared): number[] {
  const out: number[] = [];
  for (let i = 0; i < spans.length; i += 2) {
    const open = spans[i] + p.beforeMs;
    const close = spans[i + 1] - p.afterMs;
    if (close > open) out.push(open, close);
  }
  return out;
}

/** Rounds up to the rounding step counted from local midnight on the wall clock, moving by real time. */
function roundUp(epochMs: number, p: Prepared, day: ZoneDay, timeZone: string): number {
  if (p.roundingMs === 0) return epochMs;
  const wall = epochMs + offsetOn(day, epochMs, timeZone);
  const sinceMidnight = wall - Math.floor(wall / DAY_MS) * DAY_MS; // so a step like 7 minutes restarts each day
  const past = sinceMidnight % p.roundingMs;
  return past === 0 ? epochMs : epochMs + p.roundingMs - past;
}

/** Slot starts one resource offers in one opening span (docs/decisions/slots.md, slot_generation_type). */
function startsInSpan(open: number, close: number, r: number, p: Prepared, day: ZoneDay, timeZone: string, out: number[]) {
  const { intervalMs, beforeMs, afterMs } = p;
  const capacity = p.resources[r].capacity;
  const occupancy = p.occupancies[r];
  let t = open;
  while (t + intervalMs <= close) {
    if (!p.nextAvailable || capacity < 1 || occupancy.peak(t - beforeMs, t + intervalMs + afterMs) < capacity) {
      out.push(t);
      t += intervalMs;
      continue;
    }
    // The first start whose buffered span could be free: the block's end plus the slot's own buffer before.
    const next = roundUp(occupancy.freedAfter(t - beforeMs, t + intervalMs + afterMs, capacity) + beforeMs, p, day, timeZone);
    // A block shorter than the slot moves the grid to its end; a longer one is listed as taken, so
    // a resource's own slots never overlap.
    if (next < t + intervalMs) t = next;
    else {
      out.push(t);
      t += intervalMs;
    }
  }
}

interface Candidate {
  start: number;
  end: number;
}

/** Candidate slots of the day, sorted and without duplicates, each with every resource's open spans. */
function candidatesOfDay(input: SlotInput, p: Prepared, day: ZoneDay, spans: number[][]): Candidate[] {
  const { service, timeZone } = input;
  if (service.has_day_booking) {
    const found: Candidate[] = [];
    for (const s of spans) {
      if (s.length === 0) continue;
      const candidate = service.day_booking_specify_time ? { start: s[0], end: s[s.length - 1] } : { start: day.startMs, end: day.endMs };
      if (!found.some((c) => c.start === candidate.start && c.end === candidate.end)) found.push(candidate);
    }
    return found.sort((a, b) => a.start - b.start || a.end - b.end);
  }
  const starts: number[] = [];
  spans.forEach((s, r) => {
    for (let i = 0; i < s.length; i += 2) startsInSpan(s[i], s[i + 1], r, p, day, timeZone, starts);
  });
  // Resources mostly share hours, so dropping repeats before sorting leaves little to sort.
  const sorted = Float64Array.from(new Set(starts)).sort();
  const candidates: Candidate[] = [];
  for (const start of sorted) candidates.push({ start, end: start + p.intervalMs });
  return candidates;
}

/** Whether the resource is open for all of [start, end): inside one opening pair, or for day slots its day. */
function openFor(s: number[], start: number, end: number, service: SlotServiceSettings): boolean {
  if (s.length === 0) return false;
  if (service.has_day_booking) return service.day_booking_specify_time ? s[0] <= start && end <= s[s.length - 1] : true;
  for (let i = 0; i < s.length; i += 2) if (s[i] <= start && end <= s[i + 1]) return true;
  return false;
}

/**
 * Visits each date in the range with its slots (possibly none) until `visit` returns false.
 * Zone arithmetic happens once per day and opening edge; the slot loops are integer maths.
 */
function eachDay(input: SlotInput, visit: (day: ZoneDay, slots: RawSlot[]) => boolean): void {
  if ((!input.service.has_day_booking && !(input.service.interval > 0)) || input.resources.length === 0) return;
  const p = prepare(input);
  const last = dayNumberOf(input.to);
  for (let n = dayNumberOf(input.from); n <= last; n++) {
    const day = zoneDay(n, input.timeZone);
    if (day.startMs > p.window.latest) return;
    const closed = input.holidays.has(day.date) || day.endMs <= p.window.earliest;
    const spans = closed ? [] : p.resources.map((r) => (p.buffersInside ? narrowed(openSpans(r, day, input.timeZone), p) : openSpans(r, day, input.timeZone)));
    const slots: RawSlot[] = [];
    for (const { start, end } of closed ? [] : candidatesOfDay(input, p, day, spans)) {
      if (start < p.window.earliest || start > p.window.latest) continue;
      const slot: RawSlot = { startMs: start, endMs: end, free: 0, available_resources: [], maximum_capacity: 0 };
      for (let r = 0; r < p.resources.length; r++) {
        if (!openFor(spans[r], start, end, input.service)) continue;
        const { id, capacity } = p.resources[r];
        // Opening hours bound the customer's times (and, with buffers_within_opening_hours, the spans
        // were narrowed by the buffers): a buffer may otherwise reach into closed hours (buffers.md).
        const remaining = Math.max(0, capacity - p.occupancies[r].peak(start - p.beforeMs, end + p.afterMs));
        slot.maximum_capacity += capacity;
        slot.free += remaining;
        if (remaining >= 1) slot.available_resources.push(id);
      }
      slots.push(slot);
    }
    if (!visit(day, slots)) return;
  }
}

/** Every slot in the range, sorted by start (then end), in the shape the slot endpoints serialise. */
export function computeSlots(input: SlotInput): Slot[] {
  const out: Slot[] = [];
  eachDay(input, (day, slots) => {
    for (const raw of slots) {
      const start = slotTimeTexts(raw.startMs, offsetOn(day, raw.startMs, input.timeZone), input.locale);
      const end = slotTimeTexts(raw.endMs, offsetOn(day, raw.endMs, input.timeZone), input.locale);
      out.push({
        startMs: raw.startMs,
        endMs: raw.endMs,
        date: day.date,
        timestamp: start.iso,
        timestamp_end: end.iso,
        formatted_timestamp: start.local,
        formatted_timestamp_end: end.local,
        free: raw.free,
        available_resources: raw.available_resources,
        maximum_capacity: raw.maximum_capacity,
      });
    }
    return true;
  });
  return out;
}

const hasFree = (slots: RawSlot[]) => slots.some((slot) => slot.free > 0);

/** Dates in the range with at least one slot that has free capacity. */
export function availableDates(input: SlotInput): string[] {
  const dates: string[] = [];
  eachDay(input, (day, slots) => {
    if (hasFree(slots)) dates.push(day.date);
    return true;
  });
  return dates;
}

/** The first date in the range with a free slot, or null; stops computing at that date. */
export function nextAvailableDate(input: SlotInput): string | null {
  let found: string | null = null;
  eachDay(input, (day, slots) => {
    if (hasFree(slots)) found = day.date;
    return found === null;
  });
  return found;
}
