// What paid bookings tell the person (docs/decisions/payments.md): the "complete your payment"
// nudge and word of a refund, by e-mail and SMS as their contact allows, through the message
// queue and the account's locale like every other message.
import type { Deps } from "../../env";
import { getBookingWithRelated, loadRelated } from "../bookings/queries";
import { enqueueMessage } from "../messages/enqueue";
import type { Channel } from "../messages/kinds";
import { renderMessage, type MessageContext } from "../messages/render";
import { templatesFor } from "../messages/templates";

export async function enqueuePaymentMessage(
  deps: Deps,
  bookingId: number,
  kind: "payment_reminder" | "refund",
  payment: NonNullable<MessageContext["payment"]>,
): Promise<void> {
  const booking = await getBookingWithRelated(deps, bookingId);
  const related = await loadRelated(deps, [booking]);
  const person = booking.person_id === null ? null : (related.people.get(booking.person_id) ?? null);
  const service = booking.service_id === null ? null : (related.services.get(booking.service_id) ?? null);
  if (!person) return;
  const recipients: [Channel, string | null][] = [
    ["email", person.email || null],
    ["sms", person.phone_e164 || null],
  ];
  for (const [channel, recipient] of recipients) {
    if (!recipient) continue;
    const rendered = await renderMessage(templatesFor(kind, channel, deps.account, service), {
      account: deps.account,
      booking,
      person,
      service,
      resource: related.resources.get(booking.resource_id) ?? null,
      payment,
    });
    await enqueueMessage(deps, { kind, channel, recipient, ...rendered, booking_id: booking.id, person_id: person.id }, "record");
  }
}
