// Where a booking (or a slot hold, or a waitlist offer) of a time may go: the event, the named
// resource or the service's free providers, under the public rules when asked, with the
// references read in one round trip. The create, holds and the waitlist all place through here.
import type { Resource, Service } from "../../db/schema";
import { buffersOf, NO_BUFFERS, occupiedSpan, type Buffers } from "../../domain/buffers";
import type { Deps } from "../../env";
import { ApiError, ErrorCollector } from "../../http/errors";
import type { CapacityScope } from "./capacity-sql";
import { bookingDate, checkPublicTimes, closedForHoliday, exceptionHoursByResource, exceptionHoursOfDate, isInsideOpeningHours } from "./public-rules";
import { bookingReferences, eventWithReferences, instantOf, type CurrentVersion, type MoreReads } from "./references";
import type { CreateBookingBody } from "./schema";

export const FULLY_BOOKED = "is not available: the resource is fully booked at this time";
export const EVENT_FULL = "is fully booked";

export interface Placement {
  from: number;
  to: number;
  service: Service | null;
  eventId: number | null;
  /** Held around the times on a resource; none on an event, whose capacity is its own (buffers.md). */
  buffers: Buffers;
  /** Where the booking may go, in the order they are tried. */
  candidates: Candidate[];
  /** The availability version read with the references, when read on the primary (refusal-memo.ts). */
  version: CurrentVersion;
  /** The results of the caller's reads (`MoreReads` groups, in order), made in the references batch. */
  moreReads: D1Result[][];
}

export interface Candidate {
  resource: Resource;
  scope: CapacityScope;
}

const resourceScope = (resource: Resource): CapacityScope => ({ kind: "resource", id: resource.id, capacity: resource.capacity });

/** An event booking takes the event's times, resource and service, and the event's capacity. */
async function placeOnEvent(deps: Deps, eventId: number, isPublic: boolean, moreReads: MoreReads[]): Promise<Placement> {
  const { event, resource, service, version, more } = await eventWithReferences(deps, eventId, moreReads);
  if (!event) throw ApiError.invalid("event_id", "does not exist");
  if (!event.active || (isPublic && !event.published)) throw ApiError.invalid("event_id", "is not open for booking");
  if (isPublic && event.starts_at < deps.now) throw ApiError.invalid("event_id", "has already started");
  if (!resource) throw ApiError.invalid("event_id", "has no resource");
  return {
    from: event.starts_at,
    to: event.ends_at,
    service: service ?? null,
    eventId: event.id,
    buffers: NO_BUFFERS,
    candidates: [{ resource, scope: { kind: "event", id: event.id, capacity: event.capacity } }],
    version,
    moreReads: more,
  };
}

async function placeOnResource(deps: Deps, input: SlotInput, isPublic: boolean, moreReads: MoreReads[]): Promise<Placement> {
  const errors = new ErrorCollector();
  const from = instantOf(deps, errors, "booked_from", input.booked_from);
  const to = instantOf(deps, errors, "booked_to", input.booked_to);
  if (input.booked_from === undefined) errors.add("booked_from", "can't be blank");
  if (input.booked_to === undefined) errors.add("booked_to", "can't be blank");
  if (typeof from === "number" && typeof to === "number" && to <= from) errors.add("booked_to", "must be after booked_from");

  // Service, resource, the service's providers (only when used), the person's reads and, for a
  // public booking, the candidates' exception hours of its date, in one round trip.
  const named = { serviceId: input.service_id ?? undefined, resourceId: input.resource_id ?? undefined };
  const date = isPublic && typeof from === "number" ? bookingDate(deps, from) : undefined;
  const exceptionReads: MoreReads = (d1) => (date === undefined ? [] : [exceptionHoursOfDate(d1, deps, date, named)]);
  const refs = await bookingReferences(deps, { ...named, withProviders: !input.resource_id || isPublic }, [...moreReads, exceptionReads]);
  const [exceptionRows] = refs.more[moreReads.length];
  let service: Service | null = null;
  if (input.service_id) {
    service = refs.service ?? null;
    if (!service) errors.add("service_id", "does not exist");
    else if (isPublic && !service.active) errors.add("service_id", "is not active");
  }
  let resources: Resource[] = [];
  if (input.resource_id) {
    const resource = refs.resource;
    if (!resource) errors.add("resource_id", "does not exist");
    else if (!resource.active) errors.add("resource_id", "is not active");
    else resources = [resource];
    if (resource && service && isPublic && !refs.providers.some((r) => r.id === resource.id)) {
      errors.add("resource_id", "does not provide this service");
    }
  } else if (service) {
    resources = refs.providers;
    if (resources.length === 0) errors.add("resource_id", "can't be assigned: no active resource provides this service");
  } else if (!input.service_id) {
    errors.add("resource_id", "can't be blank");
  }
  if (isPublic && typeof from === "number" && typeof to === "number" && to > from) {
    checkPublicTimes(errors, { from, to, now: deps.now }, deps.account, service);
  }
  errors.throwIfAny();

  if (isPublic) {
    const exceptions = exceptionHoursByResource(exceptionRows);
    const holiday = await closedForHoliday(deps, bookingDate(deps, from!));
    // Buffers reach into closed hours unless the account keeps them inside (docs/decisions/buffers.md).
    const inside = deps.account.buffers_within_opening_hours ? occupiedSpan(from!, to!, buffersOf(service)) : { from: from!, to: to! };
    const open = resources.filter((resource) => isInsideOpeningHours(deps, resource, inside.from, inside.to, exceptions, holiday));
    if (open.length === 0) throw ApiError.invalid("booked_from", "is outside the resource's opening hours");
    resources = open;
  }
  return {
    from: from!,
    to: to!,
    service,
    eventId: null,
    buffers: buffersOf(service),
    candidates: resources.map((resource) => ({ resource, scope: resourceScope(resource) })),
    version: refs.version,
    moreReads: refs.more.slice(0, moreReads.length),
  };
}

/** What places a booking or a hold: a service's time, or an event (domain of `placeSlot`). */
type SlotInput = Pick<CreateBookingBody["booking"], "service_id" | "event_id" | "resource_id" | "booked_from" | "booked_to">;

/**
 * Where a booking (or a slot hold: features/holds) of `input` may go, under the public rules when
 * `isPublic`, with the caller's `moreReads` in the same round trip as the references.
 */
export const placeSlot = (deps: Deps, input: SlotInput, isPublic: boolean, moreReads: MoreReads[] = []): Promise<Placement> =>
  input.event_id ? placeOnEvent(deps, input.event_id, isPublic, moreReads) : placeOnResource(deps, input, isPublic, moreReads);
