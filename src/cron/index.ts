// Cron entry (every minute): each job is idempotent, so overlapping runs do no harm.
import type { Env } from "../env";

export type CronJob = (env: Env, now: number) => Promise<void>;

/** Background features register their jobs here, in the order they should run. */
export const cronJobs: { name: string; run: CronJob }[] = [];

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const now = controller.scheduledTime || Date.now();
  // One failing job must not starve the others; each failure is logged with its name.
  const outcomes = await Promise.allSettled(cronJobs.map((job) => job.run(env, now)));
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "rejected") console.error(JSON.stringify({ cron: cronJobs[i].name, error: String(outcome.reason) }));
  });
}
