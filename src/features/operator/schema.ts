// Operator API input (README, Configuration): account creation and operator-only fields.
import * as z from "zod";
import { accountAttributes, accountUpdate } from "../account/schema";
import { boolean } from "../../http/fields";

export const createAccountBody = z.object({
  account: z
    .object(accountAttributes)
    .partial()
    .required({ subdomain: true, name: true, email: true, time_zone: true, country_code: true })
    .extend({
      shard: z.string().optional().meta({ description: "The D1 binding to hold the account's data (DB, DB_SHARD_1, …); default: the least-loaded shard." }),
    }),
});

export const moveAccountBody = z.object({
  shard: z.string().meta({ description: "The shard to move the account's data to." }),
});

export const operatorUpdateBody = z.object({
  account: accountUpdate.extend({
    api_enabled: boolean().optional(),
    billing_status: z.enum(["ok", "unpaid"]).optional(),
    // The shop's connected Stripe account, linked by the platform's operator (docs/decisions/payments.md).
    stripe_account_id: z.union([z.string().regex(/^acct_[A-Za-z0-9]{1,64}$/, "is not a Stripe account id (acct_…)"), z.null()]).optional(),
  }),
});

export const importAccountQuery = z.object({
  shard: z.string().optional().meta({
    description: "The D1 binding to restore the account's data into; default: the shard it was exported from when this deployment binds it, else the least-loaded shard.",
  }),
});
