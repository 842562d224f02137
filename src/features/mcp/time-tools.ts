// The tools both endpoints share for finding a time: the services, the dates with a free time,
// the free times of a date range, and a hold on one while the person's details are gathered.
import * as z from "zod";
import { offsetMsAt } from "../../domain/time";
import { slotTimeTexts } from "../../domain/slot-format";
import type { Slot as FoundSlot } from "../../domain/slots";
import { idParam, timeZone } from "../../http/fields";
import { PublicService, Service, Slot, SlotHold } from "../../openapi/objects";
import { localeOf } from "../messages/defaults";
import { createHoldBody } from "../holds/schema";
import { toHoldJson } from "../holds/serializer";
import { createHold, releaseHold } from "../holds/service";
import { toPublicServiceJson, toServiceJson } from "../services/serializer";
import { listServices } from "../services/service";
import { slotsQuery } from "../slots/schema";
import { toSlotJson } from "../slots/serializer";
import { availableDatesOf, slotsOf } from "../slots/service";
import { defineTool, type McpTool, type ToolContext } from "./tool";

/** Which endpoint a tool serves: the booking site sees what a visitor may (active services, public fields). */
export type Surface = "site" | "private";

const accountZone = z.string().meta({ description: "The account's IANA time zone: every time answered is in it." });

const serviceId = idParam.meta({ description: "The service's id, from list_services." });

const visitorZone = timeZone().optional().meta({
  description: "The person's own IANA time zone (e.g. America/New_York), when it is not the account's: each time is also answered in it.",
});

const rangeInput = slotsQuery.extend({ service_id: serviceId }).meta({});

const SLOT_TIME_ZONE_NOTE = "`from` and `to` are dates (YYYY-MM-DD) in the account's time zone.";

/** A free time, with its wall time in the person's zone when one was given. */
const FreeTime = Slot.extend({
  visitor_timestamp: z.string().optional().meta({ description: "The start in the person's time zone, ISO 8601 with its offset." }),
  visitor_formatted_timestamp: z.string().optional().meta({ description: "The start as the person reads it, in their time zone." }),
  event_id: z.number().int().optional().meta({ description: "A class or event (an attendance service's time): book it with this as booking.event_id." }),
});

function freeTimeJson(context: ToolContext, slot: FoundSlot, zone: string | undefined) {
  const json = { ...toSlotJson(slot), ...(slot.event_id ? { event_id: slot.event_id } : {}) };
  if (!zone) return json;
  const texts = slotTimeTexts(slot.startMs, offsetMsAt(slot.startMs, zone), localeOf(context.deps.account.locale));
  return { ...json, visitor_timestamp: texts.iso, visitor_formatted_timestamp: texts.local };
}

const listServicesTool = (surface: Surface) =>
  defineTool({
    name: "list_services",
    title: "List the services",
    description:
      "The services that can be booked (a haircut, a class, a room…), with their ids, length in minutes (`interval`) and price. Start here: every other tool takes a service id.",
    input: z.object({}),
    output: z.object({ time_zone: accountZone, services: z.array(surface === "site" ? PublicService : Service) }),
    annotations: { readOnlyHint: true },
    async run({ deps }) {
      const toJson = surface === "site" ? toPublicServiceJson : toServiceJson;
      const services = await listServices(deps);
      return { time_zone: deps.account.time_zone, services: services.map((s) => toJson(s, deps.account.time_zone)) };
    },
  });

const findAvailableDatesTool = (surface: Surface) =>
  defineTool({
    name: "find_available_dates",
    title: "Find the dates with a free time",
    description: `The dates on which the service has at least one free time. ${SLOT_TIME_ZONE_NOTE} Without \`to\`, up to the end of \`from\`'s month; without \`from\`, from today. At most 92 days at once.`,
    input: rangeInput,
    output: z.object({ time_zone: accountZone, dates: z.array(z.string().meta({ format: "date" })) }),
    annotations: { readOnlyHint: true },
    async run({ deps }, { service_id, ...range }) {
      const dates = await availableDatesOf(deps, service_id, range, { publicOnly: surface === "site", exact: false });
      return { time_zone: deps.account.time_zone, dates };
    },
  });

const findTimesTool = (surface: Surface) =>
  defineTool({
    name: "find_times",
    title: "Find the free times",
    description: `The times with a free seat for the service, in order. ${SLOT_TIME_ZONE_NOTE} Without \`to\`, the one day \`from\` (default today). Book one with its \`timestamp\` and \`timestamp_end\` as booked_from and booked_to, or, for a class or event, with its \`event_id\`.`,
    input: rangeInput.extend({ time_zone: visitorZone }),
    output: z.object({ time_zone: accountZone, slots: z.array(FreeTime) }),
    annotations: { readOnlyHint: true },
    async run(context, { service_id, time_zone, ...range }) {
      const { deps } = context;
      const slots = await slotsOf(deps, service_id, range, { publicOnly: surface === "site", exact: false });
      return { time_zone: deps.account.time_zone, slots: slots.filter((s) => s.free > 0).map((s) => freeTimeJson(context, s, time_zone)) };
    },
  });

const holdTimeTool = defineTool({
  name: "hold_time",
  title: "Hold a time",
  description:
    "Holds a free time for a few minutes (the answer's expires_at) while the person's details are gathered: nobody else can book it meanwhile. Book it with `book` and the answered hold_secret; a hold that is not booked lapses by itself.",
  input: createHoldBody.shape.slot_hold,
  output: z.object({ slot_hold: SlotHold, hold_secret: z.string().meta({ description: "Pass it to `book` as hold_secret, or to release_hold." }) }),
  async run({ deps, holder }, slotHold) {
    const { hold, secret } = await createHold(deps, { slot_hold: slotHold }, holder);
    return { slot_hold: toHoldJson(hold, deps.account.time_zone, deps.now), hold_secret: secret };
  },
});

const releaseHoldTool = defineTool({
  name: "release_hold",
  title: "Release a held time",
  description: "Gives a held time back at once, when the person will not book it after all.",
  input: z.object({
    hold_id: idParam,
    hold_secret: z.string().optional().meta({ description: "The hold_secret hold_time answered; the booking site needs it, the private API does not." }),
  }),
  output: z.object({ slot_hold: SlotHold }),
  annotations: { idempotentHint: true },
  async run({ deps, holder }, { hold_id, hold_secret }) {
    const hold = await releaseHold(deps, hold_id, holder, hold_secret);
    return { slot_hold: toHoldJson(hold, deps.account.time_zone, deps.now) };
  },
});

/** The tools for finding a time on `surface`. */
export const findingTools = (surface: Surface): McpTool[] => [listServicesTool(surface), findAvailableDatesTool(surface), findTimesTool(surface)];

/** The booking site offers these only where the account enabled holds; the private API always does. */
export const holdingTools: McpTool[] = [holdTimeTool, releaseHoldTool];
