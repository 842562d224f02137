// The delivery-event settings of a Worker under measurement or test (bench/routes.ts, vitest.config.ts),
// which the route catalogue signs its providers' events with (delivery-events.ts).
export const DELIVERY_EVENT_SETTINGS = {
  /** Standard Webhooks secret: whsec_ and base64 of 32 bytes. */
  RESEND_WEBHOOK_SECRET: `whsec_${btoa("resend-delivery-events-test-key!")}`,
  TWILIO_AUTH_TOKEN: "twilio-test-token",
  /** What Twilio is told to call, so what it signs: the Worker verifies against it. */
  TWILIO_STATUS_CALLBACK: "https://api.booking.example/api/v1/messages/twilio/events",
};
