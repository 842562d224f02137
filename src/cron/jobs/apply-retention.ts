// Cron: the retention pass (features/personal-data/retention.ts), in the first minute of each hour:
// what is due after days does not need a minute's precision, and each run reads every limited
// account's people and bookings once.
import type { Env } from "../../env";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export async function applyRetention(env: Env, now: number, shard: string): Promise<void> {
  if (now % HOUR_MS >= MINUTE_MS) return;
  const { applyRetention: apply } = await import("../../features/personal-data/retention");
  await apply(env, now, shard);
}
