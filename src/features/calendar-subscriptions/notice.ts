// Telling the account that a subscription keeps failing (issue 32): once, when its failures since
// the last good fetch reach FAILURES_BEFORE_NOTICE, a `calendar_subscription.failing` web hook and
// an e-mail to the account's notification recipient. Its busy times are still the last good ones,
// so the shop learns before they go stale.
import type { CalendarSubscription } from "../../db/schema";
import type { Deps } from "../../env";
import { enqueueMessage } from "../messages/enqueue";
import { emitEvent } from "../webhooks/emit";
import { toCalendarSubscriptionJson } from "./serializer";

/** Three failed fetches in a row: 45 minutes at the fetch interval, past a host's passing hiccup. */
export const FAILURES_BEFORE_NOTICE = 3;

export async function noticeFailing(deps: Deps, subscription: CalendarSubscription): Promise<void> {
  const json = toCalendarSubscriptionJson(subscription, deps.account.time_zone);
  await emitEvent(deps.env, deps.account, "calendar_subscription.failing", { kind: "calendar_subscription", id: subscription.id, json }, { via: "system" }, deps.now);
  const recipient = deps.account.mail_notification_recipient || deps.account.email;
  if (!recipient) return;
  const name = subscription.name ? `"${subscription.name}" (${subscription.url_hint})` : subscription.url_hint;
  await enqueueMessage(
    deps,
    {
      kind: "notification",
      channel: "email",
      recipient,
      subject: "A calendar subscription cannot be read",
      body:
        `The calendar ${name} of resource ${subscription.resource_id} has failed ${subscription.failures} times in a row: ${subscription.last_error ?? "unknown error"}.\n` +
        "Its busy times are kept as they were at the last good fetch. Check the address, or delete the subscription and subscribe again.",
    },
    "record",
  );
}
