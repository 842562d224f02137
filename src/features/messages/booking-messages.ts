// Turns a booking change (or a due reminder) into stored, queued messages: who receives each one,
// rendered at enqueue time so the text shows the booking as it was when the change happened.
import type { Booking } from "../../db/schema";
import type { BookingChange } from "../../domain/booking-states";
import type { Related } from "../bookings/serializer";
import { phoneE164 } from "../people/identity";
import { enqueueMessage, type MessageDeps } from "./enqueue";
import { invitationOf } from "./invitation";
import type { Channel, MessageKind } from "./kinds";
import { dueMessages, type Audience, type DueMessage } from "./plan";
import { namesCalendarFile, renderMessage, type MessageContext } from "./render";
import { bookingFileUrl } from "../calendar-feeds/links";
import { templatesFor } from "./templates";

function contextOf(deps: MessageDeps, booking: Booking, related: Related, link?: string): MessageContext {
  return {
    account: deps.account,
    booking,
    link: link ?? null,
    person: booking.person_id !== null ? (related.people.get(booking.person_id) ?? null) : null,
    service: booking.service_id !== null ? (related.services.get(booking.service_id) ?? null) : null,
    resource: related.resources.get(booking.resource_id) ?? null,
    event: booking.event_id !== null ? (related.events.get(booking.event_id) ?? null) : null,
  };
}

/**
 * Where a message goes, or null when it cannot go anywhere. Customer messages need a person and a
 * service (spec: "Outgoing messages need person_id and service_id"); admin notifications go to the
 * account's notification recipient (or its email) and its phone number.
 */
function recipientOf(deps: MessageDeps, ctx: MessageContext, audience: Audience, channel: Channel): string | null {
  const { account } = deps;
  if (audience === "admin") {
    if (channel === "email") return account.mail_notification_recipient || account.email || null;
    return account.phone_number ? phoneE164(account.phone_number, account.country_code) : null;
  }
  if (!ctx.person || !ctx.service) return null;
  return channel === "email" ? ctx.person.email || null : ctx.person.phone_e164 || null;
}

async function send(deps: MessageDeps, ctx: MessageContext, kind: MessageKind, due: Pick<DueMessage, "channel" | "audience">) {
  const recipient = recipientOf(deps, ctx, due.audience, due.channel);
  if (!recipient) return;
  const choice = templatesFor(kind, due.channel, deps.account, ctx.service ?? null);
  // The http provider posts JSON text, with no attachments: the file travels as a link its templates
  // name. Over SMTP a customer e-mail about the booking's time also carries its invitation (invitation.ts).
  const calendarUrl = namesCalendarFile(choice) ? await bookingFileUrl(deps.db, deps.env, deps.account, ctx.booking!.id) : null;
  const rendered = await renderMessage(choice, { ...ctx, calendarUrl });
  const customer = due.audience === "customer";
  await enqueueMessage(
    deps,
    {
      kind,
      channel: due.channel,
      recipient,
      ...rendered,
      booking_id: ctx.booking!.id,
      person_id: customer ? (ctx.person?.id ?? null) : null,
      invitation: customer && due.channel === "email" ? invitationOf(deps.env, deps.account, ctx, kind, recipient) : null,
    },
    "record",
  );
}

export async function enqueueBookingMessages(deps: MessageDeps, change: BookingChange, booking: Booking, related: Related, link?: string): Promise<void> {
  const due = dueMessages(change, booking, deps.account);
  if (due.length === 0) return;
  const ctx = contextOf(deps, booking, related, link);
  for (const message of due) await send(deps, ctx, message.kind, message);
}

/** The SMS reminder of a booking (cron); reminders are SMS only (`add_reminder_sms`). */
export async function enqueueReminder(deps: MessageDeps, booking: Booking, related: Related): Promise<void> {
  await send(deps, contextOf(deps, booking, related), "reminder", { channel: "sms", audience: "customer" });
}
