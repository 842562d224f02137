// The private API's own tools: its booking create and state actions, and reads over bookings
// and people, each the REST route's service call with its input schema (features/bookings,
// features/people). A key opens its own account and nothing more, as on the REST routes.
import { nationalIdKeys } from "../../config";
import * as z from "zod";
import { idParam } from "../../http/fields";
import { pageRequest, BOOKINGS_PAGE_SIZE } from "../../http/pagination";
import { Booking as RestBooking, Person, PublicBooking } from "../../openapi/objects";
import { listAnswer } from "../bookings/list-answer";
import { actionBody, createBookingBody, listQuery, showQuery, verifyCodeBody } from "../bookings/schema";
import { createBooking, getBookingWithRelated, LISTINGS, transition, verifyWithCode } from "../bookings/service";
import { peopleQuery } from "../people/schema";
import { toPersonJson } from "../people/serializer";
import { getPerson, listPeople } from "../people/service";
import { idempotencyKeyInput, oncePerKey } from "./idempotent";
import { bookingJson } from "./rendering";
import { defineTool, type McpTool } from "./tool";

const bookingId = idParam.meta({ description: "The booking's id." });

/**
 * The private API's booking with its resource, service and event in brief, as REST answers it
 * without `extended`: the whole objects would make each tool's outputSchema (which an assistant
 * carries in its context for every tool) about three times larger, for fields get_person and
 * list_services already answer.
 */
const Booking = RestBooking.extend({ resource: PublicBooking.shape.resource, service: PublicBooking.shape.service, event: PublicBooking.shape.event });
const answered = z.object({ booking: Booking });
/** The REST inputs without `extended`, which asks for the whole related objects (see Booking). */
const brief = { extended: true } as const;

const nextCursor = z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." });

const book = defineTool({
  name: "book",
  title: "Create a booking",
  description:
    "Creates a booking as POST /bookings does on the private API: for a service's time (booked_from, booked_to) or an event, for a person (person_id or person_attributes). `confirm: true` skips verification; capacity is checked unless ignore_capacity.",
  input: createBookingBody.omit(brief).extend({ idempotency_key: idempotencyKeyInput() }),
  output: answered,
  root: "booking",
  async run(context, { idempotency_key, ...body }) {
    return oncePerKey(context, "book", idempotency_key, body, async () => ({ booking: await bookingJson(context.deps, await createBooking(context.deps, body)) }));
  },
});

const getBooking = defineTool({
  name: "get_booking",
  title: "Get a booking",
  description: "One booking of the account by id, with its person, service and resource.",
  input: showQuery.omit(brief).extend({ booking_id: bookingId }),
  output: answered,
  annotations: { readOnlyHint: true },
  async run({ deps }, { booking_id }) {
    return { booking: await bookingJson(deps, await getBookingWithRelated(deps, booking_id)) };
  },
});

const listBookings = defineTool({
  name: "list_bookings",
  title: "List bookings",
  description: `The account's bookings, as GET /bookings answers them: filter by service_id, person_id, resource_id, event_id, start and end (instants), state. \`listing\` picks upcoming, recent, unconfirmed, all or visible instead of the active ones. Up to ${BOOKINGS_PAGE_SIZE} a page.`,
  input: listQuery.omit(brief).extend({ listing: z.enum(LISTINGS).optional() }),
  output: z.object({ bookings: z.array(Booking), total_count: z.number().int(), next_cursor: nextCursor }),
  annotations: { readOnlyHint: true },
  async run({ deps }, { listing = "active", ...query }) {
    const answer = await listAnswer(deps, listing, query, pageRequest(query.page, BOOKINGS_PAGE_SIZE, query.cursor));
    const items = JSON.parse(new TextDecoder().decode(answer.body)) as { booking: Record<string, unknown> }[];
    return { bookings: items.map((item) => item.booking), total_count: answer.total, next_cursor: answer.nextCursor ?? null };
  },
});

const verifyBooking = defineTool({
  name: "verify_booking",
  title: "Verify a booking with its code",
  description: "Submits the code the person received for a booking awaiting_verification.",
  input: verifyCodeBody.omit(brief).extend({ booking_id: bookingId }),
  output: answered,
  async run({ deps }, { booking_id, verification_code, ...flags }) {
    return { booking: await bookingJson(deps, await verifyWithCode(deps, booking_id, verification_code, flags)) };
  },
});

const ACTIONS = {
  confirm: { title: "Confirm a booking", description: "Confirms a booking awaiting confirmation (or verification).", annotations: {} },
  decline: { title: "Decline a booking", description: "Declines a booking awaiting confirmation: its time is free again.", annotations: { destructiveHint: true } },
  cancel: { title: "Cancel a booking", description: "Cancels a booking: its time is free again.", annotations: { destructiveHint: true } },
} as const;

const actionTool = (action: keyof typeof ACTIONS) =>
  defineTool({
    name: `${action}_booking`,
    ...ACTIONS[action],
    description: `${ACTIONS[action].description} The person is told as the account's messages say, unless a *_send_* flag says otherwise.`,
    input: actionBody.omit(brief).extend({ booking_id: bookingId }),
    output: answered,
    async run({ deps }, { booking_id, ...flags }) {
      return { booking: await bookingJson(deps, await transition(deps, booking_id, action, flags)) };
    },
  });

const listPeopleTool = defineTool({
  name: "list_people",
  title: "Find people",
  description:
    "The account's people (customers), as GET /people answers them: `search` matches name, e-mail and phone; or filter by email, phone_number, name, external_id.",
  input: peopleQuery,
  output: z.object({ people: z.array(Person), total_count: z.number().int(), next_cursor: nextCursor }),
  annotations: { readOnlyHint: true },
  async run({ deps }, query) {
    const { rows, total, nextCursor: next } = await listPeople(deps, query, pageRequest(query.page, undefined, query.cursor));
    return { people: rows.map((p) => toPersonJson(p, deps.account.time_zone, nationalIdKeys(deps.env))), total_count: total, next_cursor: next ?? null };
  },
});

const getPersonTool = defineTool({
  name: "get_person",
  title: "Get a person",
  description: "One person of the account by id.",
  input: z.object({ person_id: idParam }),
  output: z.object({ person: Person }),
  annotations: { readOnlyHint: true },
  async run({ deps }, { person_id }) {
    return { person: toPersonJson(await getPerson(deps, person_id), deps.account.time_zone, nationalIdKeys(deps.env)) };
  },
});

export const privateBookingTools: McpTool[] = [
  book,
  verifyBooking,
  getBooking,
  listBookings,
  actionTool("confirm"),
  actionTool("decline"),
  actionTool("cancel"),
  listPeopleTool,
  getPersonTool,
];
