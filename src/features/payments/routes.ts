// The payment provider's web hook (docs/decisions/payments.md): POST /api/v1/payments/stripe/events,
// with no API key, since the provider signs it: the signature is verified by the provider's SDK on
// the raw body before anything is read from it. An unsigned, wrongly signed, replayed (outside the
// tolerance) or foreign event is a 400 and changes nothing.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/errors";
import { applyPaymentEvent } from "./provider-events";
import { PaymentEventRefused } from "./provider";
import { paymentProvider } from "./provider-of";

export const paymentEventRoutes = new Hono<AppEnv>();

paymentEventRoutes.post("/stripe/events", async (c) => {
  const raw = await c.req.text();
  const provider = await paymentProvider(c.env);
  const event = await provider.verifyEvent(raw, c.req.header("stripe-signature")).catch((error: unknown) => {
    if (error instanceof PaymentEventRefused) throw new ApiError(400, { error: `The event is refused: ${error.message}` });
    throw error;
  });
  return c.json({ received: true, ...(await applyPaymentEvent(c.env, event, c.var.now)) });
});
