// How writes reach the capacity guard of their scope: an interface the features take in `deps`,
// with the CapacityGuard Durable Objects (one per resource or event) as the production one.
import { configOf } from "../config";
import type { CapacityGuard } from "../db/guarded-batch";
import type { Env } from "../env";
import { guardKey } from "./capacity-guard";

export type { CapacityGuard, GuardScope } from "../db/guarded-batch";

/**
 * The guards of one shard's resources and events; each writes to that shard. Created where the
 * shard's database is (CAPACITY_GUARD_LOCATIONS), so a guard's own D1 batch is a short hop and the
 * Worker's call to it the only long one; the hint counts only when an object is first created.
 */
export const durableCapacityGuard = (env: Env, shard: string): CapacityGuard => ({
  apply: async (scope, batch) => {
    const locationHint = configOf(env).CAPACITY_GUARD_LOCATIONS[shard];
    const stub = env.CAPACITY_GUARD.getByName(guardKey(shard, scope), locationHint ? { locationHint } : undefined);
    const result = await stub.apply({ ...batch, shard });
    if (result.failure !== undefined) throw new Error(result.failure);
    return result;
  },
});
