// Message output: what was (or will be) sent, to whom, and how its delivery went.
import type { messages } from "../../db/schema";
import { formatNullableInstant } from "../../domain/time";
import { timestampsOut } from "../../http/serialize";

export type Message = typeof messages.$inferSelect;

export function toMessageJson(message: Message, timeZone: string) {
  return {
    id: message.id,
    booking_id: message.booking_id,
    person_id: message.person_id,
    kind: message.kind,
    channel: message.channel,
    recipient: message.recipient,
    subject: message.subject,
    body: message.body,
    status: message.status,
    provider: message.provider,
    error: message.error,
    sent_at: formatNullableInstant(message.sent_at, timeZone),
    ...timestampsOut(message, timeZone),
  };
}
