// The create's payment stage (docs/decisions/payments.md): whether a new booking waits for its
// payment, and what it pays. The amount is always the server's, from the service and the count,
// in the account's currency; nothing a client sends changes it.
import type { Account, Service } from "../../db/schema";
import { toMinorUnits } from "../../domain/money";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import type { BookingPayment } from "./booking-payment";

export interface PaymentPlan {
  kind: "full" | "deposit";
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
}

/** Payments are on for an account whose provider is Stripe, whose Stripe account is linked, and which has a currency. */
export const paymentsEnabled = (account: Pick<Account, "payment_provider" | "stripe_account_id" | "currency">) =>
  account.payment_provider === "stripe" && account.stripe_account_id !== null && account.currency !== null;

/** What the service asks a booking of `count` seats to pay, or null when it asks nothing. */
function paymentAsked(service: Service | null, account: Pick<Account, "currency">, count: number): PaymentPlan | null {
  if (!service || (service.payment !== "full" && service.payment !== "deposit") || !account.currency) return null;
  const each = service.payment === "deposit" ? service.deposit : service.price;
  if (!each) return null;
  const amount = toMinorUnits(each, account.currency, count);
  return amount > 0 ? { kind: service.payment, amount, currency: account.currency } : null;
}

/**
 * Whether the new booking waits for a payment, and which. On the booking site (page, widget, MCP) a
 * service that asks for payment always does; on the private API only when the integrator asks for
 * the checkout, since an integrator may take payment its own way (and record it).
 */
export function paymentStage(deps: Deps, service: Service | null, count: number, opts: { onSite: boolean; checkout: boolean }): PaymentPlan | null {
  const asked = paymentAsked(service, deps.account, count);
  if (!asked) {
    if (opts.checkout) throw ApiError.invalid("checkout", "is not possible: the service takes no payment");
    return null;
  }
  if (!opts.onSite && !opts.checkout) return null;
  if (!paymentsEnabled(deps.account)) {
    throw ApiError.invalid(opts.onSite ? "service_id" : "checkout", "takes payment online, which this account cannot take now");
  }
  return asked;
}

/** The end of a new booking's payment window: the seat is free again then, with no write. */
export const paymentWindowEnd = (deps: Pick<Deps, "account" | "now">) => Math.floor(deps.now / 1000) * 1000 + deps.account.payment_window_minutes * 60_000;

/** The payment a new booking starts with. */
export function pendingPayment(plan: PaymentPlan, clientHash: string | null): BookingPayment {
  return {
    provider: "stripe",
    kind: plan.kind,
    amount: plan.amount,
    currency: plan.currency,
    status: "pending",
    amount_refunded: 0,
    checkout_session_id: null,
    checkout_url: null,
    payment_intent_id: null,
    refund_id: null,
    reference: null,
    paid_at: null,
    reminded_at: null,
    client_hash: clientHash,
    refund_due: null,
    refund_reason: null,
  };
}
