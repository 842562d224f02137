// What the booking page shows for its query string: services by category, then for a chosen
// service the month's available dates, the chosen day's slots, the chosen slot; or one booking;
// or one waitlist offer, opened by the link its message carried.
import { nationalIdKeys } from "../../config";
import type { Account, Service } from "../../db/schema";
import type { Slot } from "../../domain/slots";
import { endOfMonth, todayIn } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { loadRelated } from "../bookings/queries";
import { toPublicBookingJson } from "../bookings/serializer";
import { isActive } from "../../domain/booking-states";
import { bookingWithToken, cancellableUntil, visitorMayMove } from "../bookings/site";
import { listCategories } from "../categories/service";
import { getService, listServices } from "../services/service";
import { availableDatesOf, slotsOf } from "../slots/service";
import { entryFor } from "../waitlist/service";

interface PageQuery {
  service?: number;
  month?: string;
  day?: string;
  slot?: string;
  wait?: string;
  booking?: number;
  token?: string;
  waitlist?: number;
  offer?: string;
  taken: boolean;
  /** Back from the booking's checkout (its success or cancel page, payments/checkout.ts). */
  payment?: "return" | "cancelled";
  /** The booking (with `token`) whose time the visitor is changing: the service's calendar picks the new one. */
  move?: number;
  /** Back from a move: the booking view says so. */
  moved: boolean;
}

// Up to 15 digits: shard n hands out ids from n × 10¹² (db/shards.ts), all below 2^53.
const ID = /^[1-9]\d{0,14}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A page is a link anyone may mangle: a value that is not well formed is ignored, never an error. */
export function pageQuery(q: Record<string, string | undefined>): PageQuery {
  const pick = (value: string | undefined, pattern: RegExp) => (value && pattern.test(value) ? value : undefined);
  const service = pick(q.service, ID);
  const booking = pick(q.booking, ID);
  const waitlist = pick(q.waitlist, ID);
  const move = pick(q.move, ID);
  const day = pick(q.day, DAY);
  return {
    service: service ? Number(service) : undefined,
    month: pick(q.month, MONTH) ?? day?.slice(0, 7),
    day,
    slot: q.slot && q.slot.length <= 40 ? q.slot : undefined,
    wait: q.wait && q.wait.length <= 40 ? q.wait : undefined,
    booking: booking ? Number(booking) : undefined,
    token: q.token && q.token.length <= 100 ? q.token : undefined,
    waitlist: waitlist ? Number(waitlist) : undefined,
    offer: q.offer && q.offer.length <= 100 ? q.offer : undefined,
    taken: q.taken === "1",
    payment: q.payment === "return" || q.payment === "cancelled" ? q.payment : undefined,
    move: move ? Number(move) : undefined,
    moved: q.moved === "1",
  };
}

interface ServiceGroup {
  title: string | null;
  services: Service[];
}

export interface ChosenService {
  service: Service;
  month: string;
  dates: string[];
  day?: string;
  slots?: Slot[];
  slot?: Slot;
  /** A full slot whose waitlist the visitor asked to join (`?wait=`, only with `waitlist`). */
  waitSlot?: Slot;
  /** Changing a booking's time: the booking, and what every link of the calendar keeps (`move`, `token`). */
  moving?: { booking: BookingView; keep: { move: number; token: string } };
}

export type BookingView = ReturnType<typeof toPublicBookingJson> & {
  cancellable_until: number;
  from: number;
  to: number;
  revision: number;
  changed_at: number;
  /** Until when an unpaid booking keeps its seat (its payment window). */
  expires: number | null;
  /** The visitor may change its time now (docs/decisions/booking-site.md, "Moving by the visitor"). */
  movable: boolean;
};

/** A waitlist place as its offer link shows it: the time, and whether the offer still stands. */
export interface OfferView {
  id: number;
  state: string;
  serviceTitle: string;
  from: number;
  to: number;
  expiresAt: number | null;
}

export interface PageData {
  groups: ServiceGroup[];
  chosen?: ChosenService;
  booking?: BookingView | null;
  /** Null when the link's id and secret open no entry of this account (a 404). */
  offer?: OfferView | null;
  today: string;
  /** The account's `slot_holds_enabled`: the script holds a picked time while the form is open. */
  holds: boolean;
  /** The account's `waitlist_enabled`: a full slot offers to join its line. */
  waitlist: boolean;
}

/** Whether the page and the widget hold a picked time. */
export const holdsSlots = (account: Account) => account.slot_holds_enabled;

/** Active services under each category that holds any; the rest under one untitled group. */
async function serviceGroups(deps: Deps): Promise<ServiceGroup[]> {
  const [services, categories] = await Promise.all([listServices(deps), listCategories(deps)]);
  const byId = new Map(services.map((s) => [s.id, s]));
  const placed = new Set<number>();
  const groups: ServiceGroup[] = [];
  for (const { category, serviceIds } of categories) {
    const members = serviceIds.map((id) => byId.get(id)).filter((s): s is Service => s !== undefined);
    if (members.length === 0) continue;
    for (const s of members) placed.add(s.id);
    groups.push({ title: category.title, services: members });
  }
  const rest = services.filter((s) => !placed.has(s.id));
  if (rest.length > 0) groups.push({ title: null, services: rest });
  return groups;
}

/** Null when the id names no active service of this account: the page then offers the list. */
async function chosenService(deps: Deps, q: PageQuery, today: string): Promise<ChosenService | undefined> {
  if (q.service === undefined) return undefined;
  const service = await orNull(getService(deps, q.service, { activeOnly: true }));
  if (!service) return undefined;
  const month = q.month ?? today.slice(0, 7);
  const first = `${month}-01`;
  const dates = await availableDatesOf(deps, service.id, { from: first, to: endOfMonth(first) }, { publicOnly: true });
  if (!q.day || q.day.slice(0, 7) !== month) return { service, month, dates };
  const slots = await slotsOf(deps, service.id, { from: q.day, to: q.day }, { publicOnly: true });
  const slot = q.slot ? slots.find((s) => s.timestamp === q.slot && s.free > 0) : undefined;
  const waitSlot = q.wait && deps.account.waitlist_enabled ? slots.find((s) => s.timestamp === q.wait && s.free === 0) : undefined;
  return { service, month, dates, day: q.day, slots, slot, waitSlot };
}

async function bookingView(deps: Deps, id: number, token: string | undefined): Promise<BookingView | null> {
  const booking = await orNull(bookingWithToken(deps, id, token));
  if (!booking) return null;
  const related = await loadRelated(deps, [booking]);
  const json = toPublicBookingJson(booking, related, { timeZone: deps.account.time_zone, now: deps.now, extended: false, keys: nationalIdKeys(deps.env) });
  const until = cancellableUntil(deps, booking);
  // The page moves appointments; an event booking moves through the API (its calendar is the events').
  const movable =
    visitorMayMove(deps.account) &&
    isActive(booking, deps.now) &&
    booking.state !== "awaiting_payment" &&
    booking.event_id === null &&
    booking.service_id !== null &&
    deps.now <= until;
  return {
    ...json,
    cancellable_until: until,
    from: booking.booked_from,
    to: booking.booked_to,
    revision: booking.revision,
    changed_at: booking.updated_at,
    expires: booking.expires_at,
    movable,
  };
}

/** The offer's secret (or the entry's own token) opens the entry, as GET /waitlist/{id} does. */
async function offerView(deps: Deps, q: PageQuery): Promise<OfferView | null> {
  const entry = await orNull(entryFor(deps, q.waitlist!, { kind: "visitor", token: q.offer }));
  if (!entry) return null;
  const service = await orNull(getService(deps, entry.service_id));
  return {
    id: entry.id,
    state: entry.state,
    serviceTitle: service?.title ?? "",
    from: entry.booked_from,
    to: entry.booked_to,
    expiresAt: entry.offer_expires_at,
  };
}

/** A 404 (unknown or foreign id, wrong token) becomes "nothing chosen"; anything else is a real error. */
async function orNull<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export async function loadPage(deps: Deps, q: PageQuery): Promise<PageData> {
  const today = todayIn(deps.now, deps.account.time_zone);
  const holds = holdsSlots(deps.account);
  const waitlist = deps.account.waitlist_enabled;
  if (q.waitlist !== undefined) return { groups: [], offer: await offerView(deps, q), today, holds, waitlist };
  if (q.booking !== undefined) return { groups: [], booking: await bookingView(deps, q.booking, q.token), today, holds, waitlist };
  if (q.move !== undefined) {
    // A booking that cannot move (any more) shows as itself, without "Change time".
    const booking = await bookingView(deps, q.move, q.token);
    if (!booking?.movable) return { groups: [], booking, today, holds, waitlist };
    const chosen = await chosenService(deps, { ...q, service: booking.service!.id }, today);
    if (!chosen) return { groups: [], booking, today, holds, waitlist };
    return { groups: [], chosen: { ...chosen, moving: { booking, keep: { move: q.move, token: q.token! } } }, today, holds, waitlist };
  }
  const [groups, chosen] = await Promise.all([serviceGroups(deps), chosenService(deps, q, today)]);
  return { groups, chosen, today, holds, waitlist };
}
