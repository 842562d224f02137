// The booking site's own tools, as a visitor books there: under the public rules, with
// verification, and only the booking its token opens (features/bookings/site.ts).
import * as z from "zod";
import { idParam } from "../../http/fields";
import { PublicBooking } from "../../openapi/objects";
import { createBookingBody, siteMoveBody, siteVerifyCodeBody } from "../bookings/schema";
import { bookingWithTokenAndRelated, cancelOnSite, createOnSite, verifyOnSite } from "../bookings/site";
import { idempotencyKeyInput, oncePerKey } from "./idempotent";
import { publicBookingJson } from "./rendering";
import { defineTool, type McpTool } from "./tool";

/** What a visitor's booking is made of: the REST create's own attributes, without the back office's. */
const visitorBooking = createBookingBody.shape.booking
  .pick({
    service_id: true,
    event_id: true,
    resource_id: true,
    booked_from: true,
    booked_to: true,
    count: true,
    notes: true,
    person_attributes: true,
  })
  .extend({
    person_attributes: createBookingBody.shape.booking.shape.person_attributes.meta({
      description:
        "Who books: `name`, `email`, `phone_number` (and optionally `street`, `postal_code`, `city`, `date_of_birth`). The account's verification method says which contact is required (see the server instructions).",
    }),
  });

const bookingToken = z.string().meta({ description: "The booking_token `book` answered: it opens that one booking." });

const answered = z.object({ booking: PublicBooking });

const book = defineTool({
  name: "book",
  title: "Book a time",
  description:
    "Books a free time for the person named: from find_times, its timestamp and timestamp_end as booked_from and booked_to with the service_id, or for a class or event its event_id alone. The answer's booking_token opens the booking later. When the booking is awaiting_verification, a code was sent to the person: ask them for it and call verify_booking, or the booking lapses in 20 minutes.",
  input: z.object({ booking: visitorBooking, hold_secret: createBookingBody.shape.hold_secret, idempotency_key: idempotencyKeyInput() }),
  output: z.object({ booking: PublicBooking, booking_token: bookingToken }),
  root: "booking",
  async run(context, { idempotency_key, ...body }) {
    return oncePerKey(context, "book", idempotency_key, body, async () => {
      const { booking, token } = await createOnSite(context.deps, body, context.siteOrigin);
      return { booking: await publicBookingJson(context.deps, booking), booking_token: token };
    });
  },
});

const ownBooking = { booking_id: idParam, booking_token: bookingToken };

const verifyBooking = defineTool({
  name: "verify_booking",
  title: "Verify a booking with its code",
  description: "Submits the code the person received by e-mail or SMS for a booking awaiting_verification. Five wrong codes and the booking can no longer be verified.",
  input: z.object({ ...ownBooking, ...siteVerifyCodeBody.shape }),
  output: answered,
  async run({ deps, siteOrigin }, { booking_id, booking_token, verification_code }) {
    return { booking: await publicBookingJson(deps, await verifyOnSite(deps, booking_id, booking_token, verification_code, siteOrigin)) };
  },
});

const showBooking = defineTool({
  name: "show_booking",
  title: "Show a booking",
  description: "The person's own booking, opened by its booking_token: its time, service and state.",
  input: z.object(ownBooking),
  output: answered,
  annotations: { readOnlyHint: true },
  async run({ deps }, { booking_id, booking_token }) {
    return { booking: await publicBookingJson(deps, await bookingWithTokenAndRelated(deps, booking_id, booking_token)) };
  },
});

const cancelBooking = defineTool({
  name: "cancel_booking",
  title: "Cancel a booking",
  description: "Cancels the person's own booking, opened by its booking_token, where the account allows cancelling online and it is not too late.",
  input: z.object(ownBooking),
  output: answered,
  annotations: { destructiveHint: true },
  async run({ deps, siteOrigin }, { booking_id, booking_token }) {
    return { booking: await publicBookingJson(deps, await cancelOnSite(deps, booking_id, booking_token, siteOrigin)) };
  },
});

const moveBooking = defineTool({
  name: "move_booking",
  title: "Move a booking to another time",
  description:
    "Moves the person's own booking, opened by its booking_token, to another free time of the same service: from find_times, its timestamp and timestamp_end as booked_from and booked_to (for a class or event booking, another event of the same service as event_id). The old time is released only when the new one is taken; a refusal leaves the booking as it was. Allowed where the account lets visitors move bookings online and neither the old nor the new time is inside its cancellation period.",
  input: z.object({ ...ownBooking, ...siteMoveBody.shape }),
  output: answered,
  root: "booking",
  async run({ deps, siteOrigin }, { booking_id, booking_token, ...body }) {
    const { moveOnSite } = await import("../bookings/move");
    return { booking: await publicBookingJson(deps, await moveOnSite(deps, booking_id, booking_token, body, siteOrigin)) };
  },
});

export const siteBookingTools: McpTool[] = [book, verifyBooking, showBooking, cancelBooking, moveBooking];
