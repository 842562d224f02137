// Slots of a service for a date range: appointment services from their providers' opening hours
// and bookings (the pure engine in domain/slots.ts), attendance services from their events;
// repeated reads come from the isolate's cached answer while nothing changed (answer-cache.ts).
import type { Account } from "../../db/schema";
import { noteCache } from "../../db/request-scope";
import { bookableWindow, type BookableWindow } from "../../domain/bookable-window";
import { loadHolidays } from "../../domain/load-holidays";
import { weeklyHoursOf } from "../../domain/opening-hours";
import { slotTimeTexts } from "../../domain/slot-format";
import { computeSlots, type Locale, type Slot, type SlotInput } from "../../domain/slots";
import { addDays, dateInZone, daysBetween, endOfMonth, offsetMsAt, startOfDay, todayIn } from "../../domain/time";
import type { OpeningHours } from "../../db/schema";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { ANSWER_MAX_AGE_MS, cachedAnswer, confirmed, keepAnswer, trusted } from "./answer-cache";
import { slotReads } from "./queries";
import { MAX_RANGE_DAYS, NEXT_AVAILABLE_WINDOW_DAYS, type SlotsQuery } from "./schema";

interface DateRange {
  from: string;
  to: string;
}

type RangeDefault = "same_day" | "end_of_month" | "next_available_window";

/** The asked range, defaults filled in the account zone (spec: "default today"). */
function rangeOf(query: SlotsQuery, account: Account, now: number, fallback: RangeDefault): DateRange {
  const from = query.from ?? todayIn(now, account.time_zone);
  const to =
    query.to ??
    {
      same_day: from,
      end_of_month: endOfMonth(from),
      next_available_window: addDays(from, NEXT_AVAILABLE_WINDOW_DAYS - 1),
    }[fallback];
  if (to < from) throw ApiError.invalid("to", "must be on or after from");
  if (daysBetween(from, to) > MAX_RANGE_DAYS) throw ApiError.invalid("to", `must be at most ${MAX_RANGE_DAYS} days after from`);
  return { from, to };
}

/**
 * Slots of the range over the bookable window now, widened to where it will reach within
 * ANSWER_MAX_AGE_MS, with what a cached copy needs: the versions and the first lapse. Null when
 * the versions are still `unlessVersion` (the cached answer stands; nothing was read).
 */
async function compute(
  deps: Deps,
  serviceId: number,
  range: DateRange,
  selected: number[] | undefined,
  publicOnly: boolean,
  windowNow: BookableWindow,
  unlessVersion?: string,
) {
  const { account, now } = deps;
  const tz = account.time_zone;
  const instants = { from: startOfDay(range.from, tz), to: startOfDay(addDays(range.to, 1), tz) };
  const reads = await slotReads(deps, serviceId, instants, range, { selected, publicOnly, unlessVersion });
  if (reads === "unchanged") return null;
  const window: BookableWindow = { earliest: windowNow.earliest, latest: bookableWindow(now + ANSWER_MAX_AGE_MS, account, tz).latest };
  const service = reads.service;
  if (!service) throw ApiError.notFound("service");
  const fresh = { version: reads.version, firstLapse: reads.firstLapse };

  if (service.booking_type === "attendance") {
    const locale = account.locale as Locale;
    const slots: Slot[] = reads.events
      .filter((event) => event.starts_at >= window.earliest && event.starts_at <= window.latest)
      .filter((event) => !selected || selected.includes(event.resource_id))
      .map((event) => {
        const free = Math.max(0, event.capacity - (reads.booked.get(event.id) ?? 0));
        const start = slotTimeTexts(event.starts_at, offsetMsAt(event.starts_at, tz), locale);
        const end = slotTimeTexts(event.ends_at, offsetMsAt(event.ends_at, tz), locale);
        return {
          startMs: event.starts_at,
          endMs: event.ends_at,
          date: dateInZone(event.starts_at, tz),
          timestamp: start.iso,
          timestamp_end: end.iso,
          formatted_timestamp: start.local,
          formatted_timestamp_end: end.local,
          free,
          available_resources: free > 0 ? [event.resource_id] : [],
          maximum_capacity: event.capacity,
          event_id: event.id,
        };
      });
    return { ...fresh, slots };
  }

  const found = reads.resources;
  const exceptions = new Map<number, Map<string, OpeningHours>>(found.map((r) => [r.id, new Map()]));
  for (const row of reads.exceptions) exceptions.get(row.resource_id)?.set(row.exception_date, row.opening_hours);

  const input: SlotInput = {
    timeZone: tz,
    locale: account.locale as Locale,
    now,
    window,
    from: range.from,
    to: range.to,
    resources: found.map((r) => ({ id: r.id, capacity: r.capacity, weekly: weeklyHoursOf(r), exceptions: exceptions.get(r.id)! })),
    bookings: reads.bookings,
    holidays: account.closed_for_holidays
      ? new Set((await loadHolidays()).publicHolidays(account.country_code, "en", range.from, range.to).map((h) => h.date))
      : new Set(),
    service: {
      interval: service.interval,
      interval_rounding: service.interval_rounding,
      max_slots: service.max_slots,
      has_day_booking: service.has_day_booking,
      day_booking_specify_time: service.day_booking_specify_time,
      same_day: service.same_day,
      buffer_before: service.buffer_before,
      buffer_after: service.buffer_after,
    },
    account: {
      interval_rounding: account.interval_rounding,
      slot_generation_type: account.slot_generation_type === 1 ? 1 : 2,
      buffers_within_opening_hours: account.buffers_within_opening_hours,
      first_bookable_period: account.first_bookable_period,
      future_bookable_period: account.future_bookable_period,
    },
  };
  return { ...fresh, slots: computeSlots(input) };
}

/** `exact`: the request carries a D1 bookmark, so the version is read even when trusted (read your writes). */
export interface SlotReadOptions {
  publicOnly: boolean;
  exact?: boolean;
}

/**
 * Every slot of the range at this request's now. While this isolate trusts a cached answer's
 * versions (answer-cache.ts), no D1 round trip at all; else one batch that reads the versions and,
 * only when they differ from the cached answer's, the rows (queries.ts). The three endpoints
 * differ only in what they take from these slots.
 */
async function slotsInRange(deps: Deps, serviceId: number, range: DateRange, selected: number[] | undefined, options: SlotReadOptions): Promise<SlotAnswer> {
  const { account, now } = deps;
  const window = bookableWindow(now, account, account.time_zone);
  const within = (slots: Slot[], cached: boolean): SlotAnswer => ({ slots: slots.filter((s) => s.startMs >= window.earliest && s.startMs <= window.latest), cached });
  const key = [account.id, options.publicOnly ? "public" : "private", serviceId, range.from, range.to, selected?.join(",") ?? "all"].join("|");

  const cached = cachedAnswer(key, account, now);
  if (cached && !options.exact && trusted(cached, account.id, now)) {
    noteCache("hit");
    return within(cached.slots, true);
  }
  const fresh = await compute(deps, serviceId, range, selected, options.publicOnly, window, cached?.version);
  noteCache(fresh ? "miss" : "hit");
  if (!fresh) {
    confirmed(cached!, now);
    return within(cached!.slots, true);
  }
  keepAnswer(key, { version: fresh.version, checkedAt: now, account, slots: fresh.slots, validUntil: Math.min(now + ANSWER_MAX_AGE_MS, fresh.firstLapse ?? Infinity) });
  return within(fresh.slots, false);
}

/** Slots of a read, and whether they are an answer this isolate had kept (`false`: just computed). */
export interface SlotAnswer {
  slots: Slot[];
  cached: boolean;
}

export async function slotAnswerOf(deps: Deps, serviceId: number, query: SlotsQuery, options: SlotReadOptions): Promise<SlotAnswer> {
  const range = rangeOf(query, deps.account, deps.now, "same_day");
  return slotsInRange(deps, serviceId, range, query.selected_resources, options);
}

export async function slotsOf(deps: Deps, serviceId: number, query: SlotsQuery, options: SlotReadOptions): Promise<Slot[]> {
  return (await slotAnswerOf(deps, serviceId, query, options)).slots;
}

const datesWithFreeSlots = (slots: Slot[]) => [...new Set(slots.filter((s) => s.free > 0).map((s) => s.date))];

export async function availableDatesOf(deps: Deps, serviceId: number, query: SlotsQuery, options: SlotReadOptions): Promise<string[]> {
  const range = rangeOf(query, deps.account, deps.now, "end_of_month");
  return datesWithFreeSlots((await slotsInRange(deps, serviceId, range, query.selected_resources, options)).slots);
}

/** spec: the next date with a free slot within 30 days of `from`. */
export async function nextAvailableDateOf(deps: Deps, serviceId: number, query: SlotsQuery, options: SlotReadOptions): Promise<string | null> {
  const range = rangeOf({ ...query, to: undefined }, deps.account, deps.now, "next_available_window");
  const { slots } = await slotsInRange(deps, serviceId, range, query.selected_resources, options);
  return slots.find((s) => s.free > 0)?.date ?? null;
}
