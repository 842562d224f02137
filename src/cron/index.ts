// Cron entry (every minute): each job is idempotent, so overlapping runs do no harm.
import { badConfig, configErrorLine } from "../config";
import { appliedMigrations, shardD1, shardNames } from "../db/shards";
import type { Env } from "../env";
import { deleteClosedAccounts } from "./jobs/delete-closed-accounts";
import { applyRetention } from "./jobs/apply-retention";
import { expireVerifications } from "./jobs/expire-verifications";
import { offerWaitlist } from "./jobs/offer-waitlist";
import { purgeIdempotencyKeys } from "./jobs/purge-idempotency-keys";
import { purgePerishableTokens } from "./jobs/purge-perishable-tokens";
import { sealNationalIds } from "./jobs/seal-national-ids";
import { refreshCalendars } from "./jobs/refresh-calendars";
import { sendReminders } from "./jobs/send-reminders";
import { sweepPayments } from "./jobs/sweep-payments";

/** One job on one shard: every job runs once per shard (db/shards.ts). */
type CronJob = (env: Env, now: number, shard: string) => Promise<void>;

/** Background features register their jobs here, in the order they should run. */
const cronJobs: { name: string; run: CronJob }[] = [
  { name: "expire-verifications", run: expireVerifications },
  { name: "sweep-payments", run: sweepPayments },
  { name: "offer-waitlist", run: offerWaitlist },
  { name: "send-reminders", run: sendReminders },
  { name: "refresh-calendars", run: refreshCalendars },
  { name: "purge-perishable-tokens", run: purgePerishableTokens },
  { name: "purge-idempotency-keys", run: purgeIdempotencyKeys },
  { name: "delete-closed-accounts", run: deleteClosedAccounts },
  { name: "apply-retention", run: applyRetention },
  { name: "seal-national-ids", run: sealNationalIds },
];

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const misconfigured = badConfig(env);
  if (misconfigured) {
    console.error(configErrorLine(misconfigured, { cron: controller.cron }));
    return;
  }
  const now = controller.scheduledTime || Date.now();
  // One failing job (or shard) must not starve the others; each failure is logged with its name.
  // A shard never migrated holds no account (placement skips it): nothing to sweep, nothing to log.
  // One that does not answer is swept anyway, so its jobs log the failure.
  const neverMigrated = (shard: string) =>
    appliedMigrations(shardD1(env, shard)).then(
      (n) => n < 0,
      () => false,
    );
  const skipped = await Promise.all(shardNames(env).map(neverMigrated));
  const shards = shardNames(env).filter((_, i) => !skipped[i]);
  const runs = shards.flatMap((shard) => cronJobs.map((job) => ({ shard, job })));
  const outcomes = await Promise.allSettled(runs.map(({ shard, job }) => job.run(env, now, shard)));
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "rejected") console.error(JSON.stringify({ cron: runs[i].job.name, shard: runs[i].shard, error: String(outcome.reason) }));
  });
}
