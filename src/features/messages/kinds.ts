// The message kinds and channels the service sends, shared by planning, rendering and the API.
export const MESSAGE_KINDS = [
  "verification",
  "confirmation",
  "modification",
  "cancellation",
  "decline",
  "reminder",
  "notification",
  "token",
  "offer",
  // Paid bookings (docs/decisions/payments.md): a nudge to pay once, and word of a refund.
  "payment_reminder",
  "refund",
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const CHANNELS = ["sms", "email"] as const;
export type Channel = (typeof CHANNELS)[number];
