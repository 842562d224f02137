// Which messages a booking change calls for: the `*_send_email` / `*_send_sms` flags the requests
// recorded on the booking win, and account settings decide when a flag was not sent (spec:
// Create booking; booleans sent as false are honoured, spec 2020-03-13).
import type { Account, Booking } from "../../db/schema";
import type { BookingChange } from "../../domain/booking-states";
import { EMAIL_VERIFICATION, SMS_VERIFICATION } from "../../domain/verification-methods";
import type { Channel, MessageKind } from "./kinds";

export type Audience = "customer" | "admin";

export interface DueMessage {
  kind: MessageKind;
  channel: Channel;
  audience: Audience;
}

/** The flag prefix each kind answers to (`cancellation_send_sms`, ...). */
const FLAG_PREFIX: Partial<Record<MessageKind, string>> = {
  verification: "verification",
  confirmation: "confirmation",
  modification: "modification",
  cancellation: "cancellation",
  decline: "decline",
  notification: "notification",
};

/** The customer's default channel follows the verification method: SMS, email or none. */
const customerDefault = (account: Account, channel: Channel) =>
  channel === "sms" ? account.verification_method === SMS_VERIFICATION : account.verification_method === EMAIL_VERIFICATION;

const adminDefault = (account: Account, channel: Channel) => (channel === "sms" ? account.sms_notification : account.email_notification);

/** What each change announces, and to whom; `explicitOnly` kinds go out only when a flag asks. */
function kindsFor(change: BookingChange, booking: Booking): { kind: MessageKind; audience: Audience; explicitOnly?: boolean }[] {
  switch (change) {
    case "created":
      if (booking.state === "awaiting_verification") return [{ kind: "verification", audience: "customer" }];
      if (booking.state === "confirmed")
        return [
          { kind: "confirmation", audience: "customer" },
          { kind: "notification", audience: "admin" },
        ];
      if (booking.state === "awaiting_confirmation") return [{ kind: "notification", audience: "admin" }];
      return [];
    case "verified":
    case "paid":
      return booking.state === "confirmed"
        ? [
            { kind: "confirmation", audience: "customer" },
            { kind: "notification", audience: "admin" },
          ]
        : [{ kind: "notification", audience: "admin" }];
    case "confirmed":
      // The administrator confirmed it: they hear about it only when they ask to.
      return [
        { kind: "confirmation", audience: "customer" },
        { kind: "notification", audience: "admin", explicitOnly: true },
      ];
    case "declined":
      return [{ kind: "decline", audience: "customer" }];
    case "cancelled":
      return [{ kind: "cancellation", audience: "customer" }];
    case "deleted":
      // Deleting is bookkeeping (spec: use cancel for customers), so it tells the customer only on request.
      return [{ kind: "cancellation", audience: "customer", explicitOnly: true }];
    case "modified":
      return booking.active ? [{ kind: "modification", audience: "customer" }] : [];
  }
}

export function dueMessages(change: BookingChange, booking: Booking, account: Account): DueMessage[] {
  const flags = booking.message_flags ?? {};
  const due: DueMessage[] = [];
  for (const { kind, audience, explicitOnly } of kindsFor(change, booking)) {
    for (const channel of ["email", "sms"] as const) {
      const flag = flags[`${FLAG_PREFIX[kind]}_send_${channel}`];
      const fallback = explicitOnly ? false : audience === "admin" ? adminDefault(account, channel) : customerDefault(account, channel);
      if (flag ?? fallback) due.push({ kind, channel, audience });
    }
  }
  return due;
}
