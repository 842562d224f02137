// The providers' delivery events (docs/decisions/messages.md, "What comes back"):
// POST /api/v1/messages/resend/events and POST /api/v1/messages/twilio/events, with no API key,
// since the provider signs them: the signature is checked on the raw body before anything is read
// from it. Unsigned, wrongly signed, stale or foreign events are a 400 and change nothing.
import { Hono } from "hono";
import { configOf } from "../../config";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/errors";
import { applyDeliveryEvent, type DeliveryEvent } from "./delivery-events";
import { DeliveryEventRefused, verifyResendEvent } from "./resend-events";
import { verifyTwilioEvent } from "./twilio-events";

export const deliveryEventRoutes = new Hono<AppEnv>();

const refusedEvent = (error: unknown): never => {
  if (error instanceof DeliveryEventRefused) throw new ApiError(400, { error: `The event is refused: ${error.message}` });
  throw error;
};

const notConfigured = (setting: string) => new ApiError(400, { error: `The event is refused: this deployment takes no such events (${setting} is not set).` });

const applied = async (env: AppEnv["Bindings"], event: DeliveryEvent, now: number) => ({ received: true, applied: await applyDeliveryEvent(env, event, now) });

deliveryEventRoutes.post("/resend/events", async (c) => {
  if (!c.env.RESEND_WEBHOOK_SECRET) throw notConfigured("RESEND_WEBHOOK_SECRET");
  const raw = await c.req.text();
  const event = await verifyResendEvent(c.env.RESEND_WEBHOOK_SECRET, raw, (name) => c.req.header(name)).catch(refusedEvent);
  return c.json(await applied(c.env, event, c.var.now));
});

/**
 * The URL Twilio signed: the callback it was given (TWILIO_STATUS_CALLBACK) with the query it
 * called, so a proxy or a second host name in front of the Worker does not change what is checked;
 * without one, the URL as called.
 */
function signedUrl(env: AppEnv["Bindings"], called: string): string {
  const callback = configOf(env).TWILIO_STATUS_CALLBACK;
  if (!callback) return called;
  const url = new URL(callback);
  url.search = new URL(called).search;
  return url.toString();
}

deliveryEventRoutes.post("/twilio/events", async (c) => {
  if (!c.env.TWILIO_AUTH_TOKEN) throw notConfigured("TWILIO_AUTH_TOKEN");
  const raw = await c.req.text();
  const event = await verifyTwilioEvent(c.env.TWILIO_AUTH_TOKEN, signedUrl(c.env, c.req.url), raw, c.req.header("x-twilio-signature"), c.var.now).catch(refusedEvent);
  return c.json(await applied(c.env, event, c.var.now));
});
