// The payment provider of this deployment, built on first use: the Stripe SDK is a large module
// that no request without a payment should load (docs/decisions/deploy.md, the bundle budget).
import type { Env } from "../../env";
import { ApiError } from "../../http/errors";
import type { PaymentProvider } from "./provider";

/**
 * The platform's keys are Worker secrets; without them no payment can be taken (a 503, never a
 * free booking). A client per call: the SDK's fetch client keeps I/O of the request that made it,
 * which workerd refuses to share with another request (a cron run, the next visitor).
 */
export async function paymentProvider(env: Env): Promise<PaymentProvider> {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: apiBase } = env;
  if (!secretKey || !webhookSecret) {
    throw new ApiError(503, { error: "Payments are not configured on this deployment (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET)." });
  }
  const { stripeProvider } = await import("./stripe-provider");
  return stripeProvider({ secretKey, webhookSecret, apiBase: apiBase || undefined });
}
