// POST /calendar_subscriptions body and GET's filter: a resource subscribes to a calendar address.
import * as z from "zod";
import { idParam, optionalText } from "../../http/fields";
import { MAX_TARGET_URL } from "../webhooks/ssrf";

export const createCalendarSubscriptionBody = z.object({
  calendar_subscription: z.strictObject({
    resource_id: idParam,
    url: z
      .string()
      .min(1, { message: "can't be blank" })
      .max(MAX_TARGET_URL, { message: `is too long (maximum is ${MAX_TARGET_URL} characters)` })
      .meta({ description: "An https (or webcal) iCalendar address. A secret: answered only in this create's answer." }),
    name: optionalText(),
  }),
});

export const listCalendarSubscriptionsQuery = z.object({ resource_id: idParam.optional() });

export type CreateCalendarSubscriptionBody = z.output<typeof createCalendarSubscriptionBody>;
